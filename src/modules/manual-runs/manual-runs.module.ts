import type { Config } from '../../config/config.js';
import type { Db } from '../../db/database.js';
import { type CircleCiClient, createCircleCiClient } from '../../integrations/circleci/circleci-client.js';
import { createManualRunPoller, type ManualRunPoller, type PollerLog } from './manual-runs.poller.js';
import { createManualRunsRepository } from './manual-runs.repository.js';
import { integrationStatusOf } from '../status/integration-status.js';
import { createManualRunsService, type ManualRunsService } from './manual-runs.service.js';

function circleCiFrom(config: Config, db: Db): CircleCiClient | undefined {
  const { token, baseUrl } = config.circleci;
  if (!token) return undefined;
  const outcomes = integrationStatusOf(db).outcomes('circleci', [token]);
  return createCircleCiClient({ baseUrl, token, timeoutMs: config.externalTimeoutMs, outcomes });
}

/** Manual runs over one database and the configured CircleCI (502 on trigger when unconfigured). */
export function createManualRunsModule(
  config: Config,
  db: Db,
  log?: { info(message: string): void },
): { service: ManualRunsService } {
  if (!config.circleci.token) log?.info('CIRCLECI_TOKEN is not set: triggering a manual E2E run answers 502');
  return {
    service: createManualRunsService({
      repository: createManualRunsRepository(db),
      circleci: circleCiFrom(config, db),
      circleciBaseUrl: config.circleci.baseUrl,
      fallbackProjectSlug: config.circleci.projectSlug,
    }),
  };
}

/** The background status poll, every `CIRCLECI_POLL_MS`; it does nothing without `CIRCLECI_TOKEN`. */
export function createManualRunPollerFor(
  config: Config,
  db: Db,
  log: PollerLog,
  claim?: (key: string, ttlMs: number) => Promise<boolean>,
): ManualRunPoller {
  return createManualRunPoller({
    repository: createManualRunsRepository(db),
    circleci: circleCiFrom(config, db),
    intervalMs: config.circleci.pollMs,
    log,
    ...(claim ? { claim } : {}),
  });
}
