import { createHook } from 'node:async_hooks';

/**
 * Keeps one of `process.nextTick`'s queue entries alive for the life of the process, so that V8
 * keeps the hidden classes ("maps") of those entries and `process.nextTick` stays fast.
 *
 * Node builds each entry as an object literal with two computed (symbol) keys. V8 holds the
 * hidden classes such a literal walks through only weakly, from the transition tree and from the
 * call site's inline caches. A full garbage collection that finds no entry alive (an idle process,
 * or `collectStartupGarbage()` once the service has started) frees those classes; the next call
 * builds new ones, the inline caches that still remember the freed ones turn megamorphic, and
 * from then on every `process.nextTick` defines its properties through the V8 runtime. Node's
 * streams call it five to seven times per HTTP request. Measured on Node 20 (docs/performance.md):
 * a call went from about 0.2 µs to 0.9 µs, and one `GET /health` from 259k to 298k machine
 * instructions. An entry that never dies keeps those classes, and the caches stay monomorphic.
 *
 * Node does not expose the queue; an `init` async hook is the public way to see an entry being
 * made. The hook is enabled around one `process.nextTick` call and disabled at once, so nothing
 * else pays for it. Call this as early as possible: a collection before it can already have done
 * the damage, and that cannot be undone.
 */
let retained: object | undefined;

const noop = () => undefined;

export function retainTickObjectShape(): object | undefined {
  if (retained !== undefined) return retained;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject' && retained === undefined) retained = resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(noop);
  } finally {
    hook.disable();
  }
  return retained;
}
