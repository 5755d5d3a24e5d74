import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// Allocates ~200 MB of short-lived objects and prints the young generation's committed size.
const churn = (tuning: boolean) => `
  ${tuning ? "await import('./src/runtime/heap-tuning.ts');" : ''}
  const { getHeapSpaceStatistics } = await import('node:v8');
  let keep = [];
  for (let i = 0; i < 2_000_000; i += 1) { keep.push({ i, text: 'x' + i }); if (keep.length > 20_000) keep = []; }
  const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  process.stdout.write(String(young.space_size));
`;

const youngGenerationBytes = (tuning: boolean) =>
  Number(
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', churn(tuning)], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    }),
  );

describe('heap tuning', () => {
  it('keeps the young generation at its initial size under allocation', () => {
    expect(youngGenerationBytes(false)).toBeGreaterThan(8 * 1024 * 1024);
    expect(youngGenerationBytes(true)).toBeLessThanOrEqual(4 * 1024 * 1024);
  });
});
