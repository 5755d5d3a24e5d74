import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { growYoungGenerationUnderLoad, type YoungGenerationHooks } from './young-generation.js';

function fakeHooks() {
  const state = { watching: false, grown: 0, intervalCleared: false, tick: () => {}, scavenge: () => {} };
  const hooks: YoungGenerationHooks = {
    watchMinorCollections(onMinorCollection) {
      state.watching = true;
      state.scavenge = onMinorCollection;
      return () => {
        state.watching = false;
      };
    },
    allowGrowth: () => {
      state.grown += 1;
    },
    setInterval: (callback) => {
      state.tick = callback;
      return { unref: () => undefined };
    },
    clearInterval: () => {
      state.intervalCleared = true;
    },
  };
  const scavenges = (count: number) => {
    for (let i = 0; i < count; i += 1) state.scavenge();
  };
  return { hooks, state, scavenges };
}

describe('young generation under load', () => {
  it('stays small while scavenges per interval stay under the threshold', () => {
    const { hooks, state, scavenges } = fakeHooks();
    const stop = growYoungGenerationUnderLoad({ threshold: 20, hooks });
    for (let interval = 0; interval < 5; interval += 1) {
      scavenges(19);
      state.tick();
    }
    expect(state.grown).toBe(0);
    expect(state.watching).toBe(true);
    stop();
    expect(state.watching).toBe(false);
  });

  it('lets it grow once when an interval reaches the threshold, then stops watching', () => {
    const { hooks, state, scavenges } = fakeHooks();
    growYoungGenerationUnderLoad({ threshold: 20, hooks });
    scavenges(5);
    state.tick();
    scavenges(20);
    state.tick();
    expect(state.grown).toBe(1);
    expect(state.watching).toBe(false);
    expect(state.intervalCleared).toBe(true);
  });

  it('grows the young generation of a busy process that started with it held small', () => {
    // Held small, as the service's entry does, then a sustained allocation load, with and
    // without the policy.
    const youngGeneration = (policy: boolean) => {
      const script = `
        const { setFlagsFromString, getHeapSpaceStatistics } = await import('node:v8');
        setFlagsFromString('--semi-space-growth-factor=1');
        const { growYoungGenerationUnderLoad } = await import('./src/runtime/young-generation.ts');
        const youngSize = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
        const before = youngSize();
        if (${policy}) growYoungGenerationUnderLoad({ threshold: 5, intervalMs: 50 });
        let keep = [];
        const started = Date.now();
        while (Date.now() - started < 1000) {
          for (let i = 0; i < 100_000; i += 1) { keep.push({ i, text: 'x' + i }); if (keep.length > 20_000) keep = []; }
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        process.stdout.write(JSON.stringify({ before, after: youngSize() }));
      `;
      return JSON.parse(
        execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
          encoding: 'utf8',
          env: { ...process.env, NODE_OPTIONS: '' },
        }),
      ) as { before: number; after: number };
    };
    const held = youngGeneration(false);
    expect(held.after).toBe(held.before);
    const grown = youngGeneration(true);
    expect(grown.after).toBeGreaterThanOrEqual(4 * grown.before);
  });
});
