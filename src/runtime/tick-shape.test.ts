import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// A process that uses process.nextTick (with the argument counts Node's streams use), runs two
// full collections while no queue entry is alive, uses it again, then prints the state of
// process.nextTick's inline caches through V8's own debug print (natives syntax, child only).
const useCollectUseAndPrint = (retain: boolean) => `
  const { retainTickObjectShape } = await import('./src/runtime/tick-shape.ts');
  ${retain ? 'retainTickObjectShape();' : ''}
  const ticks = async (count) => {
    for (let i = 0; i < count; i += 1) {
      await new Promise((resolve) => process.nextTick(resolve));
      await new Promise((resolve) => process.nextTick((a) => resolve(a), 1));
      await new Promise((resolve) => process.nextTick((a, b) => resolve(a + b), 1, 2));
    }
  };
  await ticks(200);
  globalThis.gc();
  globalThis.gc();
  await ticks(50);
  new Function('f', '%DebugPrint(f)')(process.nextTick);
`;

/**
 * V8 writes its debug print with C stdio, which loses output on a non-blocking pipe: the child's
 * standard output goes to a file instead.
 */
function literalCacheStates(retain: boolean): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'tick-shape-'));
  const file = join(dir, 'stdout.txt');
  const fd = openSync(file, 'w');
  try {
    execFileSync(
      process.execPath,
      [
        '--allow-natives-syntax',
        '--expose-gc',
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        useCollectUseAndPrint(retain),
      ],
      { stdio: ['ignore', fd, 'inherit'], env: { ...process.env, NODE_OPTIONS: '' } },
    );
    const output = readFileSync(file, 'utf8');
    return [...output.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1]!);
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("process.nextTick's entry shape", async () => {
  it('goes megamorphic after a full collection when nothing holds it (the V8 behaviour)', () => {
    const states = literalCacheStates(false);
    expect(states).toContain('MEGAMORPHIC');
  });

  it('stays monomorphic through full collections once retained', () => {
    const states = literalCacheStates(true);
    expect(states.length).toBeGreaterThanOrEqual(4);
    expect(states.every((state) => state === 'MONOMORPHIC')).toBe(true);
  });

  it('retains one entry, and the same one on every call', async () => {
    const { retainTickObjectShape } = await import('./tick-shape.js');
    const first = retainTickObjectShape();
    expect(first).toBeTypeOf('object');
    expect(Object.keys(first!)).toEqual(['callback', 'args']);
    expect(retainTickObjectShape()).toBe(first);
  });
});
