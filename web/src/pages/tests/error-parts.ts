import { diffChars, diffWordsWithSpace } from 'diff';
import { parseFrameLine, parseStack, type StackLine } from './stack-frames';

/*
 * A test's error split into what a reader looks at: the headline, the expected and received values
 * (or the runner's line diff), the rest of the message (Playwright's locator and call log), the
 * code frame Playwright prints, and the stack. The runners' message formats are read here: no
 * library parses them. The character- and word-level differences inside a pair are computed by
 * `diff` (jsdiff).
 */

/** A piece of a value: `changed` marks what differs from the other side. */
export interface Segment {
  text: string;
  changed: boolean;
}

/** Two values side by side: Jest's and Playwright's "Expected:/Received:", Chai's "expected A to equal B". */
export interface ValueDiff {
  kind: 'values';
  expectedLabel: string;
  receivedLabel: string;
  expected: Segment[];
  received: Segment[];
}

export type DiffRole = 'expected' | 'received' | 'same';

export interface DiffLine {
  role: DiffRole;
  segments: Segment[];
}

/** The runner's own line diff: Jest/Vitest "- Expected + Received", Mocha "+ expected - actual". */
export interface LineDiff {
  kind: 'lines';
  lines: DiffLine[];
}

export interface CodeFrameLine {
  number: number | null;
  text: string;
  /** The line the error points at (`>` in the margin). */
  current: boolean;
  /** The caret line under it. */
  caret: boolean;
}

export interface ErrorParts {
  headline: string;
  diff: ValueDiff | LineDiff | null;
  /** The message's other lines (locator, timeout, call log), trimmed of blank edges. */
  details: string[];
  codeFrame: CodeFrameLine[];
  stack: StackLine[];
}

// eslint-disable-next-line no-control-regex -- colour codes are control characters by definition
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
export const stripAnsi = (text: string) => text.replace(ANSI, '');

/** Where a pair of values differs: by character for short single words, by word otherwise. */
export function valueSegments(
  expected: string,
  received: string,
): { expected: Segment[]; received: Segment[] } {
  const byWord = /\s/.test(expected) || /\s/.test(received) || expected.length + received.length > 200;
  const changes = byWord ? diffWordsWithSpace(expected, received) : diffChars(expected, received);
  const out = { expected: [] as Segment[], received: [] as Segment[] };
  for (const change of changes) {
    if (!change.added) out.expected.push({ text: change.value, changed: change.removed });
    if (!change.removed) out.received.push({ text: change.value, changed: change.added });
  }
  return out;
}

const EXPECTED_LINE = /^\s*(Expected(?: [a-z]+)?): ?(.*)$/;
const RECEIVED_LINE = /^\s*(Received(?: [a-z]+)?): ?(.*)$/;

/** "Expected: X" with a "Received: Y" below it (Jest, Playwright, Vitest's toBe). */
function labelledValues(lines: string[], used: Set<number>): ValueDiff | null {
  const e = lines.findIndex((line) => EXPECTED_LINE.test(line));
  if (e < 0) return null;
  const r = lines.findIndex((line, index) => index > e && RECEIVED_LINE.test(line));
  if (r < 0 || r - e > 4) return null;
  const [, expectedLabel, expected] = EXPECTED_LINE.exec(lines[e]!)!;
  const [, receivedLabel, received] = RECEIVED_LINE.exec(lines[r]!)!;
  used.add(e).add(r);
  return {
    kind: 'values',
    expectedLabel: expectedLabel!,
    receivedLabel: receivedLabel!,
    ...valueSegments(expected!, received!),
  };
}

const CHAI =
  /^(?:AssertionError(?: \[\w+\])?: )?expected (.+?) to (?:(not) )?(deeply equal|strictly equal|equal|eql|be|include|contain|have length of|have property|match) (.+)$/;

/** Chai's one line: `expected { total: 20 } to deeply equal { total: 30 }` (actual first). */
function chaiValues(headline: string): ValueDiff | null {
  const match = CHAI.exec(headline.trim());
  if (!match) return null;
  const [, actual, not, verb, expected] = match;
  return {
    kind: 'values',
    expectedLabel: `Expected (to ${not ? 'not ' : ''}${verb})`,
    receivedLabel: 'Received',
    ...valueSegments(expected!, actual!),
  };
}

/** Pairs each run of one side's lines with an equal run of the other side after it, for the changes inside lines. */
function withInlineChanges(lines: { role: DiffRole; text: string }[]): DiffLine[] {
  const out: DiffLine[] = lines.map((line) => ({
    role: line.role,
    segments: [{ text: line.text, changed: false }],
  }));
  const runEnd = (from: number) => {
    let end = from;
    while (end < lines.length && lines[end]!.role === lines[from]!.role) end += 1;
    return end;
  };
  for (let i = 0; i < lines.length;) {
    const j = runEnd(i);
    const k = j < lines.length ? runEnd(j) : j;
    const paired = lines[i]!.role !== 'same' && j < lines.length && lines[j]!.role !== 'same';
    if (paired && k - j === j - i) {
      for (let n = 0; n < j - i; n += 1) {
        const first = lines[i + n]!;
        const second = lines[j + n]!;
        const pair =
          first.role === 'expected'
            ? valueSegments(first.text, second.text)
            : valueSegments(second.text, first.text);
        out[i + n]!.segments = first.role === 'expected' ? pair.expected : pair.received;
        out[j + n]!.segments = first.role === 'expected' ? pair.received : pair.expected;
      }
      i = k;
    } else i = j;
  }
  return out;
}

