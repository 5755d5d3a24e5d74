import { describe, expect, it } from 'vitest';
import { createIdentityCache, rememberingResolver } from './identity-cache.js';
import { testIdOf } from './test-identity.js';
import type { IdentityToResolve } from './test-recorder.js';

const DAY = Date.parse('2026-11-28T10:00:00Z');
const keyOf = (name: string) => testIdOf(1, { spec: 's.ts', title: name, project: '' });
const identity = (name: string): IdentityToResolve => ({
  key: keyOf(name),
  spec: 's.ts',
  title: name,
  project: '',
});

function counting() {
  const calls: { appId: number; titles: string[]; day: string }[] = [];
  let next = 1;
  const ids = new Map<string, number>();
  const resolve = async (appId: number, identities: readonly IdentityToResolve[], day: string) => {
    calls.push({ appId, titles: identities.map((item) => item.title), day });
    return identities.map((item) => {
      const id = ids.get(`${appId}:${item.key}`) ?? next++;
      ids.set(`${appId}:${item.key}`, id);
      return id;
    });
  };
  return { calls, resolve };
}

describe('identity cache', () => {
  it('knows the identities resolved today, per app, and asks for the others only', async () => {
    const { calls, resolve } = counting();
    const resolver = rememberingResolver(resolve, createIdentityCache({ now: () => DAY }));
    expect(resolver.known(1, keyOf('a'))).toBeUndefined();
    const first = await resolver.resolve(1, [identity('a'), identity('b')]);
    expect(resolver.known(1, keyOf('a'))).toBe(first[0]);
    expect(resolver.known(1, keyOf('b'))).toBe(first[1]);
    expect(resolver.known(2, keyOf('a'))).toBeUndefined();
    await resolver.resolve(2, [identity('a')]);
    expect(calls).toEqual([
      { appId: 1, titles: ['a', 'b'], day: '2026-11-28' },
      { appId: 2, titles: ['a'], day: '2026-11-28' },
    ]);
  });

  it('forgets everything on a new day (so last_seen moves), and what was resolved across midnight', async () => {
    const { calls, resolve } = counting();
    let now = DAY;
    const resolver = rememberingResolver(resolve, createIdentityCache({ now: () => now }));
    await resolver.resolve(1, [identity('a')]);
    now += 86_400_000;
    expect(resolver.known(1, keyOf('a'))).toBeUndefined();
    let answer!: () => void;
    const slow = rememberingResolver(
      async (appId, identities, day) => {
        await new Promise<void>((done) => (answer = done));
        return resolve(appId, identities, day);
      },
      createIdentityCache({ now: () => now }),
    );
    const pending = slow.resolve(1, [identity('b')]);
    now += 86_400_000;
    answer();
    await pending;
    expect(slow.known(1, keyOf('b'))).toBeUndefined();
    expect(calls.map((call) => call.day)).toEqual(['2026-11-28', '2026-11-29']);
  });

  it('stays within its bound: the older generation goes, entries used lately stay', () => {
    const cache = createIdentityCache({ max: 2, now: () => DAY });
    const day = cache.today();
    const remember = (names: string[], first: number) =>
      cache.set(
        1,
        cache.keysOf(names.map(identity)),
        names.map((_, index) => first + index),
        day,
      );
    remember(['a', 'b'], 1);
    remember(['c'], 3);
    // 'a' is read from the older half and so moves into the newer one.
    expect(cache.get(1, keyOf('a'))).toBe(1);
    remember(['d', 'e'], 4);
    expect(cache.get(1, keyOf('a'))).toBe(1);
    expect(cache.get(1, keyOf('b'))).toBeUndefined();
    expect(cache.get(1, keyOf('e'))).toBe(5);
  });

  it('keeps all of `max` identities used over and over, one after the other', () => {
    const cache = createIdentityCache({ max: 100, now: () => DAY });
    const names = Array.from({ length: 100 }, (_, index) => `t${index}`);
    cache.set(
      1,
      cache.keysOf(names.map(identity)),
      names.map((_, index) => index + 1),
      cache.today(),
    );
    for (let round = 0; round < 3; round++) {
      expect(names.every((name, index) => cache.get(1, keyOf(name)) === index + 1)).toBe(true);
    }
  });

  it('remembers nothing of a key that is not a testId, nor an id that is none', () => {
    const cache = createIdentityCache({ now: () => DAY });
    const day = cache.today();
    const odd = { key: 'not a test id', spec: 's', title: 't', project: '' };
    cache.set(1, cache.keysOf([odd, identity('x')]), [7, 0], day);
    expect(cache.get(1, 'not a test id')).toBeUndefined();
    expect(cache.get(1, keyOf('x'))).toBeUndefined();
  });
});
