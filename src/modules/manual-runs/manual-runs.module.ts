import { createCircleCiClient } from '../../integrations/circleci/circleci-client.js';
import type { ModuleDeps } from '../../shared/module-deps.js';
import { createIntegrationStatus, type IntegrationStatusLink } from '../status/integration-status.js';
import { createManualRunPoller, type ManualRunPoller } from './manual-runs.poller.js';
import { createManualRunsRepository } from './manual-runs.repository.js';
import { createManualRunsService, type ManualRunsService } from './manual-runs.service.js';

export interface ManualRunsModule {
  service: ManualRunsService;
  /**
   * The background status poll, every `CIRCLECI_POLL_MS` (the worker role starts it); it does
   * nothing without `CIRCLECI_TOKEN`. With several workers only the one that claims a tick on the
   * broker polls in it.
   */
  poller: ManualRunPoller;
}

/** Manual runs over one database and the configured CircleCI (502 on trigger when unconfigured). */
export function createManualRunsModule(
  { config, db, log, broker }: ModuleDeps,
  links: IntegrationStatusLink = {},
): ManualRunsModule {
  const { token, baseUrl } = config.circleci;
  if (!token) log.info('CIRCLECI_TOKEN is not set: triggering a manual E2E run answers 502');
  const repository = createManualRunsRepository(db);
  const circleci = token
    ? createCircleCiClient({
        baseUrl,
        token,
        timeoutMs: config.externalTimeoutMs,
        outcomes: (links.integrationStatus ?? createIntegrationStatus(db)).outcomes('circleci', [token]),
      })
    : undefined;
  return {
    service: createManualRunsService({
      repository,
      circleci,
      circleciBaseUrl: baseUrl,
      fallbackProjectSlug: config.circleci.projectSlug,
    }),
    poller: createManualRunPoller({
      repository,
      circleci,
      intervalMs: config.circleci.pollMs,
      log: { info: (message) => log.info(message), warn: (object, message) => log.warn(object, message) },
      claim: (key, ttlMs) => broker.claimOnce(key, ttlMs),
    }),
  };
}
