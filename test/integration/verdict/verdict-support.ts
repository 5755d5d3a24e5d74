import type { LiveServer } from '../../support/live-server.js';
import { TEST_KEY } from '../../support/test-app.js';

/** One test of a generated Playwright report: its attempts' statuses, the last one standing. */
export interface PwTest {
  spec: string;
  title: string;
  /** `['failed', 'passed']`: failed, then passed on its retry (flaky). */
  results: ('passed' | 'failed')[];
  error?: string;
}

/** A Playwright JSON report (the reporter's shape, trimmed to what the reader uses). */
export function playwrightReport(tests: readonly PwTest[], startTime: string): string {
  const specs = [...new Set(tests.map((test) => test.spec))];
  const counts = { expected: 0, unexpected: 0, flaky: 0, skipped: 0 };
  const suites = specs.map((spec) => ({
    title: spec,
    file: spec,
    line: 0,
    column: 0,
    specs: tests
      .filter((test) => test.spec === spec)
      .map((test) => {
        const last = test.results.at(-1);
        const status = last === 'failed' ? 'unexpected' : test.results.length > 1 ? 'flaky' : 'expected';
        counts[status] += 1;
        return {
          title: test.title,
          ok: last === 'passed',
          tags: [],
          file: spec,
          line: 3,
          column: 1,
          id: `${spec}-${test.title}`,
          tests: [
            {
              timeout: 30000,
              annotations: [],
              expectedStatus: 'passed',
              projectId: '',
              projectName: '',
              status,
              results: test.results.map((result, retry) => ({
                workerIndex: 0,
                status: result,
                duration: 100,
                retry,
                startTime,
                errors: result === 'failed' ? [{ message: test.error ?? `Error: ${test.title} broke` }] : [],
                ...(result === 'failed'
                  ? { error: { message: test.error ?? `Error: ${test.title} broke` } }
                  : {}),
                stdout: [],
                stderr: [],
                attachments: [],
              })),
            },
          ],
        };
      }),
  }));
  return JSON.stringify({
    config: { rootDir: '/repo/tests' },
    suites,
    errors: [],
    stats: { startTime, duration: 1000, ...counts },
  });
}

export const pass = (spec: string, title = 'works'): PwTest => ({ spec, title, results: ['passed'] });
export const fail = (spec: string, title = 'works', error?: string): PwTest => ({
  spec,
  title,
  results: ['failed'],
  ...(error ? { error } : {}),
});
export const retried = (spec: string, title = 'works'): PwTest => ({
  spec,
  title,
  results: ['failed', 'passed'],
});

export const daysAgo = (days: number, minutes = 0) =>
  new Date(Date.now() - days * 86_400_000 + minutes * 60_000).toISOString();

/** Uploads a report over HTTP as a CI job does; answers the status code. */
export async function uploadRun(
  server: LiveServer,
  appCode: string,
  run: number,
  tests: readonly PwTest[],
  query: Record<string, string | number> = {},
): Promise<number> {
  const createdAt = String(query.createdAt ?? new Date().toISOString());
  const params = new URLSearchParams({ app: appCode, run: String(run), createdAt });
  for (const [key, value] of Object.entries(query)) params.set(key, String(value));
  const response = await fetch(`${server.baseUrl}/api/test_results?${params.toString()}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': TEST_KEY },
    body: playwrightReport(tests, createdAt),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`upload refused ${response.status}: ${text}`);
  return response.status;
}

export async function apiJson<T = unknown>(server: LiveServer, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': TEST_KEY, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as T };
}

export async function createFeedbackApp(
  server: LiveServer,
  fields: Record<string, unknown>,
): Promise<{ id: number; code: string }> {
  const code =
    typeof fields.code === 'string' ? fields.code : `shop${Math.random().toString(36).slice(2, 8)}`;
  const created = await apiJson<{ data: { id: number } }>(server, 'POST', '/api/apps', {
    name: 'Shop',
    code,
    pipelineUrl: 'https://ci.example.com/shop',
    ...fields,
  });
  if (created.status !== 201) throw new Error(`app not created: ${JSON.stringify(created.body)}`);
  return { id: created.body.data.id, code };
}

/** Waits until `check` holds (polling every 20 ms), failing after `timeoutMs`. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
