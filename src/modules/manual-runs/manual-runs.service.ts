import {
  ConflictError,
  ExternalServiceError,
  NotFoundError,
  UnprocessableEntityError,
} from '../../shared/errors.js';
import type { Page } from '../../shared/page.js';
import type { CircleCiClient, RunStatus } from '../../integrations/circleci/circleci-client.js';
import { pipelinePageUrl, projectSlugFor } from '../../integrations/circleci/circleci-config.js';
import type { ManualRunRow, ManualRunsRepository } from './manual-runs.repository.js';
import type { ManualRun } from './manual-runs.schema.js';

export interface ManualRunsServiceDeps {
  repository: ManualRunsRepository;
  /** Undefined when `CIRCLECI_TOKEN` is not set: triggering then answers 502. */
  circleci: CircleCiClient | undefined;
  circleciBaseUrl: string;
  /** `CIRCLECI_PROJECT_SLUG`: the project of apps whose pipelineUrl names none. */
  fallbackProjectSlug: string | undefined;
}

export function toManualRun(row: ManualRunRow): ManualRun {
  return {
    id: row.id,
    appId: row.app_id,
    pipelineId: row.pipeline_id,
    pipelineNumber: row.pipeline_number,
    status: row.status as RunStatus,
    url: row.url,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function createManualRunsService(deps: ManualRunsServiceDeps) {
  const { repository } = deps;
  // Triggers of one app are serialised in this process, so two quick clicks make one run, not two.
  const inFlight = new Map<number, Promise<unknown>>();

  async function trigger(appId: number): Promise<ManualRun> {
    const app = await repository.findApp(appId);
    if (!app) throw new NotFoundError(`Application ${appId} not found`);
    const trigger = app.e2e_trigger_configuration;
    if (!trigger) throw new UnprocessableEntityError(`Application ${appId} has no E2E trigger configuration`);
    if (trigger.enabled !== true)
      throw new UnprocessableEntityError(`The E2E trigger of application ${appId} is disabled`);
    const active = await repository.findActiveForApp(appId);
    if (active) {
      throw new ConflictError(
        `Application ${appId} already has a manual run in progress (run ${active.id}, ${active.status})`,
      );
    }
    if (!deps.circleci) {
      throw new ExternalServiceError('CircleCI', 'CircleCI is not configured (missing CIRCLECI_TOKEN)');
    }
    const slug = projectSlugFor(app.pipeline_url, deps.fallbackProjectSlug);
    if (!slug) {
      throw new UnprocessableEntityError(
        `The pipelineUrl of application ${appId} names no CircleCI project and CIRCLECI_PROJECT_SLUG is not set`,
      );
    }
    const pipeline = await deps.circleci.triggerPipeline(slug, {
      ...(trigger.branch ? { branch: trigger.branch } : {}),
      ...(trigger.parameters ? { parameters: trigger.parameters } : {}),
    });
    const row = await repository.create({
      appId,
      pipelineId: pipeline.id,
      pipelineNumber: pipeline.number,
      status: 'created',
      url: pipelinePageUrl(deps.circleciBaseUrl, slug, pipeline.number),
    });
    return toManualRun(row);
  }

  return {
    /** Triggers a CircleCI pipeline for the app (also used by the scheduler for scheduled triggers). */
    async trigger(appId: number): Promise<ManualRun> {
      const previous = inFlight.get(appId) ?? Promise.resolve();
      const current = previous.catch(() => undefined).then(() => trigger(appId));
      inFlight.set(appId, current);
      try {
        return await current;
      } finally {
        if (inFlight.get(appId) === current) inFlight.delete(appId);
      }
    },

    async list(page: Page, appId: number | undefined) {
      if (appId !== undefined && !(await repository.findApp(appId))) {
        throw new NotFoundError(`Application ${appId} not found`);
      }
      const { rows, total } = await repository.list({
        ...(appId !== undefined ? { appId } : {}),
        limit: page.limit,
        offset: page.offset,
      });
      return { items: rows.map(toManualRun), total };
    },
  };
}

export type ManualRunsService = ReturnType<typeof createManualRunsService>;
