import { describe, expect, it } from 'vitest';
import { cachedIdentities } from './identity-cache.js';
import type { IdentityToResolve } from './test-recorder.js';

const identity = (key: string): IdentityToResolve => ({ key, spec: 's.ts', title: key, project: '' });

function counting() {
  const calls: { appId: number; keys: string[]; day: string }[] = [];
  let next = 1;
  const ids = new Map<string, number>();
  const resolve = async (appId: number, identities: readonly IdentityToResolve[], day: string) => {
    calls.push({ appId, keys: identities.map((item) => item.key), day });
    return new Map(
      identities.map((item) => {
        const id = ids.get(`${appId}:${item.key}`) ?? next++;
        ids.set(`${appId}:${item.key}`, id);
        return [item.key, id] as const;
      }),
    );
  };
  return { calls, resolve };
}

describe('cachedIdentities', () => {
  it('asks only for identities not yet resolved today, per app', async () => {
    const { calls, resolve } = counting();
    const cached = cachedIdentities(resolve, () => '2026-11-28');
    const first = await cached(1, [identity('a'), identity('b')]);
    const again = await cached(1, [identity('a'), identity('b'), identity('c')]);
    await cached(2, [identity('a')]);
    expect(again.get('a')).toBe(first.get('a'));
    expect(again.get('b')).toBe(first.get('b'));
    expect(calls.map((call) => [call.appId, call.keys])).toEqual([
      [1, ['a', 'b']],
      [1, ['c']],
      [2, ['a']],
    ]);
  });

  it('asks again on a new day (so last_seen moves) and when the bound evicted an entry', async () => {
    const { calls, resolve } = counting();
    let day = '2026-11-28';
    const cached = cachedIdentities(resolve, () => day, 2);
    await cached(1, [identity('a'), identity('b'), identity('c')]);
    await cached(1, [identity('a')]);
    day = '2026-11-29';
    await cached(1, [identity('c')]);
    expect(calls.map((call) => [call.keys, call.day])).toEqual([
      [['a', 'b', 'c'], '2026-11-28'],
      [['a'], '2026-11-28'],
      [['c'], '2026-11-29'],
    ]);
  });
});
