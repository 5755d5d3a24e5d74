import { NotFoundError } from '../../shared/errors.js';
import type { TestQuarantineLookup } from '../quarantine/report-effects.js';
import type { SuspectCommit } from '../suspects/suspects.service.js';
import {
  byClassThenName,
  classify,
  countByClass,
  FLAKE_WINDOW_DAYS,
  verdictStatus,
} from './verdict-classes.js';
import { defaultBranchStreak, flakeOf, lastPassingCommit, type PastResult } from './verdict-history.js';
import { perTestFailures, perTestHistory, type TestReads } from './test-facts.js';
import { latestAttemptSpecs, pastResults, type RunFailure, runErrored, runFailures } from './run-facts.js';
import type { Verdict, VerdictFailure } from './verdict.schema.js';
import type { RunSpecRow, RunUploadRow, VerdictRepository } from './verdict.repository.js';

const DAY_MS = 86_400_000;
/** Suspects up to this many per new failure; the GitHub walk gets this long before the answer goes without. */
const MAX_SUSPECTS = 20;

export interface VerdictServiceDeps {
  repository: VerdictRepository;
  /** Which active quarantine covers a test (its spec's or its own); spec quarantines only without it. */
  quarantineLookup?: (appId: number) => Promise<TestQuarantineLookup>;
  /** Per-test results (issue #36); without them the verdict works per spec. */
  tests?: TestReads;
  suspects: { commitsWithin(input: SuspectRange, budgetMs: number): Promise<SuspectCommit[]> };
  flakyThreshold: number;
  /** DASHBOARD_PUBLIC_URL (else API_BASE_URL), without a trailing slash. */
  publicUrl: string;
  suspectsBudgetMs?: number;
  now?: () => Date;
}

interface SuspectRange {
  repositoryUrl: string | null;
  base: string | null;
  head: string | null;
}

/** A run as the verdict reads it, and what the run page shows beside it. */
export interface RunReading {
  app: {
    id: number;
    name: string;
    code: string;
    repository_url: string | null;
    default_branch: string;
    pr_feedback: string;
  };
  uploads: RunUploadRow[];
  standing: RunSpecRow[];
  verdict: Verdict;
}

export const runPageUrl = (publicUrl: string, appId: number, runNumber: number) =>
  `${publicUrl}/apps/${appId}/runs/${runNumber}`;

