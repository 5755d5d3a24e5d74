import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeGitHub, fakeCommit, fakeCommitPull, startFakeGitHub } from '../../fakes/fake-github.js';
import { eventually, type ReportHarness, specRow, startReportHarness } from '../../support/report-harness.js';
import { DIALECTS } from '../../support/databases.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies, read freely
type Json = Record<string, any>;

const TOKEN = 'ghp_whywiretoken1234567890abcdefghij';
const BUDGET_MS = 1000;
const sha = (n: number) => n.toString(16).padStart(40, 'c');
const runUrl = (n: number) => `https://cloud.cypress.io/projects/shop/runs/${n}`;
const at = (date: string, run: number) =>
  new Date(Date.parse(`${date}T00:00:00.000Z`) - (20 - run) * 3_600_000).toISOString();
const alice = {
  number: 412,
  title: 'Checkout rewrite',
  url: 'https://github.com/acme/shop/pull/412',
  author: 'alice',
};

describe.each(DIALECTS)('why a spec fails: history, streak commits and alerts (%s)', (dialect) => {
  let h: ReportHarness;
  let github: FakeGitHub;
  let checkout: number;

  beforeAll(async () => {
    github = await startFakeGitHub({ token: TOKEN });
    h = await startReportHarness({
      dialect,
      env: { GITHUB_URL: github.url, GITHUB_TOKEN: TOKEN, EXTERNAL_TIMEOUT_MS: String(BUDGET_MS) },
    });
    github.setCommits(
      'acme',
      'shop',
      Array.from({ length: 20 }, (_, i) => fakeCommit('acme', 'shop', sha(i + 1))),
    );
    github.setCommitPulls('acme', 'shop', sha(11), [
      fakeCommitPull('acme', 'shop', 412, { title: 'Checkout rewrite', user: { login: 'alice' } }),
    ]);
    const created = await h.api({
      method: 'POST',
      url: '/api/apps',
      payload: {
        name: 'checkout',
        code: 'checkout',
        pipelineUrl: 'https://ci.example.com/p',
        repositoryUrl: 'https://github.com/acme/shop',
      },
    });
    checkout = created.json<Json>().data.id as number;
  });
  afterAll(async () => {
    await h.close();
    await github.close();
  });
  beforeEach(() => {
    github.hang = false;
    github.failWith = undefined;
  });

  const get = (url: string) => h.api({ method: 'GET', url });
  const generate = async (date: string) => {
    await get(`/api/e2e_run_report?date=${date}`);
    return (await h.waitForReport(date)).json<Json>().summary.id as number;
  };
  const alertOf = (runId: number) =>
    eventually(
      async () => (await get('/api/notifications?type=e2e_failure&limit=100')).json<Json>().data as Json[],
      (list) => list.some((n) => n.data.runId === runId),
    ).then((list) => list.find((n) => n.data.runId === runId)!);

  /** Rows of login.cy.ts (runs `from`..`to`, failing in `failing`) and of a passing cart.cy.ts. */
  const rows = (date: string, from: number, to: number, failing: readonly number[]) =>
    Array.from({ length: to - from + 1 }, (_, i) => from + i).flatMap((run) => [
      specRow('checkout', run, {
        spec: 'login.cy.ts',
        status: failing.includes(run) ? 'failed' : 'passed',
        flaky_tests: run === 5 ? 1 : 0,
        created_at: at(date, run),
        commit_sha: sha(run),
        run_url: runUrl(run),
      }),
      specRow('checkout', run, {
        spec: 'cart.cy.ts',
        created_at: at(date, run),
        commit_sha: sha(run),
        run_url: runUrl(run),
      }),
    ]);

  it('keeps the last 10 results oldest first, the run links and the streak commits; the alert names the suspects', async () => {
    const date = '2026-05-14';
    // The export lists runs newest first here: the history is kept by run number.
    h.fake.rows = [
      ...rows(date, 1, 12, [2, 11, 12]).reverse(),
      // Failing in every run of the window: no passing commit to compare with.
      ...[11, 12].map((run) =>
        specRow('checkout', run, {
          spec: 'boot.cy.ts',
          status: 'failed',
          created_at: at(date, run),
          commit_sha: sha(run),
        }),
      ),
    ];
    const summaryId = await generate(date);
    const specs = (await get(`/api/e2e_run_report/${summaryId}/${checkout}/specs`)).json<Json>()
      .data as Json[];
    const login = specs.find((spec) => spec.spec === 'login.cy.ts')!;
    expect(login.history).toHaveLength(10);
    expect(login.history[0]).toEqual({ runNumber: 3, status: 'passed', at: at(date, 3) });
    expect(login.history.map((result: Json) => `${result.runNumber}:${result.status}`)).toEqual([
      '3:passed',
      '4:passed',
      '5:flaky',
      '6:passed',
      '7:passed',
      '8:passed',
      '9:passed',
      '10:passed',
      '11:failed',
      '12:failed',
    ]);
    expect(login).toMatchObject({
      lastStatus: 'failed',
      lastRunUrl: runUrl(12),
      lastFailedRunNumber: 12,
      lastFailedRunUrl: runUrl(12),
      firstFailedCommitSha: sha(11),
      lastPassedCommitSha: sha(10),
      // The Cypress export carries no error text.
      lastError: null,
    });
    expect(specs.find((spec) => spec.spec === 'cart.cy.ts')).toMatchObject({
      firstFailedCommitSha: null,
      lastPassedCommitSha: sha(12),
      lastFailedRunNumber: null,
      lastFailedRunUrl: null,
    });

    const alert = await alertOf(12);
    expect(alert.data.quarantinedFailingSpecs).toEqual([]);
    expect(alert.data.failingSpecDetails).toEqual([
      { spec: 'boot.cy.ts', runUrl: runUrl(12), error: null, suspects: [] },
      { spec: 'login.cy.ts', runUrl: runUrl(12), error: null, suspects: [alice] },
    ]);

    // The suspects endpoint reads the same streak from the stored report, and the range the
    // alert fetched is answered from the cache.
    const asked = github.requests.length;
    const suspects = await get(`/api/apps/${checkout}/suspects?spec=login.cy.ts&date=${date}`);
    expect(suspects.statusCode, suspects.body).toBe(200);
    expect(suspects.json<Json>().data).toMatchObject({
      base: sha(10),
      head: sha(11),
      commits: [{ sha: sha(11), pullRequest: { number: 412, title: 'Checkout rewrite' } }],
    });
    expect(github.requests).toHaveLength(asked);

    // The refusals read the same stored streaks.
    const refusal = async (spec: string) => {
      const response = await get(`/api/apps/${checkout}/suspects?spec=${spec}&date=${date}`);
      return [response.statusCode, response.json<Json>().error.message];
    };
    expect(await refusal('boot.cy.ts')).toEqual([
      404,
      `No passing commit of spec boot.cy.ts before its failing streak in the report of ${date}`,
    ]);
    expect(await refusal('cart.cy.ts')).toEqual([
      404,
      `Spec cart.cy.ts is not failing in the report of ${date}`,
    ]);
    expect(github.requests).toHaveLength(asked);

    // While the date regenerates (or after a regeneration failed) its last ready version answers.
    const { db } = h.container.database;
    await db
      .updateTable('e2e_report_summaries')
      .set({ status: 'pending' })
      .where('date', '=', date)
      .execute();
    try {
      const during = await get(`/api/apps/${checkout}/suspects?spec=login.cy.ts&date=${date}`);
      expect(during.statusCode, during.body).toBe(200);
      expect(during.json<Json>().data).toEqual(suspects.json<Json>().data);
    } finally {
      await db
        .updateTable('e2e_report_summaries')
        .set({ status: 'ready' })
        .where('date', '=', date)
        .execute();
    }
  });

  it('sends the alert without suspects when GitHub hangs or fails, within EXTERNAL_TIMEOUT_MS', async () => {
    // Two days apart: the day before each has no report, so each failure is news.
    for (const [date, failure] of [
      ['2026-05-20', 'hang'],
      ['2026-05-22', 500],
    ] as const) {
      // A new streak: run 14 fails after run 13 passed (a range not asked before).
      const base = date === '2026-05-20' ? 13 : 15;
      h.fake.rows = rows(date, base, base + 1, [base + 1]);
      if (failure === 'hang') github.hang = true;
      else github.failWith = failure;
      const asked = github.requests.length;
      const started = Date.now();
      await generate(date);
      const alert = await alertOf(base + 1);
      expect(Date.now() - started).toBeLessThan(BUDGET_MS + 4000);
      expect(github.requests.length).toBeGreaterThan(asked);
      expect(alert.data.failingSpecDetails).toEqual([
        { spec: 'login.cy.ts', runUrl: runUrl(base + 1), error: null, suspects: [] },
      ]);
      github.hang = false;
      github.failWith = undefined;
    }
  });
});
