import { createInProcessBroker } from '../../src/broker/in-process-broker.js';
import type { Config } from '../../src/config/config.js';
import type { Db } from '../../src/db/database.js';
import { createIntegrations } from '../../src/integrations/integrations.js';
import { createManualRunsModule } from '../../src/modules/manual-runs/manual-runs.module.js';
import { createIntegrationStatus } from '../../src/modules/status/integration-status.js';
import type { Log } from '../../src/shared/log.js';

export const quietLog: Log = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
};

/** The manual-runs module as the container builds it; `claim` stands in for the broker's claimOnce. */
export function manualRunsWith(
  config: Config,
  db: Db,
  log: Log = quietLog,
  claim?: (key: string, ttlMs: number) => Promise<boolean>,
) {
  const broker = createInProcessBroker();
  const { circleci } = createIntegrations(config, createIntegrationStatus(db), log);
  return createManualRunsModule(
    { config, db, log, broker: claim ? { ...broker, claimOnce: claim } : broker },
    { circleci },
  );
}
