import { Readable } from 'node:stream';
import { bodyKindOf, readUpload } from '../modules/test-results/upload-body.js';
import { prepareReport } from './report-file.js';
import type { CliOutput } from './jobs-command.js';

/** The verdict classes `--fail-on` may name (quarantined failures never fail the gate). */
export const GATE_CLASSES = ['new', 'failing_on_default_branch', 'known_flaky'] as const;
export type GateClass = (typeof GATE_CLASSES)[number];

interface GateFailure {
  spec: string;
  title: string;
  class: string;
  error: string | null;
  ticketKey: string | null;
  flakeRate: number | null;
  suspects: { sha: string; author: string; pullRequest: number | null }[];
}

export interface GateVerdict {
  status: 'pass' | 'fail';
  errored: boolean;
  counts: Record<string, number>;
  failures: GateFailure[];
  url: string;
}

/** `--fail-on a,b`: the classes named, or a usage problem. */
export function parseFailOn(value: string | undefined): GateClass[] | string {
  if (value === undefined) return ['new'];
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !(GATE_CLASSES as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    return `--fail-on takes a comma list of ${GATE_CLASSES.join(', ')}${unknown.length > 0 ? ` (not ${unknown.join(', ')})` : ''}`;
  }
  return names as GateClass[];
}

/** 1 when the run errored or any failure is in a `--fail-on` class, else 0. */
export function gateExitCode(verdict: GateVerdict, failOn: readonly GateClass[]): number {
  if (verdict.errored) return 1;
  return verdict.failures.some((failure) => (failOn as readonly string[]).includes(failure.class)) ? 1 : 0;
}

const TITLES: Record<string, string> = {
  new: 'NEW FAILURES',
  failing_on_default_branch: 'FAILING ON THE DEFAULT BRANCH',
  known_flaky: 'KNOWN FLAKY',
  quarantined: 'QUARANTINED',
};

/** The verdict as the CI log shows it: a block per class, new first, then the run page. */
export function printVerdict(verdict: GateVerdict, failOn: readonly GateClass[], io: CliOutput): void {
  io.out('');
  io.out(`Verdict: ${verdict.status.toUpperCase()}${verdict.errored ? ' (the run errored)' : ''}`);
  for (const name of ['new', 'failing_on_default_branch', 'known_flaky', 'quarantined']) {
    const failures = verdict.failures.filter((failure) => failure.class === name);
    if (failures.length === 0) continue;
    const gating = (failOn as readonly string[]).includes(name) ? ' (fails the gate)' : '';
    io.out(`\n${TITLES[name]} (${failures.length})${gating}`);
    for (const failure of failures) {
      const test = failure.title ? `${failure.spec} › ${failure.title}` : failure.spec;
      const extra =
        failure.ticketKey !== null
          ? `  [${failure.ticketKey}]`
          : failure.flakeRate !== null && name === 'known_flaky'
            ? `  [flake rate ${Math.round(failure.flakeRate * 100)}%]`
            : '';
      io.out(`  ${test}${extra}`);
      if (failure.error) io.out(`      ${failure.error}`);
      for (const suspect of failure.suspects.slice(0, 3)) {
        const pull = suspect.pullRequest !== null ? ` (#${suspect.pullRequest})` : '';
        io.out(`      suspect ${suspect.sha.slice(0, 7)} by ${suspect.author}${pull}`);
      }
    }
  }
  if (verdict.failures.length === 0) io.out('No failing test.');
  io.out(`\nRun page: ${verdict.url}`);
}

/**
 * The files' own verdict when the dashboard cannot give one: 1 when any holds a failed test or
 * crashed, 0 otherwise (never greener than the tests themselves). A file that cannot be read fails.
 */
export async function filesOwnExitCode(files: readonly string[]): Promise<number> {
  for (const file of files) {
    try {
      const report = await prepareReport(file);
      const { report: parsed } = await readUpload(Readable.from([report.body]), {
        kind: bodyKindOf(report.contentType),
        gzipped: true,
        declaredLength: undefined,
        maxBytes: Number.MAX_SAFE_INTEGER,
      });
      if (parsed.totals.failed > 0 || parsed.status === 'errored') return 1;
    } catch {
      return 1;
    }
  }
  return 0;
}
