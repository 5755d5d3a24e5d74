import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { isStorableId, parseJson, toCount } from '../../db/errors.js';
import type { AppsTable, E2eManualRunsTable } from '../../db/schema.js';
import { ACTIVE_RUN_STATUSES } from '../../integrations/circleci/circleci-client.js';
import { nowIso } from '../../shared/time.js';
import type { TriggerConfiguration } from '../apps/apps.schema.js';

export type ManualRunRow = Selectable<E2eManualRunsTable>;
/** The app fields a trigger needs, its trigger configuration parsed from the JSON column. */
export type ManualRunAppRow = Pick<Selectable<AppsTable>, 'id' | 'name' | 'pipeline_url'> & {
  e2e_trigger_configuration: TriggerConfiguration | null;
};

export interface ManualRunInsert {
  appId: number;
  pipelineId: string;
  pipelineNumber: number | null;
  status: string;
  url: string;
}

export function createManualRunsRepository(db: Db) {
  return {
    async findApp(id: number): Promise<ManualRunAppRow | undefined> {
      if (!isStorableId(id)) return undefined;
      const row = await db
        .selectFrom('apps')
        .select(['id', 'name', 'pipeline_url', 'e2e_trigger_configuration'])
        .where('id', '=', id)
        .executeTakeFirst();
      return (
        row && {
          ...row,
          e2e_trigger_configuration: parseJson<TriggerConfiguration>(row.e2e_trigger_configuration),
        }
      );
    },

    /** The app's most recent run that is still going (it blocks a new trigger). */
    async findActiveForApp(appId: number): Promise<ManualRunRow | undefined> {
      return db
        .selectFrom('e2e_manual_runs')
        .selectAll()
        .where('app_id', '=', appId)
        .where('status', 'in', [...ACTIVE_RUN_STATUSES])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirst();
    },

    async listActive(): Promise<ManualRunRow[]> {
      return db
        .selectFrom('e2e_manual_runs')
        .selectAll()
        .where('status', 'in', [...ACTIVE_RUN_STATUSES])
        .orderBy('id')
        .execute();
    },

    async list(options: {
      appId?: number;
      limit: number;
      offset: number;
    }): Promise<{ rows: ManualRunRow[]; total: number }> {
      let rowsQuery = db.selectFrom('e2e_manual_runs').selectAll();
      let countQuery = db.selectFrom('e2e_manual_runs').select((eb) => eb.fn.countAll().as('total'));
      if (options.appId !== undefined) {
        rowsQuery = rowsQuery.where('app_id', '=', options.appId);
        countQuery = countQuery.where('app_id', '=', options.appId);
      }
      const [rows, count] = await Promise.all([
        rowsQuery
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(options.limit)
          .offset(options.offset)
          .execute(),
        countQuery.executeTakeFirstOrThrow(),
      ]);
      return { rows, total: toCount(count.total) };
    },

    async create(input: ManualRunInsert): Promise<ManualRunRow> {
      const now = nowIso();
      return db
        .insertInto('e2e_manual_runs')
        .values({
          app_id: input.appId,
          pipeline_id: input.pipelineId,
          pipeline_number: input.pipelineNumber,
          status: input.status,
          url: input.url,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async updateStatus(id: number, status: string): Promise<void> {
      await db
        .updateTable('e2e_manual_runs')
        .set({ status, updated_at: nowIso() })
        .where('id', '=', id)
        .execute();
    },
  };
}

export type ManualRunsRepository = ReturnType<typeof createManualRunsRepository>;
