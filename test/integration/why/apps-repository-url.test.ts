import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.js';
import { suiteTestApp } from '../../support/suite-app.js';

const REPOSITORY = 'https://github.com/acme/checkout';
const validApp = (overrides: Record<string, unknown> = {}) => ({
  name: 'Checkout',
  code: 'checkout',
  pipelineUrl: 'https://app.circleci.com/pipelines/github/acme/checkout',
  ...overrides,
});

describe.each(DIALECTS)('applications: repositoryUrl (%s)', (dialect) => {
  const t = suiteTestApp({ dialect }, ['e2e_report_details', 'e2e_report_summaries', 'apps']);
  const create = (body: object) => t.api({ method: 'POST', url: '/api/apps', payload: body });
  const update = (id: number, body: object) =>
    t.api({ method: 'PUT', url: `/api/apps/${id}`, payload: body });
  const read = async (id: number) => (await t.api({ method: 'GET', url: `/api/apps/${id}` })).json().data;

  it('is null when unset, on create, read and list', async () => {
    const created = await create(validApp());
    expect(created.statusCode).toBe(201);
    expect(created.json().data.repositoryUrl).toBeNull();
    expect((await read(created.json().data.id)).repositoryUrl).toBeNull();
    const list = (await t.api({ method: 'GET', url: '/api/apps' })).json().data;
    expect(list[0]).toHaveProperty('repositoryUrl', null);
  });

  it('is stored at create and returned by every answer carrying the app', async () => {
    const created = (await create(validApp({ repositoryUrl: REPOSITORY }))).json().data;
    expect(created.repositoryUrl).toBe(REPOSITORY);
    expect((await read(created.id)).repositoryUrl).toBe(REPOSITORY);
    const list = (await t.api({ method: 'GET', url: '/api/apps' })).json().data;
    expect(list[0].repositoryUrl).toBe(REPOSITORY);
  });

  it('is set, changed and cleared (null) by an update that leaves the other fields alone', async () => {
    const { id } = (await create(validApp())).json().data;
    const set = await update(id, { repositoryUrl: 'http://ghe.example.com/corp/shop' });
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toMatchObject({
      repositoryUrl: 'http://ghe.example.com/corp/shop',
      code: 'checkout',
    });
    const other = await update(id, { name: 'Renamed' });
    expect(other.json().data.repositoryUrl).toBe('http://ghe.example.com/corp/shop');
    const cleared = await update(id, { repositoryUrl: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().data.repositoryUrl).toBeNull();
    expect((await read(id)).repositoryUrl).toBeNull();
  });

  it.each(['ftp://github.com/acme/shop', 'github.com/acme/shop', 'javascript:alert(1)', '', 42])(
    'refuses %j with 400 VALIDATION_ERROR and changes nothing',
    async (value) => {
      const refused = await create(validApp({ repositoryUrl: value }));
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.code).toBe('VALIDATION_ERROR');
      expect(refused.json().error.details).toContainEqual(
        expect.objectContaining({ field: 'repositoryUrl' }),
      );
      expect((await t.api({ method: 'GET', url: '/api/apps' })).json().data).toHaveLength(0);

      const { id } = (await create(validApp({ repositoryUrl: REPOSITORY }))).json().data;
      const change = await update(id, { repositoryUrl: value });
      expect(change.statusCode).toBe(400);
      expect(change.json().error.code).toBe('VALIDATION_ERROR');
      expect((await read(id)).repositoryUrl).toBe(REPOSITORY);
    },
  );

  it('names a non-http URL INVALID_URL and accepts 500 characters but not 501', async () => {
    const bad = await create(validApp({ repositoryUrl: 'ssh://git@github.com/acme/shop' }));
    expect(bad.json().error.details).toEqual([
      expect.objectContaining({ field: 'repositoryUrl', code: 'INVALID_URL' }),
    ]);
    const base = 'https://github.com/acme/';
    const longest = `${base}${'r'.repeat(500 - base.length)}`;
    expect((await create(validApp({ repositoryUrl: longest }))).statusCode).toBe(201);
    const tooLong = await create(validApp({ code: 'other', repositoryUrl: `${longest}r` }));
    expect(tooLong.json().error.details).toEqual([
      expect.objectContaining({ field: 'repositoryUrl', code: 'STRING_TOO_LONG' }),
    ]);
  });

  it('appears on the application of an enriched report detail', async () => {
    const { id } = (await create(validApp({ repositoryUrl: REPOSITORY }))).json().data;
    const now = new Date().toISOString();
    const summary = await t.database.db
      .insertInto('e2e_report_summaries')
      .values({
        date: '2025-03-01',
        status: 'ready',
        total_runs: 1,
        passed_runs: 1,
        failed_runs: 0,
        success_rate: 100,
        apps_without_runs: '[]',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.database.db
      .insertInto('e2e_report_details')
      .values({
        report_summary_id: summary.id,
        app_id: id,
        total_runs: 1,
        passed_runs: 1,
        failed_runs: 0,
        flaky_runs: 0,
        success_rate: 100,
        last_run_status: 'passed',
        last_run_number: 1,
        last_run_at: now,
        last_failed_run_at: null,
        last_failure_author: null,
        created_at: now,
      })
      .execute();
    const report = await t.api({ method: 'GET', url: '/api/e2e_run_report?date=2025-03-01' });
    expect(report.statusCode).toBe(200);
    expect(report.json().details[0].app.repositoryUrl).toBe(REPOSITORY);
  });
});
