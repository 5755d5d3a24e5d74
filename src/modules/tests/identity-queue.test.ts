import { describe, expect, it } from 'vitest';
import { inWaitingBatches } from './identity-queue.js';
import type { IdentityToResolve } from './test-recorder.js';

const item = (title: string): IdentityToResolve => ({ key: title, spec: 's', title, project: '' });

/** A by-key resolver numbering new keys in order, logging each call. */
function numbering(delayOf: (titles: string[]) => number = () => 0) {
  const calls: string[][] = [];
  const ids = new Map<string, number>();
  const resolve = async (appId: number, identities: readonly IdentityToResolve[], day: string) => {
    const titles = identities.map((identity) => identity.title);
    calls.push([`${appId} ${day}`, ...titles]);
    await new Promise((done) => setTimeout(done, delayOf(titles)));
    for (const { key } of identities) if (!ids.has(key)) ids.set(key, ids.size + 1);
    return new Map(identities.map(({ key }) => [key, ids.get(key)!]));
  };
  return { calls, resolve };
}

describe('inWaitingBatches', () => {
  it('runs one call at a time, in order, and takes the batches that wait together, each key once', async () => {
    const { calls, resolve } = numbering((titles) => (titles[0] === 'slow' ? 20 : 0));
    const queue = inWaitingBatches(resolve);
    const first = queue(1, [item('slow')], 'd');
    await new Promise((done) => setImmediate(done));
    // These three wait while the first runs; the last is another app's.
    const waiting = [
      queue(1, [item('a'), item('b')], 'd'),
      queue(1, [item('b'), item('c')], 'd'),
      queue(2, [item('a')], 'd'),
    ];
    const answers = await Promise.all([first, ...waiting]);
    expect(calls).toEqual([
      ['1 d', 'slow'],
      ['1 d', 'a', 'b', 'c'],
      ['2 d', 'a'],
    ]);
    expect(answers).toEqual([[1], [2, 3], [3, 4], [2]]);
  });

  it('fails every batch taken with a failed call, and goes on with the next', async () => {
    let calls = 0;
    const queue = inWaitingBatches(async (_appId, identities) => {
      calls += 1;
      if (calls === 1) throw new Error('database gone');
      return new Map(identities.map(({ key }) => [key, 9]));
    });
    const failed = [queue(1, [item('a')], 'd'), queue(1, [item('b')], 'd')];
    await expect(Promise.all(failed)).rejects.toThrow('database gone');
    await expect(failed[1]).rejects.toThrow('database gone');
    await expect(queue(1, [item('c')], 'd')).resolves.toEqual([9]);
  });
});
