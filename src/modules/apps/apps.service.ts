import { NotFoundError } from '../../shared/errors.js';
import type { Page } from '../../shared/page.js';
import { todayUtc } from '../../shared/time.js';
import type { AppRow, AppRunStats, AppsRepository, AppWrite, ManualRunRow } from './apps.repository.js';
import {
  type ApplicationDetails,
  type CreateAppBody,
  type LastApplicationRun,
  PR_FEEDBACK_MODES,
  type PrFeedbackMode,
  type UpdateAppBody,
} from './apps.schema.js';

export type AppChange = 'created' | 'deleted' | 'watching_changed';

export interface AppsServiceDeps {
  appsRepository: AppsRepository;
  /** Told about changes worth an `app_update` notification; never allowed to fail the request. */
  onAppChange?: (change: AppChange, app: ApplicationDetails) => void;
  /** Told when an app's E2E trigger may have changed (created with one, edited, deleted). */
  onTriggerChange?: (appId: number) => void;
}

export function toLastRun(run: ManualRunRow): LastApplicationRun {
  return {
    id: run.id,
    status: run.status,
    url: run.url,
    pipelineId: run.pipeline_id,
    createdAt: run.created_at,
  };
}

export function toApplicationDetails(row: AppRow, stats: AppRunStats | undefined): ApplicationDetails {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    pipelineUrl: row.pipeline_url,
    watching: row.watching,
    e2eTriggerConfiguration: row.e2e_trigger_configuration,
    repositoryUrl: row.repository_url,
    defaultBranch: row.default_branch,
    prFeedback: toPrFeedbackMode(row.pr_feedback),
    lastRun: stats?.lastRun ? toLastRun(stats.lastRun) : null,
    e2eRunsQuantity: stats?.runsToday ?? 0,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A stored mode the schema does not know (written by hand) reads as off. */
export const toPrFeedbackMode = (value: string): PrFeedbackMode =>
  (PR_FEEDBACK_MODES as readonly string[]).includes(value) ? (value as PrFeedbackMode) : 'off';

const startOfTodayUtc = () => `${todayUtc()}T00:00:00.000Z`;

function toWrite(body: UpdateAppBody): Partial<AppWrite> {
  return {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.code !== undefined ? { code: body.code } : {}),
    ...(body.pipelineUrl !== undefined ? { pipelineUrl: body.pipelineUrl } : {}),
    ...(body.watching !== undefined ? { watching: body.watching } : {}),
    ...(body.e2eTriggerConfiguration !== undefined
      ? {
          triggerConfiguration: body.e2eTriggerConfiguration,
        }
      : {}),
    ...(body.repositoryUrl !== undefined ? { repositoryUrl: body.repositoryUrl } : {}),
    ...(body.defaultBranch !== undefined ? { defaultBranch: body.defaultBranch } : {}),
    ...(body.prFeedback !== undefined ? { prFeedback: body.prFeedback } : {}),
  };
}

export function createAppsService({ appsRepository, onAppChange, onTriggerChange }: AppsServiceDeps) {
  const notFound = (id: number) => new NotFoundError(`Application ${id} not found`);

  async function withStats(rows: AppRow[]): Promise<ApplicationDetails[]> {
    const stats = await appsRepository.runStats(
      rows.map((row) => row.id),
      startOfTodayUtc(),
    );
    return rows.map((row) => toApplicationDetails(row, stats.get(row.id)));
  }

  const announce = (change: AppChange, app: ApplicationDetails) => {
    try {
      onAppChange?.(change, app);
    } catch {
      // A notification problem must never undo or fail the change itself.
    }
  };
  const triggerChanged = (appId: number) => {
    try {
      onTriggerChange?.(appId);
    } catch {
      // The schedulers' periodic re-read still picks the change up.
    }
  };

  return {
    async list(page: Page) {
      const { rows, total } = await appsRepository.list(page.limit, page.offset);
      return { items: await withStats(rows), total };
    },

    async get(id: number): Promise<ApplicationDetails> {
      const row = await appsRepository.findById(id);
      if (!row) throw notFound(id);
      const [details] = await withStats([row]);
      return details!;
    },

    async create(body: CreateAppBody): Promise<ApplicationDetails> {
      const row = await appsRepository.create({
        name: body.name,
        code: body.code,
        pipelineUrl: body.pipelineUrl,
        watching: body.watching ?? true,
        triggerConfiguration: body.e2eTriggerConfiguration ?? null,
        repositoryUrl: body.repositoryUrl ?? null,
        defaultBranch: body.defaultBranch ?? 'main',
        prFeedback: body.prFeedback ?? 'off',
      });
      const app = toApplicationDetails(row, undefined);
      announce('created', app);
      if (row.e2e_trigger_configuration !== null) triggerChanged(app.id);
      return app;
    },

    async update(id: number, body: UpdateAppBody): Promise<ApplicationDetails> {
      const before = await appsRepository.findById(id);
      if (!before) throw notFound(id);
      const row = await appsRepository.update(id, toWrite(body));
      if (!row) throw notFound(id);
      const [app] = await withStats([row]);
      if (before.watching !== row.watching) announce('watching_changed', app!);
      if (
        JSON.stringify(before.e2e_trigger_configuration) !== JSON.stringify(row.e2e_trigger_configuration)
      ) {
        triggerChanged(id);
      }
      return app!;
    },

    async remove(id: number): Promise<void> {
      const row = await appsRepository.delete(id);
      if (!row) throw notFound(id);
      announce('deleted', toApplicationDetails(row, undefined));
      if (row.e2e_trigger_configuration !== null) triggerChanged(id);
    },
  };
}

export type AppsService = ReturnType<typeof createAppsService>;
