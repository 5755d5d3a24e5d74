// `npm run bench`: the real server (built, embedded default, rate limiting off) over HTTP with
// autocannon, each scenario beside a bare Fastify hello-world measured in the same run.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DURATION_S, measure, printTable, startProcess } from './lib.mjs';

const KEY = 'bench-key-0123456789abcdefghijklmnopqrstuvwxyz';
const dir = mkdtempSync(join(tmpdir(), 'dashboard-bench-'));
const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };

async function seed(url) {
  for (let i = 0; i < 20; i++) {
    const res = await fetch(`${url}/api/apps`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: `App ${i}`,
        code: `app-${i}`,
        pipelineUrl: `https://app.circleci.com/pipelines/github/acme/app-${i}`,
      }),
    });
    if (res.status !== 201) throw new Error(`seeding apps failed: ${res.status}`);
  }
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${url}/api/to_do_list`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        title: `Item ${i} & <b>more</b>`,
        description: 'Bench item',
        dueDate: `2030-01-${String((i % 28) + 1).padStart(2, '0')}`,
      }),
    });
    if (res.status !== 201) throw new Error(`seeding to-dos failed: ${res.status}`);
  }
}

process.stdout.write(
  `Benchmarks: ${DURATION_S}s per scenario, 10 connections (BENCH_DURATION to change)\n\n`,
);
const ceilingServer = await startProcess(['bench/hello-ceiling.mjs']);
const service = await startProcess(['dist/src/cli.js', 'serve', '--roles', 'api'], {
  API_SECURITY_KEY: KEY,
  DATABASE_URL: `sqlite:${join(dir, 'bench.sqlite')}`,
  PORT: '0',
  HOST: '127.0.0.1',
  RATE_LIMIT_MAX: '0',
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
  CORS_ORIGINS: 'http://localhost',
});
try {
  await seed(service.url);
  const ceiling = await measure('bare Fastify hello-world (ceiling)', { url: ceilingServer.url });
  const rows = [
    ceiling,
    await measure('GET /health', { url: `${service.url}/health` }),
    await measure('GET /api/apps (20 apps)', { url: `${service.url}/api/apps`, headers }),
    await measure('GET /api/to_do_list (100 items, limit=100)', {
      url: `${service.url}/api/to_do_list?limit=100`,
      headers,
    }),
    await measure('POST /api/to_do_list', {
      url: `${service.url}/api/to_do_list`,
      method: 'POST',
      headers,
      body: JSON.stringify({
        title: 'Bench <i>post</i> & co',
        description: 'x',
        link: 'https://example.com/a',
      }),
    }),
  ];
  if (existsSync(new URL('./reports.mjs', import.meta.url))) {
    const { runReportBenchmarks } = await import('./reports.mjs');
    rows.push(...(await runReportBenchmarks({ measure, startProcess, key: KEY, dir })));
  }
  process.stdout.write('\n');
  printTable(rows, ceiling.reqPerSec);
} finally {
  await service.stop();
  await ceilingServer.stop();
  rmSync(dir, { recursive: true, force: true });
}
