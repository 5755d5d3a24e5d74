import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeCommit, startFakeGitHub, type FakeGitHub } from '../../fakes/fake-github.js';
import { DIALECTS } from '../../support/databases.js';
import { type LiveServer, startLiveServer } from '../../support/live-server.js';
import { apiJson, createFeedbackApp, daysAgo, fail, pass, retried, uploadRun } from './verdict-support.js';

/** When each default-branch run of the set-up ran. */
const SINCE = new Map<number, string>();
const SPECS = ['new.spec.ts', 'broken.spec.ts', 'flaky.spec.ts', 'retry.spec.ts', 'quarantined.spec.ts'];

describe.each(DIALECTS)('run verdict (%s)', (dialect) => {
  let github: FakeGitHub;
  let server: LiveServer;
  let app: { id: number; code: string };

  beforeAll(async () => {
    github = await startFakeGitHub();
    server = await startLiveServer({
      dialect,
      env: { GITHUB_URL: github.url, DASHBOARD_PUBLIC_URL: 'https://dash.example.com/' },
    });
    app = await createFeedbackApp(server, {
      repositoryUrl: `${github.url}/acme/shop`,
      defaultBranch: 'trunk',
    });
    const history = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 's1', 'f1'];
    github.setCommits(
      'acme',
      'shop',
      history.map((sha) => fakeCommit('acme', 'shop', sha, { authorLogin: `dev-${sha}` })),
    );
    // Six runs on the default branch: broken fails from run 5 on, flaky passed on a retry in run 3.
    for (let run = 1; run <= 6; run++) {
      const tests = SPECS.map((spec) => pass(spec));
      if (run >= 5) tests[1] = fail('broken.spec.ts');
      if (run === 3) tests[2] = retried('flaky.spec.ts');
      const createdAt = daysAgo(7 - run);
      SINCE.set(run, createdAt);
      await uploadRun(server, app.code, run, tests, { branch: 'trunk', commit: `m${run}`, createdAt });
    }
    // A failure on another branch does not make a test failing on the default branch.
    await uploadRun(server, app.code, 7, [fail('new.spec.ts')], {
      branch: 'other',
      commit: 'x1',
      createdAt: daysAgo(0, -30),
    });
    await server.database.db
      .insertInto('quarantines')
      .values({
        app_id: app.id,
        spec: 'quarantined.spec.ts',
        reason: 'known',
        ticket_key: 'QA-12',
        expires_at: null,
        created_at: daysAgo(1),
      })
      .execute();
    await uploadRun(
      server,
      app.code,
      10,
      [
        fail('new.spec.ts', 'works', 'Error: cart total\n  at line 3'),
        fail('broken.spec.ts'),
        fail('flaky.spec.ts'),
        retried('retry.spec.ts'),
        fail('quarantined.spec.ts'),
      ],
      { branch: 'feature', commit: 'f1', createdAt: daysAgo(0) },
    );
  });
  afterAll(async () => {
    await server?.close();
    await github?.close();
  });

  it('classes each failure, in order, with since, flake rate, ticket and suspects', async () => {
    const { status, body } = await apiJson<{ data: Record<string, unknown> }>(
      server,
      'GET',
      `/api/apps/${app.id}/runs/10/verdict`,
    );
    expect(status).toBe(200);
    const verdict = body.data as {
      failures: { spec: string; class: string; since: string | null; flakeRate: number | null }[];
    } & Record<string, unknown>;
    expect(verdict).toMatchObject({
      appId: app.id,
      runNumber: 10,
      commitSha: 'f1',
      branch: 'feature',
      status: 'fail',
      errored: false,
      counts: { new: 1, failing_on_default_branch: 1, known_flaky: 2, quarantined: 1 },
      url: `https://dash.example.com/apps/${app.id}/runs/10`,
    });
    expect(verdict.failures.map((f) => [f.spec, f.class])).toEqual([
      ['quarantined.spec.ts', 'quarantined'],
      ['flaky.spec.ts', 'known_flaky'],
      ['retry.spec.ts', 'known_flaky'],
      ['broken.spec.ts', 'failing_on_default_branch'],
      ['new.spec.ts', 'new'],
    ]);
    const [quarantined, flaky, , broken, fresh] = verdict.failures as unknown as Record<string, unknown>[];
    expect(quarantined).toMatchObject({ ticketKey: 'QA-12' });
    expect(flaky!.flakeRate).toBeCloseTo(1 / 6, 3);
    expect(broken!.since).toBe(SINCE.get(5));
    expect(fresh).toMatchObject({ title: 'works', error: 'Error: cart total' });
    // The commits after m6 (its last pass) up to f1, newest first.
    expect((fresh!.suspects as { sha: string; author: string }[]).map((s) => s.sha)).toEqual(['f1', 's1']);
    // The per-test storage's testId (issue #36), the id of the test page.
    expect(fresh!.testId).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });

  it('passes a run whose failures are all known, and fails an errored one', async () => {
    await uploadRun(
      server,
      app.code,
      11,
      [fail('broken.spec.ts'), retried('retry.spec.ts'), pass('new.spec.ts')],
      {
        branch: 'feature',
        commit: 'f1',
      },
    );
    const known = await apiJson<{ data: { status: string; counts: Record<string, number> } }>(
      server,
      'GET',
      `/api/apps/${app.id}/runs/11/verdict`,
    );
    expect(known.body.data.status).toBe('pass');
    expect(known.body.data.counts).toEqual({
      new: 0,
      failing_on_default_branch: 1,
      known_flaky: 1,
      quarantined: 0,
    });

    const crashed = JSON.stringify({
      config: {},
      suites: [],
      errors: [{ message: 'Error: global setup failed' }],
      stats: { startTime: new Date().toISOString(), duration: 1 },
    });
    const response = await fetch(`${server.baseUrl}/api/test_results?app=${app.code}&run=12&commit=f1`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': 'test-key-0123456789abcdefghijklmnopqrstuv',
      },
      body: crashed,
    });
    expect(response.status).toBe(201);
    const errored = await apiJson<{ data: { status: string; errored: boolean } }>(
      server,
      'GET',
      `/api/apps/${app.id}/runs/12/verdict`,
    );
    expect(errored.body.data).toMatchObject({ status: 'fail', errored: true });
  });

  it('quarantines one test of a spec through the per-test quarantine', async () => {
    await uploadRun(server, app.code, 20, [fail('two.spec.ts', 'first'), fail('two.spec.ts', 'second')], {
      branch: 'feature',
      commit: 'f1',
    });
    const quarantined = await apiJson(server, 'POST', '/api/quarantine', {
      appId: app.id,
      spec: 'two.spec.ts',
      test: 'first',
      reason: 'tracked',
      ticketKey: 'QA-99',
    });
    expect(quarantined.status).toBe(201);
    const { body } = await apiJson<{
      data: { failures: { title: string; class: string; ticketKey: string | null }[] };
    }>(server, 'GET', `/api/apps/${app.id}/runs/20/verdict`);
    expect(body.data.failures.map((f) => [f.title, f.class, f.ticketKey])).toEqual([
      ['first', 'quarantined', 'QA-99'],
      ['second', 'new', null],
    ]);
  });

  it('answers 404 for an unknown app or run and 400 for a bad run number', async () => {
    expect((await apiJson(server, 'GET', `/api/apps/${app.id}/runs/999/verdict`)).status).toBe(404);
    expect((await apiJson(server, 'GET', `/api/apps/99999/runs/1/verdict`)).status).toBe(404);
    expect((await apiJson(server, 'GET', `/api/apps/${app.id}/runs/abc/verdict`)).status).toBe(400);
  });
});
