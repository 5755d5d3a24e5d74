import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { IntegrationStatusTable } from '../../db/schema.js';

export type IntegrationStatusRow = Selectable<IntegrationStatusTable>;

export function createIntegrationStatusRepository(db: Db) {
  return {
    async list(): Promise<IntegrationStatusRow[]> {
      return db.selectFrom('integration_status').selectAll().execute();
    },

    /** A success also clears the last error: it is the failure since the last success. */
    async recordSuccess(name: string, at: string): Promise<void> {
      await db
        .insertInto('integration_status')
        .values({ name, last_success_at: at, last_error: null, last_error_at: null, updated_at: at })
        .onConflict((conflict) =>
          conflict
            .column('name')
            .doUpdateSet({ last_success_at: at, last_error: null, last_error_at: null, updated_at: at }),
        )
        .execute();
    },

    async recordFailure(name: string, message: string, at: string): Promise<void> {
      await db
        .insertInto('integration_status')
        .values({ name, last_success_at: null, last_error: message, last_error_at: at, updated_at: at })
        .onConflict((conflict) =>
          conflict.column('name').doUpdateSet({ last_error: message, last_error_at: at, updated_at: at }),
        )
        .execute();
    },
  };
}

export type IntegrationStatusRepository = ReturnType<typeof createIntegrationStatusRepository>;