interface DiffHeader {
  /** The sign that marks the expected side; the other sign marks the received side. */
  expectedSign: '-' | '+';
  /** Lines of the header, counted from its first. */
  size: number;
}

function diffHeader(lines: string[], at: number): DiffHeader | null {
  const line = lines[at]!.trim();
  if (/^- Expected\b/.test(line) && /^\+ Received\b/.test(lines[at + 1]?.trim() ?? '')) {
    return { expectedSign: '-', size: 2 };
  }
  if (/^\+ expected - actual$/.test(line)) return { expectedSign: '+', size: 1 };
  if (/^\+ actual - expected$/.test(line)) return { expectedSign: '-', size: 1 };
  return null;
}

/** The runner's line diff: the header, a blank line, then lines signed `-`, `+` or ` `. */
function lineDiff(lines: string[], used: Set<number>): LineDiff | null {
  for (let at = 0; at < lines.length; at += 1) {
    const header = diffHeader(lines, at);
    if (!header) continue;
    let i = at + header.size;
    while (i < lines.length && lines[i]!.trim() === '') i += 1;
    // Mocha indents the whole block; the header's indent is the block's.
    const indent = /^\s*/.exec(lines[at]!)![0].length;
    const body: { role: DiffRole; text: string }[] = [];
    const start = i;
    for (; i < lines.length; i += 1) {
      const raw = lines[i]!;
      if (raw.trim() === '' || parseFrameLine(raw)) break;
      const line = raw.slice(Math.min(indent, /^\s*/.exec(raw)![0].length));
      const sign = line[0];
      if (sign !== '-' && sign !== '+' && sign !== ' ') break;
      const role: DiffRole = sign === ' ' ? 'same' : sign === header.expectedSign ? 'expected' : 'received';
      body.push({ role, text: line.slice(1).replace(/^ /, '') });
    }
    if (body.length === 0) continue;
    for (let n = at; n < i; n += 1) used.add(n);
    if (start > at + header.size) used.add(at + header.size);
    return { kind: 'lines', lines: withInlineChanges(body) };
  }
  return null;
}

const CODE_LINE = /^\s*(>)?\s*(\d+) \|(?: (.*))?$/;
const CARET_LINE = /^\s*\|(\s*\^.*)$/;

function codeFrame(lines: string[], used: Set<number>): CodeFrameLine[] {
  const out: CodeFrameLine[] = [];
  lines.forEach((line, index) => {
    const code = CODE_LINE.exec(line);
    const caret = code ? null : CARET_LINE.exec(line);
    if (!code && !caret) return;
    used.add(index);
    out.push(
      code
        ? { number: Number(code[2]), text: code[3] ?? '', current: code[1] === '>', caret: false }
        : { number: null, text: caret![1]!.replace(/^ /, ''), current: false, caret: true },
    );
  });
  return out;
}

/** Blank lines at both ends and runs of blank lines are dropped. */
function tidy(lines: string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    if (line.trim() === '' && (out.length === 0 || out[out.length - 1]!.trim() === '')) continue;
    out.push(line.replace(/\s+$/, ''));
  }
  while (out.length > 0 && out[out.length - 1]!.trim() === '') out.pop();
  return out;
}

/**
 * The whole text of an error, once. Readers store it differently: JUnit's message is the message
 * attribute or the text's first line and its stack the whole text (diff included); Playwright's
 * message carries the code frame and its stack repeats the message without it; V8 stacks start
 * with the message; pytest's text is the source with `E` lines beside a separate message.
 */
export function fullText(message: string, stack: string | null): string {
  if (!stack?.trim()) return message;
  if (!message.trim() || stack.includes(message.trim())) return stack;
  if (message.includes(stack.trim())) return message;
  const firstLine = (text: string) =>
    text
      .split(/\r?\n/)
      .find((line) => line.trim() !== '')
      ?.trim();
  if (firstLine(message) === firstLine(stack)) {
    const known = new Set(message.split(/\r?\n/).map((line) => line.trim()));
    const more = stack.split(/\r?\n/).filter((line) => line.trim() !== '' && !known.has(line.trim()));
    return more.length > 0 ? `${message}\n${more.join('\n')}` : message;
  }
  return `${message}\n${stack}`;
}

/** Splits a stored error for reading: headline, diff, details, code frame and stack, from its whole text. */
export function errorParts(error: { message: string; stack: string | null }): ErrorParts {
  const lines = fullText(stripAnsi(error.message), error.stack ? stripAnsi(error.stack) : null).split(
    /\r?\n/,
  );
  const first = lines.findIndex((line) => line.trim() !== '');
  const headline = first >= 0 ? lines[first]!.trim() : '';
  const used = new Set<number>([first]);
  const diff = lineDiff(lines, used) ?? labelledValues(lines, used) ?? chaiValues(headline);
  const frame = codeFrame(lines, used);
  const frames: string[] = [];
  const details: string[] = [];
  lines.forEach((line, index) => {
    if (used.has(index)) return;
    if (parseFrameLine(line)) frames.push(line);
    else details.push(line);
  });
  return { headline, diff, details: tidy(details), codeFrame: frame, stack: parseStack(frames.join('\n')) };
}
