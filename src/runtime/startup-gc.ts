import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * One full garbage collection that compacts every page, run once the service has started.
 * Start-up (loading modules, building the routes) leaves a third or more of the old generation
 * free, scattered over pages V8 keeps committed; nothing compacts them while the process idles,
 * so without this that space stays in its RSS. A plain forced collection compacts only the pages
 * V8's heuristics pick, which left between 0 and 15 MiB of it in place from one start to the
 * next; compacting them all empties the free pages, which V8 then returns (a few tens of ms,
 * before any request).
 *
 * `gc()` is reachable only with `--expose-gc`; the flag is honoured by contexts created after it
 * is set, so a throw-away context hands the function over, and both flags are turned off again:
 * the application's own global never gains a `gc`, and later collections keep V8's heuristics.
 */
export function collectStartupGarbage(): void {
  const existing = (globalThis as { gc?: () => void }).gc;
  setFlagsFromString('--compact-on-every-full-gc');
  try {
    if (existing) return existing();
    setFlagsFromString('--expose-gc');
    try {
      (runInNewContext('gc') as () => void)();
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  } finally {
    setFlagsFromString('--no-compact-on-every-full-gc');
  }
}
