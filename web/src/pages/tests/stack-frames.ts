import { parse as parseV8OrGecko } from 'stacktrace-parser';

/*
 * A stack, line by line, for reading: which frames are in the project's own files, which in its
 * dependencies and which in the runner or Node itself. JavaScript frames (V8's "at …" and Gecko's
 * "fn@file:line:col") are read by stacktrace-parser; it knows neither Python tracebacks nor
 * Vitest's "❯ file:line:col" marks, so those two forms are read here.
 */

export type FrameOrigin = 'project' | 'dependency' | 'runner';

export interface StackFrame {
  kind: 'frame';
  raw: string;
  fn: string | null;
  file: string;
  line: number | null;
  column: number | null;
  origin: FrameOrigin;
}

export type StackLine = StackFrame | { kind: 'text'; raw: string };

/** Files of the test runners and of Node or the browser: never where a test goes wrong. */
const RUNNER_PATTERNS = [
  /^node:/,
  /^internal\//,
  /^<anonymous>$/,
  /^native$/,
  /(^|\/)(playwright|playwright-core|@playwright\/test)\/lib\//,
  /(^|\/)node_modules\/(@jest\/[^/]+|jest-[^/]+|jest|mocha|vitest|@vitest\/[^/]+|tinypool|cypress)\//,
  /(^|\/)(site|dist)-packages\/(_pytest|pluggy|pytest)\//,
  /(^|\/)_pytest\//,
];
const DEPENDENCY_PATTERNS = [/(^|\/)node_modules\//, /(^|\/)(site|dist)-packages\//];

export function originOf(file: string): FrameOrigin {
  const path = file.replace(/\\/g, '/').replace(/^file:\/\//, '');
  if (RUNNER_PATTERNS.some((pattern) => pattern.test(path))) return 'runner';
  if (DEPENDENCY_PATTERNS.some((pattern) => pattern.test(path))) return 'dependency';
  return 'project';
}

const PYTHON_FRAME = /^\s*File "([^"]+)", line (\d+)(?:, in (.+))?\s*$/;
/** pytest's short form under a failure: `tests/test_checkout.py:9: AssertionError`. */
const PYTEST_LOCATION = /^([^\s:]+\.py):(\d+): (\w[\w.]*)\s*$/;
const VITEST_FRAME = /^\s*❯\s+(?:(\S+)\s+)?(\S+?):(\d+):(\d+)\s*$/;
const V8_FRAME = /^\s*at\s/;
const GECKO_FRAME = /^\s*[^\s@]*@\S+:\d+(:\d+)?\s*$/;

function frame(raw: string, fn: string | null, file: string, line: number | null, column: number | null) {
  return { kind: 'frame', raw, fn, file, line, column, origin: originOf(file) } satisfies StackFrame;
}

/** One line of a stack as a frame, or null when it is not one. */
export function parseFrameLine(raw: string): StackFrame | null {
  const python = PYTHON_FRAME.exec(raw);
  if (python) return frame(raw, python[3] ?? null, python[1]!, Number(python[2]), null);
  const pytest = PYTEST_LOCATION.exec(raw);
  if (pytest) return frame(raw, null, pytest[1]!, Number(pytest[2]), null);
  const vitest = VITEST_FRAME.exec(raw);
  if (vitest) return frame(raw, vitest[1] ?? null, vitest[2]!, Number(vitest[3]), Number(vitest[4]));
  if (!V8_FRAME.test(raw) && !GECKO_FRAME.test(raw)) return null;
  const [parsed] = parseV8OrGecko(raw);
  if (!parsed?.file) return null;
  const fn = parsed.methodName === '<unknown>' ? null : parsed.methodName;
  return frame(raw, fn, parsed.file, parsed.lineNumber, parsed.column);
}

/** Every line of a stack (or of a message with frames in it), frames recognised. */
export function parseStack(text: string): StackLine[] {
  return text
    .split(/\r?\n/)
    .filter((raw) => raw.trim() !== '')
    .map((raw) => parseFrameLine(raw) ?? { kind: 'text', raw });
}

/** `file:line:column` of a frame, as written in the stack. */
export function frameLocation(frame: StackFrame): string {
  return [frame.file, frame.line, frame.column].filter((part) => part !== null).join(':');
}

/** The first frame in the project's own files: where the reader should look first. */
export function firstProjectFrame(lines: readonly StackLine[]): StackFrame | undefined {
  return lines.find((line): line is StackFrame => line.kind === 'frame' && line.origin === 'project');
}
