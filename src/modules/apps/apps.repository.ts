import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { pageWithTotal } from '../../db/paging.js';
import {
  fromDbBoolean,
  isStorableId,
  isUniqueViolation,
  parseJson,
  toCount,
  toDbBoolean,
} from '../../db/errors.js';
import type { AppsTable, E2eManualRunsTable } from '../../db/schema.js';
import { ConflictError } from '../../shared/errors.js';
import { successRate } from '../../shared/rates.js';
import { nowIso } from '../../shared/time.js';
import type { TriggerConfiguration } from './apps.schema.js';

/** A stored application as services see it: `watching` a boolean, the trigger parsed JSON. */
export type AppRow = Omit<Selectable<AppsTable>, 'watching' | 'e2e_trigger_configuration'> & {
  watching: boolean;
  e2e_trigger_configuration: TriggerConfiguration | null;
};

const decode = (row: Selectable<AppsTable>): AppRow => ({
  ...row,
  watching: fromDbBoolean(row.watching),
  e2e_trigger_configuration: parseJson<TriggerConfiguration>(row.e2e_trigger_configuration),
});
const encodeTrigger = (trigger: TriggerConfiguration | null) =>
  trigger === null ? null : JSON.stringify(trigger);
export type ManualRunRow = Selectable<E2eManualRunsTable>;

export interface AppWrite {
  name: string;
  code: string;
  pipelineUrl: string;
  watching: boolean;
  triggerConfiguration: TriggerConfiguration | null;
  repositoryUrl: string | null;
  defaultBranch: string;
  prFeedback: string;
}

export interface AppRunStats {
  lastRun: ManualRunRow | undefined;
  runsToday: number;
}

const duplicateCode = (code: string) =>
  new ConflictError(`An application with code "${code}" already exists`);

