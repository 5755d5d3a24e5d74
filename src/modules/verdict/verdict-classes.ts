import { createHash } from 'node:crypto';

/** The classes of a failure in a run's verdict, in the order they are checked (issue #37). */
export const VERDICT_CLASSES = ['quarantined', 'known_flaky', 'failing_on_default_branch', 'new'] as const;
export type VerdictClass = (typeof VERDICT_CLASSES)[number];

/** Days of default-branch history a flake rate is measured over, and the runs it needs. */
export const FLAKE_WINDOW_DAYS = 14;
export const FLAKE_MIN_RUNS = 5;

/** What is known about one test that failed (or passed only on a retry) in the run. */
export interface TestEvidence {
  testId: string;
  spec: string;
  title: string;
  /** `flaky`: passed only on a retry in this run. */
  outcome: 'failed' | 'flaky';
  /** First line of its error in this run, null when none was recorded. */
  error: string | null;
  /** An active quarantine covering the test or its spec. */
  quarantine: { ticketKey: string | null } | null;
  /** Flaky runs ÷ runs on the default branch over the last 14 days. */
  flake: { rate: number; runs: number } | null;
  /** Its latest result on the default branch before this run. */
  defaultBranch: { latestFailed: boolean; since: string | null } | null;
  /** The newest commit (any branch, before this run) where it passed. */
  lastPassSha: string | null;
}

export interface Classified {
  class: VerdictClass;
  since: string | null;
  flakeRate: number | null;
  ticketKey: string | null;
}

/** The one class of a failure: the first rule that holds, in the order of VERDICT_CLASSES. */
export function classify(evidence: TestEvidence, flakyThreshold: number): Classified {
  const flakeRate = evidence.flake ? roundRate(evidence.flake.rate) : null;
  const base = { since: null, flakeRate, ticketKey: null };
  if (evidence.quarantine) {
    return { ...base, class: 'quarantined', ticketKey: evidence.quarantine.ticketKey };
  }
  const flakyOnDefault =
    evidence.flake !== null && evidence.flake.runs >= FLAKE_MIN_RUNS && evidence.flake.rate >= flakyThreshold;
  if (evidence.outcome === 'flaky' || flakyOnDefault) return { ...base, class: 'known_flaky' };
  if (evidence.defaultBranch?.latestFailed) {
    return { ...base, class: 'failing_on_default_branch', since: evidence.defaultBranch.since };
  }
  return { ...base, class: 'new' };
}

const roundRate = (rate: number) => Math.round(rate * 10_000) / 10_000;

export type VerdictCounts = Record<VerdictClass, number>;

export function countByClass(failures: readonly { class: VerdictClass }[]): VerdictCounts {
  const counts: VerdictCounts = { new: 0, failing_on_default_branch: 0, known_flaky: 0, quarantined: 0 };
  for (const failure of failures) counts[failure.class] += 1;
  return counts;
}

/** `fail` when any failure is new or the run errored; known failures alone let a run pass. */
export function verdictStatus(counts: VerdictCounts, errored: boolean): 'pass' | 'fail' {
  return errored || counts.new > 0 ? 'fail' : 'pass';
}

const CLASS_RANK = new Map(VERDICT_CLASSES.map((name, index) => [name, index]));

/** Class order (quarantined first, as the verdict lists them), then spec and title. */
export function byClassThenName<T extends { class: VerdictClass; spec: string; title: string }>(
  a: T,
  b: T,
): number {
  return (
    CLASS_RANK.get(a.class)! - CLASS_RANK.get(b.class)! ||
    a.spec.localeCompare(b.spec) ||
    a.title.localeCompare(b.title)
  );
}

/**
 * The verdict's version: what decides its feedback (status, errored, each failing test's class),
 * not its wording or suspects, so that a shard changing nothing posts nothing.
 */
export function verdictDigest(verdict: {
  status: string;
  errored: boolean;
  failures: readonly { testId: string; class: VerdictClass }[];
}): string {
  const failures = verdict.failures.map((failure) => `${failure.class}\u0000${failure.testId}`).sort();
  const text = JSON.stringify([verdict.status, verdict.errored, failures]);
  return createHash('sha256').update(text).digest('hex');
}

/** The first line of an error, trimmed and at most 500 characters. */
export function firstLine(message: string | null | undefined): string | null {
  if (!message) return null;
  const line = message.split('\n').find((part) => part.trim() !== '') ?? '';
  const trimmed = line.trim();
  if (trimmed === '') return null;
  return trimmed.length > 500 ? `${trimmed.slice(0, 499)}…` : trimmed;
}
