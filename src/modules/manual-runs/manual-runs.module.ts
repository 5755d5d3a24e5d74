import type { CircleCiClient } from '../../integrations/circleci/circleci-client.js';
import type { ModuleDeps } from '../module-deps.js';
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

/** Manual runs over one database and the process's CircleCI client (none: 502 on trigger). */
export function createManualRunsModule(
  { config, db, log, broker }: ModuleDeps,
  links: { circleci: CircleCiClient | undefined },
): ManualRunsModule {
  const { circleci } = links;
  const repository = createManualRunsRepository(db);
  return {
    service: createManualRunsService({
      repository,
      circleci,
      circleciBaseUrl: config.circleci.baseUrl,
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
