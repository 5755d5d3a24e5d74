import { readFileSync } from 'node:fs';
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../../src/db/database.js';
import { DIALECTS, type Dialect } from '../../support/databases.js';
import { postgresAvailable } from '../../support/services.js';
import { relayedPostgres } from '../../support/tcp-relay.js';
import { createTestApp, TEST_KEY, type TestApp } from '../../support/test-app.js';
import { type OpenApiDocument, type Variant, variantsOf } from './variants.js';

/**
 * Walks openapi.json and sends malformed variants of every operation, with the key, over real
 * HTTP, on each dialect. No answer may be a 5xx, except 502 / 503 caused on purpose: every
 * external service (GitHub, Jira, CircleCI, test results, push, webhook targets) is configured at
 * a local port where nothing listens, so requests that reach them legitimately fail upstream.
 */
const document = JSON.parse(
  readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8'),
) as OpenApiDocument;

const DEAD = 'http://127.0.0.1:9';
const OUTAGE_ENV = {
  GITHUB_URL: DEAD,
  GITHUB_TOKEN: 'fuzz-token',
  JIRA_BASE_URL: DEAD,
  JIRA_EMAIL: 'fuzz@example.com',
  JIRA_API_TOKEN: 'fuzz-token',
  JIRA_MANUAL_QA_PROJECT: 'QA',
  CIRCLECI_BASE_URL: DEAD,
  CIRCLECI_TOKEN: 'fuzz-token',
  CYPRESS_BASE_URL: `${DEAD}/report`,
  CYPRESS_API_KEY: 'fuzz-token',
  FCM_BASE_URL: DEAD,
  EXTERNAL_TIMEOUT_MS: '2000',
  // The campaign sends many unusable bodies to /api/auth/validate; each counts as a failed attempt
  // and would block the test's own address after the third.
  BRUTE_FORCE_MAX_ATTEMPTS: '1000000',
};
/** Statuses an outage of a configured dependency may cause, with the code the envelope must carry. */
const OUTAGE_CODES: Record<number, string> = { 502: 'EXTERNAL_SERVICE_ERROR', 503: 'SERVICE_UNAVAILABLE' };
const CONCURRENCY = 4;

interface Answer {
  status: number;
  body: string;
}

function send(agent: http.Agent, port: number, variant: Variant): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: variant.method,
        path: variant.path,
        headers: variant.headers,
        agent,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(variant.body);
  });
}

interface Campaign {
  requests: number;
  seconds: number;
  statuses: Record<number, number>;
  fiveHundreds: number;
  failures: string[];
}

/** Sends every variant (a few at a time) and keeps the statuses and every unacceptable answer. */
async function runCampaign(port: number, variants: Variant[]): Promise<Campaign> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const freshConnection = new http.Agent({ keepAlive: false });
  const histogram = new Map<number, number>();
  const failures: string[] = [];
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < variants.length) {
      const variant = variants[next++]!;
      let answer: Answer;
      try {
        answer = await send(agent, port, variant).catch(
          // A kept-alive connection the server closed after its previous answer (it closes
          // after a 431 or 414): try once more on a new connection before calling it a failure.
          () => send(freshConnection, port, variant),
        );
      } catch (error) {
        failures.push(`${variant.label}: no answer (${String(error)})`);
        continue;
      }
      histogram.set(answer.status, (histogram.get(answer.status) ?? 0) + 1);
      if (answer.status < 500) continue;
      const code = OUTAGE_CODES[answer.status];
      // /health says "down" in its own shape (not the error envelope) while the database is.
      const healthDown =
        answer.status === 503 &&
        variant.path.startsWith('/health') &&
        answer.body.includes('"status":"down"');
      if (!healthDown && (code === undefined || !answer.body.includes(`"code":"${code}"`))) {
        failures.push(`${variant.label} → ${answer.status} ${answer.body.slice(0, 300)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  agent.destroy();
  freshConnection.destroy();
  const statuses = Object.fromEntries([...histogram].sort(([a], [b]) => a - b));
  return {
    requests: variants.length,
    seconds: (performance.now() - started) / 1000,
    statuses,
    fiveHundreds: [...histogram].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0),
    failures,
  };
}

const report = (label: string, campaign: Campaign) =>
  process.stdout.write(
    `fuzz ${label}: ${campaign.requests} requests in ${campaign.seconds.toFixed(1)} s, ` +
      `statuses ${JSON.stringify(campaign.statuses)}, 5xx ${campaign.fiveHundreds} ` +
      `(${campaign.failures.length} not from the configured outage)\n`,
  );

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A listening app with something at id 1 on every resource, so variants reach past the lookups. */
async function serveSeeded(options: { dialect?: Dialect; database?: DatabaseHandle }) {
  const t: TestApp = await createTestApp({ ...options, env: OUTAGE_ENV });
  cleanups.push(() => t.close());
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const seed = async (url: string, payload: object) => {
    const response = await t.api({ method: 'POST', url, payload });
    expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(300);
  };
  await seed('/api/apps', { name: 'web', code: 'web', pipelineUrl: `${DEAD}/pipelines/gh/acme/web` });
  await seed('/api/to_do_list', { title: 'seed' });
  await seed('/api/notifications', { type: 'system', title: 'seed', message: 'seed' });
  await seed('/api/pull_requests', { url: 'https://github.com/acme/web/pull/1', title: 'seed' });
  return { t, port: Number(new URL(address).port) };
}

describe.each(DIALECTS)('fuzzing every operation of openapi.json (%s)', (dialect) => {
  it('never answers 5xx except 502/503 from the configured outage', async () => {
    const { t, port } = await serveSeeded({ dialect });
    const campaign = await runCampaign(port, variantsOf(document, TEST_KEY));
    report(dialect, campaign);
    expect(campaign.requests).toBeGreaterThan(2000);
    expect(campaign.failures).toEqual([]);
    // The API still answers normally after the campaign.
    expect((await t.api({ method: 'GET', url: '/api/apps' })).statusCode).toBe(200);
  }, 120_000);
});

describe.runIf(postgresAvailable)('fuzzing with the database unreachable (postgres)', () => {
  it('answers 4xx or 503 (502 upstream), never 500, and recovers', async () => {
    const { relay, relayedUrl, restore } = await relayedPostgres(cleanups);
    const database = openDatabase({ dialect: 'postgres', connectionString: relayedUrl });
    cleanups.push(() => database.close());
    const { t, port } = await serveSeeded({ database });

    await relay.cut();
    const campaign = await runCampaign(port, variantsOf(document, TEST_KEY));
    report('postgres, database unreachable', campaign);
    expect(campaign.statuses[503]).toBeGreaterThan(0);
    expect(campaign.failures).toEqual([]);

    const restored = await restore();
    cleanups.push(() => restored.cut());
    expect((await t.api({ method: 'GET', url: '/api/apps' })).statusCode).toBe(200);
  }, 120_000);
});