export function createVerdictService(deps: VerdictServiceDeps) {
  const { repository } = deps;
  const now = deps.now ?? (() => new Date());
  const budget = deps.suspectsBudgetMs ?? 5000;

  /** The quarantine covering a test: the quarantine module's per-test lookup, else spec rows. */
  async function quarantinesOf(appId: number) {
    if (deps.quarantineLookup) {
      const lookup = await deps.quarantineLookup(appId);
      return (test: RunFailure) => {
        const found = lookup({ spec: test.spec, title: test.titlePath ?? test.title, testId: test.testId });
        return found ? { ticketKey: found.ticketKey } : null;
      };
    }
    const rows = await repository.activeQuarantines(appId, now().toISOString());
    return (test: RunFailure) => {
      const found = rows.find((row) => row.spec === test.spec);
      return found ? { ticketKey: found.ticket_key } : null;
    };
  }

  /** Each test's earlier results: per-test rows where stored, spec rows for spec-level entries. */
  async function historyOf(
    appId: number,
    runNumber: number,
    tests: readonly RunFailure[],
    before: string,
    perTestIds: ReadonlySet<string>,
  ): Promise<Map<string, PastResult[]>> {
    const specLevel = tests.filter((test) => !perTestIds.has(test.testId));
    const specs = [...new Set(specLevel.map((test) => test.spec))];
    const past = await repository.pastSpecs(appId, runNumber, specs, before);
    const pastFailures = await repository.failuresOf([...new Set(past.map((row) => row.upload_id))], specs);
    const history = pastResults(specLevel, past, pastFailures);
    if (deps.tests && perTestIds.size > 0) {
      const perTest = await perTestHistory(deps.tests, appId, runNumber, [...perTestIds], before);
      for (const [testId, results] of perTest) history.set(testId, results);
    }
    return history;
  }

  async function classifyAll(reading: {
    appId: number;
    app: RunReading['app'];
    tests: RunFailure[];
    history: Map<string, PastResult[]>;
    head: string | null;
    before: string;
  }): Promise<VerdictFailure[]> {
    const { app, tests, history } = reading;
    const quarantineOf = await quarantinesOf(reading.appId);
    const windowStart = new Date(Date.parse(reading.before) - FLAKE_WINDOW_DAYS * DAY_MS).toISOString();
    const failures = tests.map((test) => {
      const results = history.get(test.testId) ?? [];
      const onDefault = results.filter((result) => result.branch === app.default_branch);
      const quarantine = quarantineOf(test);
      const classified = classify(
        {
          ...test,
          quarantine,
          flake: flakeOf(onDefault.filter((result) => result.createdAt >= windowStart)),
          defaultBranch: defaultBranchStreak(onDefault),
          lastPassSha: null,
        },
        deps.flakyThreshold,
      );
      return { test, classified, lastPass: lastPassingCommit(results) };
    });
    return Promise.all(
      failures.map(async ({ test, classified, lastPass }) => ({
        testId: test.testId,
        spec: test.spec,
        title: test.title,
        error: test.error,
        ...classified,
        suspects:
          classified.class === 'new'
            ? (
                await deps.suspects.commitsWithin(
                  { repositoryUrl: app.repository_url, base: lastPass, head: reading.head },
                  budget,
                )
              ).slice(0, MAX_SUSPECTS)
            : [],
      })),
    );
  }

  /** The run's failing tests: per test where the uploads stored them, else per spec. */
  async function runTests(appId: number, runNumber: number, standing: RunSpecRow[]) {
    const perTest = deps.tests && perTestFailures(await deps.tests.resultsOfRun(appId, runNumber));
    const specLevel = perTest ? standing.filter((row) => !perTest.specsWithFailures.has(row.spec)) : standing;
    const failureRows = perTest
      ? []
      : await repository.failuresOf([...new Set(standing.map((row) => row.upload_id))]);
    // With per-test rows, a spec still fails as itself when no test of it failed (a crash naming it).
    const specTests = runFailures(
      perTest ? specLevel.map((row) => ({ ...row, flaky: 0 })) : specLevel,
      failureRows,
    );
    const tests = [...(perTest?.failures ?? []), ...specTests];
    return { tests, perTestIds: new Set(perTest?.failures.map((test) => test.testId) ?? []) };
  }

  return {
    /** The run's verdict and what it was read from; 404 for an unknown app or run. */
    async read(appId: number, runNumber: number): Promise<RunReading> {
      const app = await repository.findApp(appId);
      if (!app) throw new NotFoundError(`Application ${appId} not found`);
      const uploads = await repository.runUploads(appId, runNumber);
      if (uploads.length === 0) throw new NotFoundError(`Application ${appId} has no run ${runNumber}`);
      const specs = await repository.specsOf(uploads.map((upload) => upload.id));
      const standing = latestAttemptSpecs(uploads, specs);
      const { tests, perTestIds } = await runTests(appId, runNumber, standing);
      const newest = [...uploads].sort((a, b) => b.attempt - a.attempt || b.id - a.id)[0]!;
      const before = uploads.reduce(
        (min, upload) => (upload.created_at < min ? upload.created_at : min),
        newest.created_at,
      );
      const head = newest.commit_sha ?? uploads.find((upload) => upload.commit_sha)?.commit_sha ?? null;
      const history = await historyOf(appId, runNumber, tests, before, perTestIds);
      const failures = (await classifyAll({ appId, app, tests, history, head, before })).sort(
        byClassThenName,
      );
      const counts = countByClass(failures);
      const errored = runErrored(uploads);
      return {
        app,
        uploads,
        standing,
        verdict: {
          appId,
          runNumber,
          commitSha: head,
          branch: newest.branch ?? uploads.find((upload) => upload.branch)?.branch ?? null,
          status: verdictStatus(counts, errored),
          errored,
          counts,
          failures,
          url: runPageUrl(deps.publicUrl, appId, runNumber),
        },
      };
    },

    async verdict(appId: number, runNumber: number): Promise<Verdict> {
      return (await this.read(appId, runNumber)).verdict;
    },
  };
}

export type VerdictService = ReturnType<typeof createVerdictService>;
