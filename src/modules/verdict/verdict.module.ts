import type { GitHubFeedbackClient } from '../../integrations/github/github-feedback.js';
import type { ModuleDeps } from '../module-deps.js';
import type { QuarantineEffects } from '../quarantine/report-effects.js';
import type { SuspectsService } from '../suspects/suspects.service.js';
import { createTestsRepository } from '../tests/tests.repository.js';
import { createTestsService } from '../tests/tests.service.js';
import { createFeedbackDelivery } from './feedback/feedback-delivery.js';
import { createFeedbackPoller } from './feedback/feedback-poller.js';
import { createFeedbackRepository } from './feedback/feedback.repository.js';
import { createRunPageService } from './run-page.service.js';
import { createVerdictRepository } from './verdict.repository.js';
import { createVerdictService } from './verdict.service.js';

/** What an upload tells the verdict: its run may have changed (and is settled at once when final). */
export interface RunChanged {
  appId: number;
  runNumber: number;
  final: boolean;
}

/**
 * Run verdicts (`GET /api/apps/:id/runs/:runNumber/verdict`), the run page and the pull-request
 * feedback of settled runs (scheduled by uploads, delivered by whichever process claims the run).
 */
export function createVerdictModule(
  { config, db, log }: ModuleDeps,
  links: {
    github: GitHubFeedbackClient;
    suspects: Pick<SuspectsService, 'commitsWithin'>;
    quarantine?: Pick<QuarantineEffects, 'testLookup'>;
    now?: () => Date;
  },
) {
  const now = links.now ?? (() => new Date());
  const publicUrl = (config.verdict.publicUrl ?? config.apiBaseUrl).replace(/\/+$/, '');
  const service = createVerdictService({
    repository: createVerdictRepository(db),
    tests: createTestsService({ repository: createTestsRepository(db) }),
    ...(links.quarantine ? { quarantineLookup: (appId: number) => links.quarantine!.testLookup(appId) } : {}),
    suspects: links.suspects,
    flakyThreshold: config.verdict.flakyThreshold,
    publicUrl,
    suspectsBudgetMs: config.externalTimeoutMs,
    now,
  });
  const feedback = createFeedbackRepository(db);
  const retryTotal = config.verdict.feedbackRetryDelaysMs.reduce((sum, ms) => sum + ms, 0);
  const delivery = createFeedbackDelivery({
    repository: feedback,
    verdicts: service,
    github: links.github,
    publicUrl,
    retryLaterMs: Math.max(1000, retryTotal),
    now,
    log,
  });
  const poller = createFeedbackPoller({
    repository: feedback,
    delivery,
    pollMs: config.verdict.feedbackPollMs,
    // Long enough for every call of a delivery to go through its retries.
    leaseMs: 60_000 + 8 * retryTotal + 8 * config.externalTimeoutMs,
    now,
    log,
  });

  /** Schedules the run's feedback; never fails the upload that told it (logged instead). */
  async function runChanged(change: RunChanged): Promise<void> {
    try {
      const at = now();
      const due = change.final ? at : new Date(at.getTime() + config.verdict.feedbackDelayMs);
      await feedback.schedule(change.appId, change.runNumber, due.toISOString(), at.toISOString());
      if (change.final) poller.kick();
    } catch (error) {
      log.warn({ err: error }, 'could not schedule the pull-request feedback of an upload');
    }
  }

  return {
    service,
    runPage: createRunPageService({ verdicts: service, feedback }),
    feedback,
    delivery,
    poller,
    runChanged,
  };
}

export type VerdictModule = ReturnType<typeof createVerdictModule>;
