import type { ModuleDeps } from '../module-deps.js';
import { createAppsRepository, type AppsRepository } from './apps.repository.js';
import { type AppChange, createAppsService, type AppsService } from './apps.service.js';
import type { ApplicationDetails } from './apps.schema.js';
import { createTriggerChanges, type TriggerChanges } from './trigger-changes.js';

export interface AppsModule {
  service: AppsService;
  /** Read by the suspects and the reports (which apps are watched, their names). */
  repository: AppsRepository;
  /** Where the schedulers hear of trigger changes made in any process. */
  triggerChanges: TriggerChanges;
}

/**
 * The applications. A change worth a notification goes to `links.onAppChange`; a changed E2E
 * trigger is announced to the schedulers of every process.
 */
export function createAppsModule(
  { db, broker, log }: ModuleDeps,
  links: { onAppChange: (change: AppChange, app: ApplicationDetails) => void },
): AppsModule {
  const repository = createAppsRepository(db);
  const triggerChanges = createTriggerChanges(broker, log);
  return {
    service: createAppsService({
      appsRepository: repository,
      onAppChange: links.onAppChange,
      onTriggerChange: (appId) => triggerChanges.announce(appId),
    }),
    repository,
    triggerChanges,
  };
}
