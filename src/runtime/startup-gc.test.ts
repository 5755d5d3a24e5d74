import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

vi.mock('./startup-gc.js', { spy: true });
vi.mock('./tick-shape.js', { spy: true });

// Fills the old generation with ~60 MB of small objects, keeps one in twenty (so that every page
// stays partly used), then prints the committed heap before and after the collection.
const fragmentThenCollect = `
  const { collectStartupGarbage } = await import('./src/runtime/startup-gc.ts');
  const kept = [];
  let all = [];
  for (let i = 0; i < 600_000; i += 1) all.push({ i, text: 'x'.repeat(40) + i });
  for (let i = 0; i < all.length; i += 20) kept.push(all[i]);
  all = undefined;
  // An ordinary full collection first, as start-up ends with: what it leaves is what is measured.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const before = process.memoryUsage().heapTotal;
  collectStartupGarbage();
  const after = process.memoryUsage().heapTotal;
  process.stdout.write(JSON.stringify({ before, after, kept: kept.length, gc: typeof globalThis.gc }));
`;

describe('start-up garbage collection', () => {
  it('gives back the pages start-up left mostly empty, without exposing gc()', () => {
    const output = execFileSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', fragmentThenCollect],
      { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    );
    const { before, after, gc } = JSON.parse(output) as { before: number; after: number; gc: string };
    expect(before - after).toBeGreaterThan(20 * 1024 * 1024);
    expect(gc).toBe('undefined');
  });

  it("runs once the service has started, after process.nextTick's entry shape is held", async () => {
    const { collectStartupGarbage } = await import('./startup-gc.js');
    const { retainTickObjectShape } = await import('./tick-shape.js');
    const { loadConfig } = await import('../config/config.js');
    const { startService } = await import('../server.js');
    const dir = mkdtempSync(join(tmpdir(), 'startup-gc-'));
    const service = await startService(
      loadConfig({
        NODE_ENV: 'test',
        API_SECURITY_KEY: 'k'.repeat(40),
        LOG_LEVEL: 'silent',
        PORT: '0',
        HOST: '127.0.0.1',
        ROLES: 'api',
        DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
      }),
    );
    try {
      expect(collectStartupGarbage).toHaveBeenCalledTimes(1);
      expect(vi.mocked(retainTickObjectShape).mock.invocationCallOrder[0]).toBeLessThan(
        vi.mocked(collectStartupGarbage).mock.invocationCallOrder[0]!,
      );
    } finally {
      await service.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