export function createAppsRepository(db: Db) {
  return {
    async list(limit: number, offset: number): Promise<{ rows: AppRow[]; total: number }> {
      return pageWithTotal(
        { limit, offset },
        async () =>
          (await db.selectFrom('apps').selectAll().orderBy('id').limit(limit).offset(offset).execute()).map(
            decode,
          ),
        async () =>
          toCount(
            (
              await db
                .selectFrom('apps')
                .select((eb) => eb.fn.countAll().as('total'))
                .executeTakeFirstOrThrow()
            ).total,
          ),
      );
    },

    async listAll(options: { watchingOnly?: boolean } = {}): Promise<AppRow[]> {
      let query = db.selectFrom('apps').selectAll().orderBy('name').orderBy('id');
      if (options.watchingOnly) query = query.where('watching', '=', toDbBoolean(true));
      return (await query.execute()).map(decode);
    },

    async findById(id: number): Promise<AppRow | undefined> {
      if (!isStorableId(id)) return undefined;
      const row = await db.selectFrom('apps').selectAll().where('id', '=', id).executeTakeFirst();
      return row && decode(row);
    },

    async findByIds(ids: readonly number[]): Promise<AppRow[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('apps')
        .selectAll()
        .where('id', 'in', [...ids])
        .execute();
      return rows.map(decode);
    },

    async create(input: AppWrite): Promise<AppRow> {
      const now = nowIso();
      try {
        const row = await db
          .insertInto('apps')
          .values({
            name: input.name,
            code: input.code,
            pipeline_url: input.pipelineUrl,
            watching: toDbBoolean(input.watching),
            e2e_trigger_configuration: encodeTrigger(input.triggerConfiguration),
            repository_url: input.repositoryUrl,
            default_branch: input.defaultBranch,
            pr_feedback: input.prFeedback,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return decode(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicateCode(input.code);
        throw error;
      }
    },

    async update(id: number, patch: Partial<AppWrite>): Promise<AppRow | undefined> {
      if (!isStorableId(id)) return undefined;
      try {
        const row = await db
          .updateTable('apps')
          .set({
            ...(patch.name !== undefined ? { name: patch.name } : {}),
            ...(patch.code !== undefined ? { code: patch.code } : {}),
            ...(patch.pipelineUrl !== undefined ? { pipeline_url: patch.pipelineUrl } : {}),
            ...(patch.watching !== undefined ? { watching: toDbBoolean(patch.watching) } : {}),
            ...(patch.triggerConfiguration !== undefined
              ? { e2e_trigger_configuration: encodeTrigger(patch.triggerConfiguration) }
              : {}),
            ...(patch.repositoryUrl !== undefined ? { repository_url: patch.repositoryUrl } : {}),
            ...(patch.defaultBranch !== undefined ? { default_branch: patch.defaultBranch } : {}),
            ...(patch.prFeedback !== undefined ? { pr_feedback: patch.prFeedback } : {}),
            updated_at: nowIso(),
          })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst();
        return row && decode(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicateCode(patch.code ?? '');
        throw error;
      }
    },

    /**
     * Deletes the app (its report details and manual runs go with it through foreign keys) and
     * recomputes the totals of every summary it appeared in, in one transaction (docs/contract-notes.md, "Applications").
     */
    async delete(id: number): Promise<AppRow | undefined> {
      if (!isStorableId(id)) return undefined;
      return db.transaction().execute(async (trx) => {
        const affected = await trx
          .selectFrom('e2e_report_details')
          .select('report_summary_id')
          .where('app_id', '=', id)
          .execute();
        const deleted = await trx.deleteFrom('apps').where('id', '=', id).returningAll().executeTakeFirst();
        if (!deleted) return undefined;
        for (const { report_summary_id: summaryId } of affected) {
          const sums = await trx
            .selectFrom('e2e_report_details')
            .select((eb) => [
              eb.fn.coalesce(eb.fn.sum<number>('total_runs'), eb.lit(0)).as('total'),
              eb.fn.coalesce(eb.fn.sum<number>('passed_runs'), eb.lit(0)).as('passed'),
              eb.fn.coalesce(eb.fn.sum<number>('failed_runs'), eb.lit(0)).as('failed'),
            ])
            .where('report_summary_id', '=', summaryId)
            .executeTakeFirstOrThrow();
          const [total, passed, failed] = [Number(sums.total), Number(sums.passed), Number(sums.failed)];
          await trx
            .updateTable('e2e_report_summaries')
            .set({
              total_runs: total,
              passed_runs: passed,
              failed_runs: failed,
              success_rate: successRate(passed, total),
              updated_at: nowIso(),
            })
            .where('id', '=', summaryId)
            .execute();
        }
        return decode(deleted);
      });
    },

    /** Last manual run (any date) and number of runs triggered since `todayStart`, per app. */
    async runStats(appIds: readonly number[], todayStart: string): Promise<Map<number, AppRunStats>> {
      const stats = new Map<number, AppRunStats>(
        appIds.map((id) => [id, { lastRun: undefined, runsToday: 0 }]),
      );
      if (appIds.length === 0) return stats;
      const ids = [...appIds];
      const [latest, today] = await Promise.all([
        db
          .selectFrom((eb) =>
            eb
              .selectFrom('e2e_manual_runs')
              .selectAll()
              .select((inner) =>
                inner.fn
                  .agg<number>('row_number')
                  .over((over) =>
                    over.partitionBy('app_id').orderBy('created_at', 'desc').orderBy('id', 'desc'),
                  )
                  .as('position'),
              )
              .where('app_id', 'in', ids)
              .as('ranked'),
          )
          .selectAll()
          .where('position', '=', 1)
          .execute(),
        db
          .selectFrom('e2e_manual_runs')
          .select((eb) => ['app_id', eb.fn.countAll().as('runs')])
          .where('app_id', 'in', ids)
          .where('created_at', '>=', todayStart)
          .groupBy('app_id')
          .execute(),
      ]);
      for (const row of latest) {
        const { position: _position, ...run } = row;
        stats.get(run.app_id)!.lastRun = run;
      }
      for (const row of today) stats.get(row.app_id)!.runsToday = toCount(row.runs);
      return stats;
    },
  };
}

export type AppsRepository = ReturnType<typeof createAppsRepository>;
