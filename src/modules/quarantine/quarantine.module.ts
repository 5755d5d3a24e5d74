import { createJiraClient } from '../../integrations/jira/jira-client.js';
import { readJiraSettings } from '../../integrations/jira/jira-config.js';
import type { ModuleDeps } from '../../shared/module-deps.js';
import type { NotificationSink } from '../notifications/notification-sink.js';
import type { IntegrationStatusTracker } from '../status/integration-status.js';
import { createQuarantineRepository } from './quarantine.repository.js';
import { createQuarantineService, type QuarantineService } from './quarantine.service.js';
import { createQuarantineEffects, type QuarantineEffects } from './report-effects.js';
import { createQuarantineReview, type QuarantineReview } from './review.js';

export interface QuarantineModule {
  service: QuarantineService;
  review: QuarantineReview;
  /** What the reports and the report worker ask about known failures. */
  effects: QuarantineEffects;
  clock: () => number;
}

/** Known failures, their review against Jira (calls recorded for the status page) and their effects on reports. */
export function createQuarantineModule(
  { config, db }: ModuleDeps,
  links: { notify: NotificationSink; clock: () => number; integrationStatus: IntegrationStatusTracker },
): QuarantineModule {
  const repository = createQuarantineRepository(db);
  const { settings, missing } = readJiraSettings(config);
  const jira = settings
    ? createJiraClient(
        settings,
        config.externalTimeoutMs,
        links.integrationStatus.outcomes('jira', [settings.apiToken]),
      )
    : undefined;
  return {
    service: createQuarantineService({ repository, clock: links.clock }),
    review: createQuarantineReview({
      repository,
      jira,
      missingJiraVariables: missing,
      notify: links.notify,
      clock: links.clock,
      secrets: [settings?.apiToken],
    }),
    effects: createQuarantineEffects(repository),
    clock: links.clock,
  };
}
