import type { Db } from '../../db/database.js';
import {
  describeFailure,
  type IntegrationName,
  type OutcomeReporters,
} from '../../integrations/call-outcomes.js';
import {
  createIntegrationStatusRepository,
  type IntegrationStatusRepository,
} from './integration-status.repository.js';

/** A success is written at most this often per integration and process; failures at once. */
export const SUCCESS_WRITE_INTERVAL_MS = 30_000;

export interface IntegrationStatusTracker extends OutcomeReporters {
  /** Resolves when every write started so far has finished (tests, shutdown). */
  settled(): Promise<void>;
}

/**
 * Records the real outbound calls of this process in the database, where every process (the API
 * answering `GET /api/status`, the worker calling Cypress) sees them. Cheap on the hot path: a
 * success is written only when the last write of that integration was an error or is older than
 * `successIntervalMs`; writes of one integration are chained so they land in the order they happened.
 * A write that fails (database down) is dropped: the status is a best-effort view and the outage
 * itself shows on /health.
 */
export function createIntegrationStatusTracker(
  repository: IntegrationStatusRepository,
  options: { successIntervalMs?: number; now?: () => number } = {},
): IntegrationStatusTracker {
  const intervalMs = options.successIntervalMs ?? SUCCESS_WRITE_INTERVAL_MS;
  const now = options.now ?? Date.now;
  const state = new Map<IntegrationName, { successWrittenAt: number; lastWasError: boolean }>();
  const chains = new Map<IntegrationName, Promise<void>>();

  const write = (name: IntegrationName, task: () => Promise<void>) => {
    const chain = (chains.get(name) ?? Promise.resolve()).then(task).catch(() => undefined);
    chains.set(name, chain);
  };

  return {
    outcomes(name, secrets = []) {
      return {
        succeeded() {
          const at = now();
          const current = state.get(name);
          if (current && !current.lastWasError && at - current.successWrittenAt < intervalMs) return;
          state.set(name, { successWrittenAt: at, lastWasError: false });
          const iso = new Date(at).toISOString();
          write(name, () => repository.recordSuccess(name, iso));
        },
        failed(error) {
          const at = now();
          state.set(name, { successWrittenAt: state.get(name)?.successWrittenAt ?? 0, lastWasError: true });
          const message = describeFailure(error, secrets);
          const iso = new Date(at).toISOString();
          write(name, () => repository.recordFailure(name, message, iso));
        },
      };
    },
    async settled() {
      await Promise.all(chains.values());
    },
  };
}

/**
 * A tracker over `db`. The container builds one per process and hands it to `createIntegrations`,
 * so every client that calls out records there (the 30 s success throttle is per process).
 */
export function createIntegrationStatus(db: Db): IntegrationStatusTracker {
  return createIntegrationStatusTracker(createIntegrationStatusRepository(db));
}
