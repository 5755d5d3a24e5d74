import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRateLimit } from './rate-limit-store.js';

// The plugin's own memory store, the rule ours must keep (it is not part of its typed API).
const require = createRequire(import.meta.url);
interface Window {
  current: number;
  ttl: number;
}

/** What the plugin calls on a store (ours and its own alike). */
interface CountingStore {
  incr(
    key: string,
    callback: (error: Error | null, result: Window) => void,
    windowMs: number,
    max: number,
  ): void;
}

const PluginLocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
) => CountingStore;

const count = (store: CountingStore, key: string, windowMs: number) => {
  let answer: Window | undefined;
  store.incr(key, (_error, result) => (answer = { current: result.current, ttl: result.ttl }), windowMs, 3);
  return answer!;
};

describe('shared memory rate-limit store', () => {
  afterEach(() => vi.useRealTimers());

  it("counts windows exactly as the plugin's memory store does", () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const { Store } = createMemoryRateLimit();
    const ours = new Store({ max: 3, timeWindow: 1000 }) as unknown as CountingStore;
    const theirs = new PluginLocalStore(false, false);
    // Keys, and the milliseconds to wait before each request: inside, at and past the window's end.
    const steps: [string, number][] = [
      ['a', 0],
      ['a', 10],
      ['b', 5],
      ['a', 300],
      ['a', 0],
      ['a', 685],
      ['a', 1],
      ['b', 2000],
      ['a', 999],
      ['a', 1],
    ];
    for (const [key, wait] of steps) {
      vi.advanceTimersByTime(wait);
      expect(count(ours, key, 1000)).toEqual(count(theirs, key, 1000));
    }
  });

  it('lets the front door count only what the limit admits, per route', () => {
    vi.useFakeTimers({ now: 5_000_000 });
    const { Store, gate } = createMemoryRateLimit();
    const scope = new Store({ max: 2, timeWindow: 60_000 });
    scope.child({
      max: 1,
      timeWindow: 10_000,
      routeInfo: { url: '/api/apps', method: ['GET', 'HEAD'] },
    } as never);

    expect(gate.admit('GET', '/api/to_do_list', '10.0.0.1')).toEqual({
      limit: 2,
      remaining: 1,
      resetSeconds: 60,
    });
    expect(gate.admit('GET', '/api/to_do_list', '10.0.0.1')).toEqual({
      limit: 2,
      remaining: 0,
      resetSeconds: 60,
    });
    expect(gate.admit('GET', '/api/to_do_list', '10.0.0.1')).toBeUndefined();
    // Refusing did not count: the plugin's next count (its own refusal) is the third, not the fourth.
    expect(count(scope as never, '10.0.0.1', 60_000).current).toBe(3);

    expect(gate.admit('GET', '/api/apps', '10.0.0.1')).toEqual({ limit: 1, remaining: 0, resetSeconds: 10 });
    expect(gate.admit('GET', '/api/apps', '10.0.0.1')).toBeUndefined();
    expect(gate.admit('GET', '/api/apps', '10.0.0.2')).toMatchObject({ remaining: 0 });
    vi.advanceTimersByTime(10_000);
    expect(gate.admit('GET', '/api/apps', '10.0.0.1')).toMatchObject({ remaining: 0, resetSeconds: 10 });
  });
});
