import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { isStorableId, toCount } from '../../db/errors.js';
import type { WebhooksTable } from '../../db/schema.js';
import { nowIso } from '../../shared/time.js';
import type { NotificationType } from '../notifications/notification-sink.js';
import type { WebhookKind } from './webhooks.schema.js';

export type WebhookRow = Selectable<WebhooksTable>;

export interface WebhookWrite {
  name: string | null;
  kind: WebhookKind;
  url: string;
  secret: string | null;
  types: NotificationType[];
}

export interface DeliveryOutcome {
  at: string;
  status: number | null;
  error: string | null;
}

/** The stored webhook targets (the secret and full URL stay inside the service). */
export function createWebhooksRepository(db: Db) {
  async function findById(id: number): Promise<WebhookRow | undefined> {
    if (!isStorableId(id)) return undefined;
    return db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  return {
    findById,

    async list(limit: number, offset: number) {
      const [rows, count] = await Promise.all([
        db.selectFrom('webhooks').selectAll().orderBy('id', 'asc').limit(limit).offset(offset).execute(),
        db
          .selectFrom('webhooks')
          .select((eb) => eb.fn.countAll().as('total'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: toCount(count.total) };
    },

    /** Every webhook; the set is small (configured by hand), read once per notification. */
    async all(): Promise<WebhookRow[]> {
      return db.selectFrom('webhooks').selectAll().orderBy('id', 'asc').execute();
    },

    async create(input: WebhookWrite): Promise<WebhookRow> {
      const now = nowIso();
      return db
        .insertInto('webhooks')
        .values({ ...input, types: JSON.stringify(input.types), created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async update(id: number, patch: Partial<WebhookWrite>): Promise<WebhookRow | undefined> {
      if (!isStorableId(id)) return undefined;
      const { types, ...rest } = patch;
      return db
        .updateTable('webhooks')
        .set({ ...rest, ...(types ? { types: JSON.stringify(types) } : {}), updated_at: nowIso() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },

    /** Removes the webhook with its pending deliveries and its attempt log. */
    async delete(id: number): Promise<boolean> {
      if (!isStorableId(id)) return false;
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom('webhook_jobs').where('webhook_id', '=', id).execute();
        await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
        const result = await trx.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      });
    },

    /** Stores the latest outcome; false when the webhook was deleted meanwhile. */
    async recordOutcome(id: number, outcome: DeliveryOutcome): Promise<boolean> {
      const result = await db
        .updateTable('webhooks')
        .set({ last_delivery_at: outcome.at, last_status: outcome.status, last_error: outcome.error })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
