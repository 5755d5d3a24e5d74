import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { LruMap } from 'toad-cache';

/** One key's window: requests counted since it opened, and milliseconds until it closes. */
interface Window {
  current: number;
  ttl: number;
  iterationStartMs: number;
}

/** The rate-limit headers of a request the limit lets through. */
export interface Admitted {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/**
 * The front door's view of the limiter: counts a request and returns its headers, or returns
 * undefined and counts nothing when the request would exceed the limit (Fastify then counts and
 * refuses it, with the plugin's own 429).
 */
export interface RateLimitGate {
  admit(method: string, route: string, key: string): Admitted | undefined;
}

/** Keys remembered per limit, as the plugin's own memory store does (least recently used go). */
const KEYS_KEPT = 5000;

/** The plugin's options as it hands them to a store: the merged limit of the scope or route. */
interface StoreParams {
  max: number;
  timeWindow: number;
  routeInfo?: { url?: string; method?: string | string[] };
}

/** Fixed windows per key, the rule of the plugin's memory store: a window opens at a key's first request. */
class WindowCounter {
  readonly #windows = new LruMap<Window>(KEYS_KEPT);

  constructor(
    readonly max: number,
    readonly windowMs: number,
  ) {}

  count(key: string, windowMs: number, now: number): Window {
    let window = this.#windows.get(key);
    if (!window || window.iterationStartMs + windowMs <= now) {
      window = { current: 1, ttl: windowMs, iterationStartMs: now };
    } else {
      window.current += 1;
      window.ttl = windowMs - (now - window.iterationStartMs);
    }
    this.#windows.set(key, window);
    return window;
  }

  /** The count the next request of `key` would reach, without counting it. */
  next(key: string, now: number): number {
    const window = this.#windows.get(key);
    return window && window.iterationStartMs + this.windowMs > now ? window.current + 1 : 1;
  }
}

/**
 * In-memory counting for `@fastify/rate-limit` that the front door can consult too, so a cached
 * read answered there still counts against (and is refused by) the same limit as one answered by
 * Fastify. The plugin builds the store once for the scope and once more (`child`) per route with
 * its own limit; each is remembered under the route's method and path. Counting is synchronous, so
 * the front door's check-then-count cannot interleave with another request's.
 */
export function createMemoryRateLimit(): { Store: FastifyRateLimitStoreCtor; gate: RateLimitGate } {
  let scopeCounter: WindowCounter | undefined;
  const routeCounters = new Map<string, WindowCounter>();

  class SharedMemoryStore implements FastifyRateLimitStore {
    readonly #counter: WindowCounter;

    constructor(options: unknown) {
      const { max, timeWindow } = options as StoreParams;
      this.#counter = new WindowCounter(max, timeWindow);
      scopeCounter ??= this.#counter;
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow?: number,
    ): void {
      callback(null, this.#counter.count(key, timeWindow ?? this.#counter.windowMs, Date.now()));
    }

    child(routeOptions: unknown): FastifyRateLimitStore {
      const params = routeOptions as StoreParams;
      const store = new SharedMemoryStore(params);
      const { url, method } = params.routeInfo ?? {};
      for (const each of [method ?? []].flat()) routeCounters.set(`${each} ${url}`, store.#counter);
      return store;
    }
  }

  return {
    Store: SharedMemoryStore,
    gate: {
      admit(method, route, key) {
        const counter = routeCounters.get(`${method} ${route}`) ?? scopeCounter;
        if (!counter) return undefined;
        const now = Date.now();
        if (counter.next(key, now) > counter.max) return undefined;
        const window = counter.count(key, counter.windowMs, now);
        return {
          limit: counter.max,
          remaining: Math.max(0, counter.max - window.current),
          resetSeconds: Math.ceil(window.ttl / 1000),
        };
      },
    },
  };
}
