import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/databases.js';
import { createTestApp, type TestApp } from '../../../support/test-app.js';
import { type FakeCircleCi, startFakeCircleCi } from '../../../fakes/fake-circleci.js';
import { manualRunsWith, quietLog } from '../../../support/manual-runs.js';

const TOKEN = 'circle-secret-token-abcdef0123456789';
const SLUG = 'github/acme/shop';

describe.each(DIALECTS)('manual E2E runs (%s)', (dialect) => {
  let circleci: FakeCircleCi;
  let t: TestApp;

  beforeAll(async () => {
    circleci = await startFakeCircleCi(TOKEN);
    circleci.addProject(SLUG);
    circleci.addProject('gh/acme/fallback');
    t = await createTestApp({
      dialect,
      env: {
        CIRCLECI_BASE_URL: circleci.url,
        CIRCLECI_TOKEN: TOKEN,
        CIRCLECI_PROJECT_SLUG: 'gh/acme/fallback',
        EXTERNAL_TIMEOUT_MS: '1000',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await circleci.close();
  });
  beforeEach(async () => {
    circleci.hang = false;
    circleci.failWith = undefined;
    await t.database.db.deleteFrom('apps').execute();
  });

  async function createApp(overrides: Record<string, unknown> = {}): Promise<number> {
    const res = await t.api({
      method: 'POST',
      url: '/api/apps',
      payload: {
        name: 'Shop',
        code: `shop-${Math.random().toString(36).slice(2, 8)}`,
        pipelineUrl: `https://app.circleci.com/pipelines/${SLUG}`,
        e2eTriggerConfiguration: {
          enabled: true,
          branch: 'develop',
          parameters: { run_e2e: true, suite: 'smoke' },
        },
        ...overrides,
      },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data.id;
  }
  const trigger = (appId: unknown) =>
    t.api({ method: 'POST', url: '/api/e2e_manual_runs', payload: { appId } });
  const poll = () => manualRunsWith(t.config, t.database.db).poller.pollOnce();
  const appView = async (id: number) => (await t.api({ method: 'GET', url: `/api/apps/${id}` })).json().data;

  it('triggers a pipeline with the branch and parameters of the trigger configuration', async () => {
    const appId = await createApp();
    const res = await trigger(appId);
    expect(res.statusCode).toBe(201);
    const run = res.json().data;
    const pipeline = circleci.pipelines.at(-1)!;
    expect(run).toMatchObject({
      appId,
      pipelineId: pipeline.id,
      pipelineNumber: pipeline.number,
      status: 'created',
      url: `${circleci.url}/pipelines/${SLUG}/${pipeline.number}`,
    });
    expect(run.createdAt).toMatch(/Z$/);
    expect(pipeline).toMatchObject({
      slug: SLUG,
      branch: 'develop',
      parameters: { run_e2e: true, suite: 'smoke' },
    });
    const request = circleci.requests.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', path: `/api/v2/project/${SLUG}/pipeline` });
    expect(request.headers['circle-token']).toBe(TOKEN);
  });

  it('answers 409 while the previous run is in progress and 201 once it has finished; the poll updates /api/apps', async () => {
    const appId = await createApp();
    const first = (await trigger(appId)).json().data;
    expect((await appView(appId)).lastRun).toMatchObject({
      id: first.id,
      status: 'created',
      pipelineId: first.pipelineId,
    });

    const busy = await trigger(appId);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error.code).toBe('CONFLICT');

    circleci.setWorkflows(first.pipelineId, ['running']);
    expect(await poll()).toBe(1);
    expect((await appView(appId)).lastRun.status).toBe('running');
    expect((await trigger(appId)).statusCode).toBe(409);

    circleci.setWorkflows(first.pipelineId, ['success', 'success', 'failed']);
    await poll();
    const list = (await t.api({ method: 'GET', url: '/api/apps' })).json().data;
    expect(list.find((app: { id: number }) => app.id === appId).lastRun).toMatchObject({
      id: first.id,
      status: 'failed',
    });

    const second = await trigger(appId);
    expect(second.statusCode).toBe(201);
    const view = await appView(appId);
    expect(view.lastRun.id).toBe(second.json().data.id);
    expect(view.e2eRunsQuantity).toBe(2);
    expect(await poll()).toBe(0);
  });

  it('marks a pipeline that errored before any workflow as failed', async () => {
    const appId = await createApp();
    const run = (await trigger(appId)).json().data;
    circleci.pipelines.find((pipeline) => pipeline.id === run.pipelineId)!.state = 'errored';
    await poll();
    expect((await appView(appId)).lastRun.status).toBe('failed');
  });

  it('keeps polling in the background every CIRCLECI_POLL_MS until stopped', async () => {
    const appId = await createApp();
    const run = (await trigger(appId)).json().data;
    const config = { ...t.config, circleci: { ...t.config.circleci, pollMs: 30 } };
    const { poller } = manualRunsWith(config, t.database.db);
    poller.start();
    try {
      circleci.setWorkflows(run.pipelineId, ['success']);
      const deadline = Date.now() + 5000;
      while ((await appView(appId)).lastRun.status !== 'success' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect((await appView(appId)).lastRun.status).toBe('success');
    } finally {
      await poller.stop();
    }
  });

  it('polls a tick only in the worker that claims it', async () => {
    const appId = await createApp();
    const run = (await trigger(appId)).json().data;
    circleci.setWorkflows(run.pipelineId, ['running']);
    const config = { ...t.config, circleci: { ...t.config.circleci, pollMs: 30 } };
    const claims: string[] = [];
    const { poller } = manualRunsWith(config, t.database.db, quietLog, async (key) => {
      claims.push(key);
      return false;
    });
    poller.start();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await poller.stop();
    expect(claims.length).toBeGreaterThan(1);
    expect(claims[0]).toMatch(/^e2e:manual-runs:poll:\d+$/);
    expect((await appView(appId)).lastRun.status).toBe('created');
  });

  it('answers 404 for an unknown app, 422 for a missing or disabled trigger, 400 for a bad body', async () => {
    const pipelinesBefore = circleci.pipelines.length;
    expect((await trigger(999_999)).statusCode).toBe(404);
    const untriggered = await createApp({ e2eTriggerConfiguration: null });
    expect((await trigger(untriggered)).statusCode).toBe(422);
    const disabled = await createApp({ e2eTriggerConfiguration: { enabled: false } });
    const refused = await trigger(disabled);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.code).toBe('UNPROCESSABLE_ENTITY');
    for (const payload of [{}, { appId: '1' }, { appId: 0 }]) {
      const res = await t.api({ method: 'POST', url: '/api/e2e_manual_runs', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(circleci.pipelines).toHaveLength(pipelinesBefore);
  });

  it('uses CIRCLECI_PROJECT_SLUG for an app whose pipelineUrl names no CircleCI project', async () => {
    const appId = await createApp({ pipelineUrl: 'https://ci.example.com/acme/shop' });
    expect((await trigger(appId)).statusCode).toBe(201);
    expect(circleci.pipelines.at(-1)!.slug).toBe('gh/acme/fallback');
  });

  it('answers 502 when CircleCI fails, does not know the project, or never answers', async () => {
    const appId = await createApp();
    circleci.failWith = 500;
    const failing = await trigger(appId);
    expect(failing.statusCode).toBe(502);
    expect(failing.json().error.code).toBe('EXTERNAL_SERVICE_ERROR');
    circleci.failWith = undefined;
    const unknown = await createApp({ pipelineUrl: 'https://app.circleci.com/pipelines/github/acme/nope' });
    expect((await trigger(unknown)).statusCode).toBe(502);
    circleci.hang = true;
    const started = Date.now();
    expect((await trigger(appId)).statusCode).toBe(502);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(6000);
    circleci.hang = false;
    // Nothing was stored for the failed attempts, so the app is free to run.
    expect((await appView(appId)).lastRun).toBeNull();
  });

  it('lists runs newest first, by app, paginated; 404 for an unknown app filter', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(document.paths['/api/e2e_manual_runs'])).toEqual(
      expect.arrayContaining(['get', 'post']),
    );

    const a = await createApp();
    const b = await createApp();
    const runA = (await trigger(a)).json().data;
    const runB = (await trigger(b)).json().data;
    const all = await t.api({ method: 'GET', url: '/api/e2e_manual_runs' });
    expect(all.statusCode).toBe(200);
    expect(all.json().data.map((run: { id: number }) => run.id)).toEqual([runB.id, runA.id]);
    const onlyA = await t.api({ method: 'GET', url: `/api/e2e_manual_runs?appId=${a}` });
    expect(onlyA.json().data).toEqual([runA]);
    const page = await t.api({ method: 'GET', url: '/api/e2e_manual_runs?limit=1' });
    expect(page.json().pagination).toEqual({ total: 2, limit: 1, offset: 0, hasMore: true });
    expect((await t.api({ method: 'GET', url: '/api/e2e_manual_runs?appId=999999' })).statusCode).toBe(404);
    expect((await t.api({ method: 'GET', url: '/api/e2e_manual_runs?appId=x' })).statusCode).toBe(400);
  });
});
