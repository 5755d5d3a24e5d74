import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ExternalServiceError } from '../../shared/errors.js';
import { createCypressClient, specDetailsUrl } from './cypress-client.js';
import { type FakeCypress, type FakeSpecRow, startFakeCypress } from '../../../test/fakes/fake-cypress.js';

const KEY = 'cy-key';
const QUERY = { startDate: '2025-03-01', endDate: '2025-03-15', projects: ['web', 'api'] };

const row = (project: string, runNumber: number, overrides: Partial<FakeSpecRow> = {}): FakeSpecRow => ({
  project_name: project,
  run_number: runNumber,
  created_at: '2025-03-10T10:00:00.000Z',
  status: 'passed',
  spec: 'a.cy.ts',
  total_tests: 2,
  pass_tests: 2,
  fail_tests: 0,
  flaky_tests: 0,
  ...overrides,
});

async function collect(iterable: AsyncIterable<Record<string, unknown>>) {
  const rows: Record<string, unknown>[] = [];
  for await (const item of iterable) rows.push(item);
  return rows;
}

describe('Cypress reporting client', () => {
  let fake: FakeCypress;
  beforeAll(async () => {
    fake = await startFakeCypress({ apiKey: KEY });
  });
  afterAll(async () => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.rows = [];
    fake.rowSource = undefined;
    fake.failures = [];
    fake.hangs = 0;
    fake.delayMs = 0;
  });

  const client = (overrides: { branch?: string; timeoutMs?: number; apiKey?: string } = {}) =>
    createCypressClient({ baseUrl: fake.url, apiKey: KEY, timeoutMs: 2000, ...overrides });

  it('sends the parameters of the spec-details report', async () => {
    fake.rows = [row('web', 1)];
    await collect(client({ branch: 'main' }).specDetails(QUERY));
    const [request] = fake.requests;
    expect(Object.fromEntries(request!.query)).toMatchObject({
      report_id: 'spec-details',
      token: KEY,
      export_format: 'json',
      start_date: '2025-03-01',
      end_date: '2025-03-15',
      branch: 'main',
    });
    expect(request!.projects).toEqual(['web', 'api']);
  });

  it('omits branch when none is configured', () => {
    const url = specDetailsUrl({ baseUrl: 'http://x/report', timeoutMs: 1 }, QUERY);
    expect(url.searchParams.has('branch')).toBe(false);
    expect(url.searchParams.has('token')).toBe(false);
    expect(url.searchParams.getAll('projects')).toEqual(['web', 'api']);
  });

  it('streams the rows of the requested projects', async () => {
    fake.rows = [row('web', 1), row('api', 2), row('other', 3)];
    const rows = await collect(client().specDetails(QUERY));
    expect(rows.map((r) => r.project_name)).toEqual(['web', 'api']);
    expect(rows[0]).toEqual(row('web', 1));
  });

  it('asks for at most 50 projects per request', async () => {
    const projects = Array.from({ length: 120 }, (_, i) => `p${i}`);
    fake.rows = projects.map((project, i) => row(project, i));
    const rows = await collect(client().specDetails({ ...QUERY, projects }));
    expect(fake.requests.map((request) => request.projects.length)).toEqual([50, 50, 20]);
    expect(fake.requests.flatMap((request) => request.projects)).toEqual(projects);
    expect(rows).toHaveLength(120);
  });

  it('accepts rows wrapped in an object under data', async () => {
    fake.rowSource = undefined;
    const wrapped = await startWrappedServer([row('web', 4)]);
    try {
      const rows = await collect(
        createCypressClient({ baseUrl: wrapped.url, timeoutMs: 2000 }).specDetails(QUERY),
      );
      expect(rows).toEqual([row('web', 4)]);
    } finally {
      await wrapped.close();
    }
  });

  it('fails with ExternalServiceError on an error status, without leaking the token', async () => {
    fake.failures = [503];
    const error = await collect(client().specDetails(QUERY)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExternalServiceError);
    expect((error as Error).message).toContain('503');
    expect((error as Error).message).not.toContain(KEY);
  });

  it('fails on a wrong token (401)', async () => {
    await expect(collect(client({ apiKey: 'wrong' }).specDetails(QUERY))).rejects.toThrow(/401/);
  });

  it('fails when the service does not answer within the timeout', async () => {
    fake.hangs = 1;
    const started = Date.now();
    await expect(collect(client({ timeoutMs: 300 }).specDetails(QUERY))).rejects.toBeInstanceOf(
      ExternalServiceError,
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('fails on a malformed answer', async () => {
    const broken = await startWrappedServer(null, '[{"project_name": "web", "run_number": 1,');
    try {
      await expect(
        collect(createCypressClient({ baseUrl: broken.url, timeoutMs: 2000 }).specDetails(QUERY)),
      ).rejects.toBeInstanceOf(ExternalServiceError);
    } finally {
      await broken.close();
    }
  });

  it('parses a large answer as a stream with flat memory', async () => {
    const count = 60_000;
    fake.rowSource = function* () {
      for (let i = 0; i < count; i += 1) yield row('web', i % 100, { spec: `spec-${i}.cy.ts` });
    };
    const before = process.memoryUsage().heapUsed;
    let seen = 0;
    let peak = 0;
    for await (const item of client().specDetails(QUERY)) {
      if (item.project_name === 'web') seen += 1;
      if (seen % 20_000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed - before);
    }
    expect(seen).toBe(count);
    // ~10 MB of JSON went through; the heap must not have held it.
    expect(peak).toBeLessThan(20 * 1024 * 1024);
  });
});

/** A tiny server answering a fixed body: the wrapped `{data: [...]}` form or broken JSON. */
async function startWrappedServer(rows: FakeSpecRow[] | null, raw?: string) {
  const { createServer } = await import('node:http');
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(raw ?? JSON.stringify({ data: rows, total: rows?.length ?? 0 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/report`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
