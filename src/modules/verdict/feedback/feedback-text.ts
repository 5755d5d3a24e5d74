import type { VerdictClass } from '../verdict-classes.js';
import type { Verdict, VerdictFailure } from '../verdict.schema.js';

/** The hidden line that finds the app's comment again on a pull request. */
export const commentMarker = (appCode: string) => `<!-- test-dashboard:${appCode} -->`;

const MAX_DESCRIPTION = 140;
const MAX_ROWS = 20;
const MAX_SUSPECTS = 3;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

const PHRASES: Record<VerdictClass, (count: number) => string> = {
  new: (count) => plural(count, 'new failure', 'new failures'),
  failing_on_default_branch: (count) => `${count} failing on default branch`,
  known_flaky: (count) => `${count} known flaky`,
  quarantined: (count) => `${count} quarantined`,
};

/** Feedback order: new first, as a reader acts on them. */
const FEEDBACK_ORDER: readonly VerdictClass[] = [
  'new',
  'failing_on_default_branch',
  'known_flaky',
  'quarantined',
];

/** `2 new failures · 1 known flaky · 1 quarantined`; a passing run without failures says so. */
export function headline(verdict: Pick<Verdict, 'counts' | 'errored'>, testsPassed?: number): string {
  const parts = FEEDBACK_ORDER.filter((name) => verdict.counts[name] > 0).map((name) =>
    PHRASES[name](verdict.counts[name]),
  );
  if (verdict.errored) parts.unshift('run errored');
  if (parts.length > 0) return parts.join(' · ');
  return testsPassed === undefined ? 'all tests passed' : `all ${testsPassed} tests passed`;
}

/** The commit status's description, at most 140 characters (GitHub's limit). */
export function statusDescription(
  verdict: Pick<Verdict, 'counts' | 'errored'>,
  testsPassed?: number,
): string {
  const text = headline(verdict, testsPassed);
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}

const CLASS_TITLES: Record<VerdictClass, string> = {
  new: 'New failures',
  failing_on_default_branch: 'Already failing on the default branch',
  known_flaky: 'Known flaky',
  quarantined: 'Quarantined',
};

/**
 * Text from uploads (test names, errors, authors) as one literal line of GitHub Markdown: the
 * characters that open Markdown structure inside a line are backslash-escaped (no link, image,
 * emphasis, strike-through, table cell or code span can be opened; dots and colons stay as they
 * are so names read as written), `<`/`>` become entities (no HTML, no hidden marker), and
 * a zero-width space after `@`, `#` and a URL's scheme keeps GitHub from turning a name into a
 * mention, an issue reference or a link.
 */
function inline(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ');
  const cut = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  return cut
    .replace(/[\\`*_{}[\]()#!|~]/g, (c) => `\\${c}`)
    .replace(/[<>]/g, (c) => (c === '<' ? '&lt;' : '&gt;'))
    .replace(/(@|#|\bwww|\bhttps?)/g, '$1\u200b');
}

function testName(failure: VerdictFailure): string {
  return failure.title ? `${failure.spec} › ${failure.title}` : failure.spec;
}

function row(failure: VerdictFailure, testUrl: (testId: string) => string): string {
  const error = failure.error ? ` — ${inline(failure.error, 160)}` : '';
  const extra =
    failure.class === 'quarantined' && failure.ticketKey
      ? ` (${inline(failure.ticketKey, 40)})`
      : failure.class === 'known_flaky' && failure.flakeRate !== null
        ? ` (flake rate ${Math.round(failure.flakeRate * 100)}%)`
        : '';
  const lines = [`- [${inline(testName(failure))}](${testUrl(failure.testId)})${extra}${error}`];
  if (failure.class === 'new' && failure.suspects.length > 0) {
    const suspects = failure.suspects.slice(0, MAX_SUSPECTS).map((suspect) => {
      const pull = suspect.pullRequest !== null ? `#${suspect.pullRequest} ` : '';
      return `${pull}${suspect.sha.slice(0, 7)} by ${inline(suspect.author, 60)}`;
    });
    lines.push(`  - suspects: ${suspects.join(', ')}`);
  }
  return lines.join('\n');
}

/**
 * The pull-request comment: marker, headline, then the failures by class (new first, at most 20
 * rows, then "and N more" linking to the run page), or one line for a run without failures.
 */
export function commentBody(input: {
  appCode: string;
  appName: string;
  verdict: Verdict;
  testsPassed: number;
  testUrl: (testId: string) => string;
}): string {
  const { verdict } = input;
  const icon = verdict.status === 'pass' ? '✅' : '❌';
  const lines = [
    commentMarker(input.appCode),
    `### ${icon} ${inline(input.appName, 100)}: ${headline(verdict, input.testsPassed)}`,
    '',
  ];
  if (verdict.failures.length === 0) {
    lines.push(`All ${input.testsPassed} tests passed.`);
  } else if (verdict.status === 'pass') {
    lines.push(`No new failures: ${headline({ ...verdict, errored: false })}.`);
  }
  let shown = 0;
  for (const name of FEEDBACK_ORDER) {
    const failures = verdict.failures.filter((failure) => failure.class === name);
    if (failures.length === 0 || shown >= MAX_ROWS) continue;
    const rows = failures.slice(0, MAX_ROWS - shown);
    shown += rows.length;
    lines.push(
      '',
      `**${CLASS_TITLES[name]}** (${failures.length})`,
      '',
      ...rows.map((f) => row(f, input.testUrl)),
    );
  }
  const more = verdict.failures.length - shown;
  if (more > 0) lines.push('', `…and ${more} more: [see the run](${verdict.url})`);
  lines.push('', `[Run #${verdict.runNumber} on the dashboard](${verdict.url})`);
  return lines.join('\n');
}
