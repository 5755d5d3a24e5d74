import type { JiraIntegration } from '../../integrations/integrations.js';
import type { ModuleDeps } from '../module-deps.js';
import type { NotificationSink } from '../notifications/notification-sink.js';
import { createQuarantineRepository } from './quarantine.repository.js';
import { createQuarantineService, type QuarantineService } from './quarantine.service.js';
import { createQuarantineEffects, type FailingTestsOf, type QuarantineEffects } from './report-effects.js';
import { createQuarantineReview, type QuarantineReview } from './review.js';

export interface QuarantineModule {
  service: QuarantineService;
  review: QuarantineReview;
  /** What the reports and the report worker ask about known failures. */
  effects: QuarantineEffects;
  clock: () => number;
}

/** Known failures, their review against the process's Jira client and their effects on reports. */
export function createQuarantineModule(
  { config, db }: ModuleDeps,
  links: {
    jira: JiraIntegration;
    notify: NotificationSink;
    clock: () => number;
    /** Which tests of a spec failed in its latest run (test-level quarantines need it). */
    failingTestsOf?: FailingTestsOf;
  },
): QuarantineModule {
  const repository = createQuarantineRepository(db);
  return {
    service: createQuarantineService({ repository, clock: links.clock }),
    review: createQuarantineReview({
      repository,
      jira: links.jira.client,
      missingJiraVariables: links.jira.missing,
      notify: links.notify,
      clock: links.clock,
      secrets: [config.jira.apiToken],
    }),
    effects: createQuarantineEffects(repository, links.failingTestsOf),
    clock: links.clock,
  };
}
