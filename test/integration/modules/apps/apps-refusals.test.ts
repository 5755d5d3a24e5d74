import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/databases.js';
import { appsSuite, validApp } from './apps-api.js';

describe.each(DIALECTS)('applications API refusals (%s)', (dialect) => {
  const { t, create } = appsSuite(dialect);

  it('reports every problem of a bad body at once', async () => {
    const res = await create({ name: 'x'.repeat(256), code: 7, pipelineUrl: 'ftp://x', watching: 'yes' });
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.statusCode).toBe(400);
    const codes = Object.fromEntries(
      error.details.map((d: { field: string; code: string }) => [d.field, d.code]),
    );
    expect(codes).toEqual({
      name: 'STRING_TOO_LONG',
      code: 'INVALID_TYPE',
      pipelineUrl: 'INVALID_URL',
      watching: 'INVALID_TYPE',
    });
  });

  it('names missing required fields', async () => {
    const res = await create({ watching: true });
    const fields = res
      .json()
      .error.details.map((d: { field: string; code: string }) => `${d.field}:${d.code}`);
    expect(fields.sort()).toEqual([
      'code:REQUIRED_FIELD',
      'name:REQUIRED_FIELD',
      'pipelineUrl:REQUIRED_FIELD',
    ]);
  });

  it.each([
    [{ enabled: true, schedule: 'not cron' }, 'e2eTriggerConfiguration.schedule', 'INVALID_FORMAT'],
    [{ schedule: '0 9 * * *' }, 'e2eTriggerConfiguration.enabled', 'REQUIRED_FIELD'],
    [{ enabled: 'yes' }, 'e2eTriggerConfiguration.enabled', 'INVALID_TYPE'],
    ['daily', 'e2eTriggerConfiguration', 'INVALID_TYPE'],
  ])('validates the trigger configuration %j', async (trigger, field, code) => {
    const res = await create(validApp({ e2eTriggerConfiguration: trigger }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toContainEqual(expect.objectContaining({ field, code }));
  });

  it('accepts the limits exactly and refuses one more', async () => {
    const url = `https://ci.example.com/${'p'.repeat(500 - 'https://ci.example.com/'.length)}`;
    const ok = await create({ name: 'n'.repeat(255), code: 'c'.repeat(100), pipelineUrl: url });
    expect(ok.statusCode).toBe(201);
    const tooLong = await create({ name: 'n', code: 'c'.repeat(101), pipelineUrl: `${url}x` });
    expect(tooLong.json().error.details.map((d: { code: string }) => d.code)).toEqual([
      'STRING_TOO_LONG',
      'STRING_TOO_LONG',
    ]);
  });

  it('refuses blank names and codes', async () => {
    const res = await create(validApp({ name: '   ', code: '' }));
    expect(res.json().error.details).toEqual([
      expect.objectContaining({ field: 'name', code: 'EMPTY_FIELD' }),
      expect.objectContaining({ field: 'code', code: 'EMPTY_FIELD' }),
    ]);
  });

  it('answers 409 for a duplicate code at create and at change', async () => {
    await create(validApp());
    const other = (await create(validApp({ code: 'other' }))).json().data;
    const duplicate = await create(validApp({ name: 'Another' }));
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error.code).toBe('CONFLICT');
    const change = await t.api({
      method: 'PUT',
      url: `/api/apps/${other.id}`,
      payload: { code: 'checkout' },
    });
    expect(change.statusCode).toBe(409);
    const unchanged = await t.api({ method: 'GET', url: `/api/apps/${other.id}` });
    expect(unchanged.json().data.code).toBe('other');
  });

  it('treats a PUT without updatable fields as an empty body', async () => {
    const created = (await create(validApp())).json().data;
    const res = await t.api({
      method: 'PUT',
      url: `/api/apps/${created.id}`,
      payload: { id: 3, unknown: 1 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([
      expect.objectContaining({ field: 'body', code: 'EMPTY_BODY' }),
    ]);
  });

  it('answers 404 for unknown ids and 400 for invalid ones', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const missing = await t.api({
        method,
        url: '/api/apps/424242',
        ...(method === 'PUT' ? { payload: { name: 'x' } } : {}),
      });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.code).toBe('NOT_FOUND');
      for (const bad of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
        const res = await t.api({
          method,
          url: `/api/apps/${bad}`,
          ...(method === 'PUT' ? { payload: { name: 'x' } } : {}),
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.details[0]).toMatchObject({ field: 'id', code: 'INVALID_ID' });
      }
    }
    const huge = await t.api({ method: 'GET', url: '/api/apps/9999999999' });
    expect(huge.statusCode).toBe(404);
  });
});
