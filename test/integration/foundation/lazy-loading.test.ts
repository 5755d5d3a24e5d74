import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Starts the service (api, worker and scheduler roles, SQLite, nothing configured) in a child
 * process that records every module URL it resolves, and prints the packages it loaded.
 */
function packagesLoadedAtStart(): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'lazy-loading-'));
  const hooks = `
    let port;
    export function initialize(data) { port = data.port; }
    export async function resolve(specifier, context, next) {
      const resolved = await next(specifier, context);
      port.postMessage(resolved.url);
      return resolved;
    }`;
  const script = `
    import { register } from 'node:module';
    import { MessageChannel } from 'node:worker_threads';
    const { port1, port2 } = new MessageChannel();
    const packages = new Set();
    port1.on('message', (url) => {
      const match = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(url);
      if (match) packages.add(match[1]);
    });
    port1.unref();
    register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}), {
      data: { port: port2 },
      transferList: [port2],
    });
    const { loadConfig } = await import('./src/config/config.ts');
    const { startService } = await import('./src/server.ts');
    const service = await startService(loadConfig({
      NODE_ENV: 'test', API_SECURITY_KEY: 'k'.repeat(40), LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1',
      DATABASE_URL: 'sqlite:${join(dir, 'db.sqlite')}',
    }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await service.stop();
    // CommonJS packages loaded with require() do not pass the resolve hook: their cache tells.
    const { createRequire } = await import('node:module');
    for (const file of Object.keys(createRequire(import.meta.url).cache)) {
      const match = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(file);
      if (match) packages.add(match[1]);
    }
    process.stdout.write(JSON.stringify([...packages]));
  `;
  try {
    const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    return JSON.parse(output) as string[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('lazy loading', () => {
  it('leaves the GitHub, Google auth, PostgreSQL, Redis and HTML-sanitising libraries unloaded until used', () => {
    const loaded = packagesLoadedAtStart();
    // The probe itself works: the packages every start needs are seen.
    expect(loaded).toEqual(expect.arrayContaining(['fastify', 'kysely', 'better-sqlite3', 'pino']));
    expect(loaded).not.toContain('@octokit/rest');
    expect(loaded).not.toContain('google-auth-library');
    expect(loaded).not.toContain('pg');
    expect(loaded).not.toContain('ioredis');
    expect(loaded).not.toContain('sanitize-html');
  });
});
