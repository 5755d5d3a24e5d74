import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_SEMI_SPACE_FLAG, MAX_SEMI_SPACE_MIB } from './young-generation-maximum.js';

const MiB = 1024 * 1024;

// Allocates ~200 MB of short-lived objects and prints the young generation's committed size;
// with `grow`, then lets it grow as the busy process does (young-generation.ts) and churns again.
const churn = (tuning: boolean, grow = false) => `
  ${tuning ? "await import('./src/runtime/heap-tuning.ts');" : ''}
  const { getHeapSpaceStatistics, setFlagsFromString } = await import('node:v8');
  const burn = () => {
    let keep = [];
    for (let i = 0; i < 2_000_000; i += 1) { keep.push({ i, text: 'x' + i }); if (keep.length > 20_000) keep = []; }
  };
  burn();
  ${grow ? "setFlagsFromString('--semi-space-growth-factor=2'); burn(); burn();" : ''}
  const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  process.stdout.write(String(young.space_size));
`;

const youngGenerationBytes = (tuning: boolean, options: { grow?: boolean; nodeArgs?: string[] } = {}) =>
  Number(
    execFileSync(
      process.execPath,
      [
        ...(options.nodeArgs ?? []),
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        churn(tuning, options.grow),
      ],
      { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    ),
  );

describe('heap tuning', () => {
  it('keeps the young generation at its initial size under allocation', () => {
    expect(youngGenerationBytes(false)).toBeGreaterThan(8 * MiB);
    expect(youngGenerationBytes(true)).toBeLessThanOrEqual(4 * MiB);
  });

  it('still holds it small when node is given the maximum, and the maximum caps its growth', () => {
    const capped = { nodeArgs: [MAX_SEMI_SPACE_FLAG] };
    expect(youngGenerationBytes(true, capped)).toBeLessThanOrEqual(4 * MiB);
    // Two semi-spaces of at most the maximum, against V8's default of 16 MiB each.
    expect(youngGenerationBytes(true, { ...capped, grow: true })).toBeLessThanOrEqual(
      2 * MAX_SEMI_SPACE_MIB * MiB,
    );
    expect(youngGenerationBytes(true, { grow: true })).toBeGreaterThan(2 * MAX_SEMI_SPACE_MIB * MiB);
  });

  it('is given the maximum by every way the service is started', () => {
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts.start).toContain(`node ${MAX_SEMI_SPACE_FLAG} dist/src/cli.js serve`);
    expect(scripts.dashboard).toBe(`node ${MAX_SEMI_SPACE_FLAG} dist/src/cli.js`);
    expect(readFileSync('src/cli.ts', 'utf8').split('\n')[0]).toBe(
      `#!/usr/bin/env -S node ${MAX_SEMI_SPACE_FLAG}`,
    );
    const serveLines = (text: string) => text.split('\n').filter((line) => /cli\.js serve/.test(line));
    for (const line of [
      ...serveLines(readFileSync('Procfile', 'utf8')),
      ...serveLines(readFileSync('README.md', 'utf8')),
    ]) {
      expect(line).toContain(`node ${MAX_SEMI_SPACE_FLAG} dist/src/cli.js serve`);
    }
  });
});
