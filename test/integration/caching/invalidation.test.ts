import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/database.js';
import { type FakeCircleCi, startFakeCircleCi } from '../../fakes/fake-circleci.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../../support/databases.js';
import { type LiveServer, startLiveServer } from '../../support/live-server.js';
import { call, nowIso, openBehindTheCache } from '../../support/cache-support.js';

const TOKEN = 'circle-cache-token';
const SLUG = 'gh/acme/cache';

describe.each(DIALECTS)('response cache invalidation (%s)', (dialect) => {
  let circleci: FakeCircleCi;
  let server: LiveServer;
  let database: DatabaseHandle & { testDb: TestDatabase };
  let behind: DatabaseHandle;

  beforeAll(async () => {
    circleci = await startFakeCircleCi(TOKEN);
    circleci.addProject(SLUG);
    database = await openTestDatabase(dialect);
    behind = openBehindTheCache(database.testDb);
    server = await startLiveServer({
      env: { CIRCLECI_BASE_URL: circleci.url, CIRCLECI_TOKEN: TOKEN, RESPONSE_CACHE_TTL_MS: '600000' },
      deps: { database },
    });
  });
  afterAll(async () => {
    await server.close();
    await behind.close();
    await database.close();
    await circleci.close();
  });
  afterEach(async () => {
    await database.db.deleteFrom('apps').execute();
    await database.db.deleteFrom('todos').execute();
  });

  const get = (path: string) => call(server.baseUrl, path);
  const names = async (path: string) =>
    ((await get(path)).body.data as { name?: string; title?: string }[]).map(
      (item) => item.name ?? item.title,
    );

  /** A row inserted behind the cache's back: invisible until the cached answer is dropped. */
  const hiddenApp = (code: string) =>
    behind.db
      .insertInto('apps')
      .values({
        name: `Hidden ${code}`,
        code,
        pipeline_url: `https://app.circleci.com/pipelines/${SLUG}`,
        watching: dialect === 'sqlite' ? 1 : (true as never),
        created_at: nowIso(),
        updated_at: nowIso(),
      })
      .execute();

  const createApp = async (name: string) => {
    const created = await call(server.baseUrl, '/api/apps', {
      method: 'POST',
      body: {
        name,
        code: name.toLowerCase(),
        pipelineUrl: `https://app.circleci.com/pipelines/${SLUG}`,
        e2eTriggerConfiguration: { enabled: true, branch: 'main' },
      },
    });
    expect(created.status).toBe(201);
    return created.body.data.id as number;
  };

  it('serves a repeated read from the cache until a write through the API drops it', async () => {
    const first = await get('/api/apps');
    expect(first.body.data).toEqual([]);
    await hiddenApp('hidden-1');
    // Cached: the row written behind the cache's back does not show yet.
    expect((await get('/api/apps')).text).toBe(first.text);

    const id = await createApp('Alpha');
    expect(await names('/api/apps')).toEqual(['Hidden hidden-1', 'Alpha']);

    await get(`/api/apps/${id}`);
    await behind.db.updateTable('apps').set({ name: 'Renamed behind' }).where('id', '=', id).execute();
    expect((await get(`/api/apps/${id}`)).body.data.name).toBe('Alpha');
    const updated = await call(server.baseUrl, `/api/apps/${id}`, {
      method: 'PUT',
      body: { watching: false },
    });
    expect(updated.status).toBe(200);
    expect((await get(`/api/apps/${id}`)).body.data).toMatchObject({
      name: 'Renamed behind',
      watching: false,
    });
    expect(await names('/api/apps')).toEqual(['Hidden hidden-1', 'Renamed behind']);

    const deleted = await call(server.baseUrl, `/api/apps/${id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await names('/api/apps')).toEqual(['Hidden hidden-1']);
    expect((await get(`/api/apps/${id}`)).status).toBe(404);
  });

  it('drops cached to-do lists on create, update and delete', async () => {
    const post = (title: string) =>
      call(server.baseUrl, '/api/to_do_list', { method: 'POST', body: { title, dueDate: '2030-01-01' } });
    const first = (await post('First')).body.data.id as number;
    expect(await names('/api/to_do_list?limit=100')).toEqual(['First']);
    await behind.db
      .insertInto('todos')
      .values({
        title: 'Behind',
        is_completed: dialect === 'sqlite' ? 0 : (false as never),
        created_at: nowIso(),
        updated_at: nowIso(),
      })
      .execute();
    expect(await names('/api/to_do_list?limit=100')).toEqual(['First']);

    await post('Second');
    expect(await names('/api/to_do_list?limit=100')).toEqual(['First', 'Second', 'Behind']);

    expect((await get(`/api/to_do_list/${first}`)).body.data.isCompleted).toBe(false);
    await call(server.baseUrl, `/api/to_do_list/${first}`, { method: 'PUT', body: { isCompleted: true } });
    expect((await get(`/api/to_do_list/${first}`)).body.data.isCompleted).toBe(true);

    await call(server.baseUrl, `/api/to_do_list/${first}`, { method: 'DELETE' });
    expect(await names('/api/to_do_list?limit=100')).toEqual(['Second', 'Behind']);
    await call(server.baseUrl, `/api/to_do_list/${first}`, { method: 'DELETE' });
    expect((await get(`/api/to_do_list/${first}`)).status).toBe(404);
  });

  it("shows a manual run's new status as soon as the poller stores it", async () => {
    const id = await createApp('Polled');
    const triggered = await call(server.baseUrl, '/api/e2e_manual_runs', {
      method: 'POST',
      body: { appId: id },
    });
    expect(triggered.status).toBe(201);
    const pipelineId = triggered.body.data.pipelineId as string;
    const before = await get(`/api/apps/${id}`);
    expect(before.body.data.lastRun).toMatchObject({ pipelineId, status: 'created' });
    expect(before.body.data.e2eRunsQuantity).toBe(1);

    circleci.setWorkflows(pipelineId, ['success']);
    const { poller } = server.container.manualRuns;
    expect(await poller.pollOnce()).toBe(1);
    expect((await get(`/api/apps/${id}`)).body.data.lastRun.status).toBe('success');
    expect((await get('/api/apps')).body.data[0].lastRun.status).toBe('success');
  });

  it('never answers a read made after an acknowledged write with older data', async () => {
    let reading = true;
    // Reads run all along, so some of them race each write; none may park old rows in the cache.
    const background = (async () => {
      while (reading) await get('/api/to_do_list?limit=100');
    })();
    try {
      for (let i = 0; i < 25; i += 1) {
        const created = await call(server.baseUrl, '/api/to_do_list', {
          method: 'POST',
          body: { title: `Race ${i}` },
        });
        expect(created.status).toBe(201);
        expect(await names('/api/to_do_list?limit=100')).toContain(`Race ${i}`);
      }
    } finally {
      reading = false;
      await background;
    }
  });
});
