import Fastify, { type FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedConfig } from 'vite';
import { precompressAssets } from '../../../web/precompress.js';
import { registerErrorHandling } from './error-handler.js';
import { registerWebUi } from './web.js';

/** Runs the build plugin on a folder as `vite build` would after writing the bundle. */
async function precompress(root: string): Promise<void> {
  const plugin = precompressAssets();
  const config = { root, build: { outDir: 'dist' } } as ResolvedConfig;
  (plugin.configResolved as (config: ResolvedConfig) => void)(config);
  await (plugin.closeBundle as () => Promise<void>)();
}

describe('precompressed web assets', () => {
  let dir: string;
  let app: FastifyInstance;
  let baseUrl: string;
  const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{"id":${i},"name":"row ${i}"}`).join(',')}];\n`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'web-precompressed-'));
    const assets = join(dir, 'dist', 'assets');
    mkdirSync(assets, { recursive: true });
    writeFileSync(join(dir, 'dist', 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(assets, 'index-Big123.js'), script);
    writeFileSync(join(assets, 'tiny-Aa1.css'), 'body{margin:0}');
    writeFileSync(join(assets, 'logo-Bb2.png'), Buffer.alloc(4096, 7));
    await precompress(dir);
    app = Fastify({ logger: false });
    registerErrorHandling(app);
    await registerWebUi(app, { root: join(dir, 'dist') });
    baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const raw = async (path: string, acceptEncoding: string) => {
    // fetch would decode the body itself; the test wants the bytes as sent.
    const { request } = await import('node:http');
    return new Promise<{ headers: Record<string, unknown>; body: Buffer; status: number }>(
      (resolve, reject) => {
        const req = request(
          `${baseUrl}${path}`,
          { headers: { 'accept-encoding': acceptEncoding } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () =>
              resolve({ headers: res.headers, body: Buffer.concat(chunks), status: res.statusCode ?? 0 }),
            );
          },
        );
        req.on('error', reject);
        req.end();
      },
    );
  };

  it('writes .br and .gz beside text assets of 1 KB or more, and only those', () => {
    expect(readdirSync(join(dir, 'dist', 'assets')).sort()).toEqual([
      'index-Big123.js',
      'index-Big123.js.br',
      'index-Big123.js.gz',
      'logo-Bb2.png',
      'tiny-Aa1.css',
    ]);
  });

  it('sends the brotli file to a client that accepts br, gzip to one that accepts only gzip', async () => {
    const br = await raw('/assets/index-Big123.js', 'gzip, deflate, br');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.body.length).toBeLessThan(script.length / 4);
    expect(brotliDecompressSync(br.body).toString()).toBe(script);

    const gz = await raw('/assets/index-Big123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);
  });

  it('sends the plain file when the client accepts no encoding or none was written', async () => {
    const identity = await raw('/assets/index-Big123.js', 'identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.toString()).toBe(script);
    const tiny = await raw('/assets/tiny-Aa1.css', 'br');
    expect(tiny.status).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe('body{margin:0}');
  });
});
