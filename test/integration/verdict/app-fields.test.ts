import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.js';
import { suiteTestApp } from '../../support/suite-app.js';

const app = (overrides: Record<string, unknown> = {}) => ({
  name: 'Shop',
  code: 'shop',
  pipelineUrl: 'https://ci.example.com/shop',
  ...overrides,
});

describe.each(DIALECTS)('apps: defaultBranch and prFeedback (%s)', (dialect) => {
  const t = suiteTestApp({ dialect }, ['apps']);

  it('defaults to main and off, and keeps what create and update say', async () => {
    const created = await t.api({ method: 'POST', url: '/api/apps', payload: app() });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ defaultBranch: 'main', prFeedback: 'off' });
    const id = created.json().data.id as number;
    const updated = await t.api({
      method: 'PUT',
      url: `/api/apps/${id}`,
      payload: { defaultBranch: 'trunk', prFeedback: 'both' },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({ defaultBranch: 'trunk', prFeedback: 'both' });
    const read = await t.api({ method: 'GET', url: `/api/apps/${id}` });
    expect(read.json().data).toMatchObject({ defaultBranch: 'trunk', prFeedback: 'both' });
    const other = await t.api({
      method: 'POST',
      url: '/api/apps',
      payload: app({ code: 'shop2', defaultBranch: 'develop', prFeedback: 'comment' }),
    });
    expect(other.json().data).toMatchObject({ defaultBranch: 'develop', prFeedback: 'comment' });
  });

  it('refuses an unknown mode and an empty or long branch with one 400', async () => {
    const res = await t.api({
      method: 'POST',
      url: '/api/apps',
      payload: app({ code: 'bad', prFeedback: 'loud', defaultBranch: 'x'.repeat(256) }),
    });
    expect(res.statusCode).toBe(400);
    const fields = res
      .json()
      .error.details.map((d: { field: string }) => d.field)
      .sort();
    expect(fields).toEqual(['defaultBranch', 'prFeedback']);
    const empty = await t.api({
      method: 'POST',
      url: '/api/apps',
      payload: app({ code: 'b2', defaultBranch: '' }),
    });
    expect(empty.statusCode).toBe(400);
  });
});
