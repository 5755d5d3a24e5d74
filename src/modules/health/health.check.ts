import { type Static } from '@sinclair/typebox';
import { VERSION } from '../../shared/version.js';
import type { DependencyCheck, HealthResponse } from './health.schema.js';

export interface HealthProbe {
  /**
   * Returns (or resolves) when the dependency answers; throws, rejects or times out when it does
   * not. An embedded dependency answers synchronously and costs no promise or timer.
   */
  (): void | Promise<void>;
}

type Check = Static<typeof DependencyCheck>;

const PROBE_TIMEOUT_MS = 2000;

const ok = (started: number): Check => ({
  status: 'ok',
  latencyMs: Math.round((performance.now() - started) * 100) / 100,
});
const down = (started: number): Check => ({
  status: 'down',
  latencyMs: Math.round(performance.now() - started),
});

/** Runs a probe with a time-out: `ok` with its latency, or `down`. */
export function runProbe(probe: HealthProbe): Check | Promise<Check> {
  const started = performance.now();
  let answer: void | Promise<void>;
  try {
    answer = probe();
  } catch {
    return down(started);
  }
  if (!(answer instanceof Promise)) return ok(started);
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    answer,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS);
    }),
  ])
    .then(
      () => ok(started),
      () => down(started),
    )
    .finally(() => clearTimeout(timer));
}

/**
 * One probe in flight per dependency: requests that arrive while it runs share its answer (a
 * burst of health checks, or a slow dependency, costs one probe and one timer, not one each).
 * No answer is reused once its probe has finished, so a dependency going down or coming back
 * shows on the next request.
 */
export function sharedProbe(probe: HealthProbe): () => Check | Promise<Check> {
  let inFlight: Promise<Check> | undefined;
  return () => {
    if (inFlight) return inFlight;
    const check = runProbe(probe);
    if (!(check instanceof Promise)) return check;
    inFlight = check.finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
}

/**
 * A weak validator of the health answer: two answers with the same status, dependency states and
 * version mean the same thing, though their time, uptime and latencies differ. A poller sending
 * it back gets a 304 until something changes.
 */
function healthTag(status: string, database: Check, broker: Check): string {
  return `W/"${status}.${database.status}.${broker.status}.${VERSION}"`;
}

/** The health answer of one moment: its status code, weak validator and body. */
export interface HealthAnswer {
  readonly statusCode: 200 | 503;
  readonly etag: string;
  readonly body: HealthResponse;
}

/**
 * Probes both dependencies and builds the answer; synchronous when both answer synchronously
 * (the embedded SQLite and in-process broker). Built once per process in the container.
 *
 * Requests within the same millisecond share one answer: its timestamp could not tell them apart
 * anyway, and under a burst of pollers the probes were most of what a health answer cost. A dependency going down shows from the next millisecond on.
 */
export function createHealthCheck(
  probes: { database: HealthProbe; broker: HealthProbe },
  clock: () => number = Date.now,
): () => HealthAnswer | Promise<HealthAnswer> {
  const probeDatabase = sharedProbe(probes.database);
  const probeBroker = sharedProbe(probes.broker);
  let lastAt = Number.NaN;
  let last: HealthAnswer | undefined;
  const answer = (at: number, database: Check, broker: Check): HealthAnswer => {
    const status = database.status === 'down' ? 'down' : broker.status === 'down' ? 'degraded' : 'ok';
    return {
      statusCode: status === 'down' ? 503 : 200,
      etag: healthTag(status, database, broker),
      body: {
        status,
        version: VERSION,
        uptime: Math.round(process.uptime() * 1000) / 1000,
        timestamp: new Date(at).toISOString(),
        checks: { database, broker },
      },
    };
  };
  return () => {
    const now = clock();
    if (now === lastAt && last) return last;
    const database = probeDatabase();
    const broker = probeBroker();
    if (database instanceof Promise || broker instanceof Promise) {
      // Shared while in flight by the probes themselves; not kept once settled.
      return Promise.all([database, broker]).then(([db, queue]) => answer(clock(), db, queue));
    }
    last = answer(now, database, broker);
    lastAt = now;
    return last;
  };
}
