import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { WebhookDeliveriesTable, WebhookJobsTable } from '../../db/schema.js';
import { DELIVERY_LOG_SIZE } from './webhooks.schema.js';

export type WebhookJobRow = Selectable<WebhookJobsTable>;
export type WebhookAttemptRow = Selectable<WebhookDeliveriesTable>;

export interface NewWebhookJob {
  webhookId: number;
  notificationId: number | null;
  deliveryId: string;
  eventType: string;
  payload: string;
}

export interface AttemptRecord {
  webhookId: number;
  notificationId: number | null;
  deliveryId: string;
  attempt: number;
  status: number | null;
  error: string | null;
  durationMs: number;
  at: string;
}

export interface ClaimLimits {
  max: number;
  leaseMs: number;
  /** Most jobs of one webhook the claiming process sends at once. */
  perWebhook: number;
  /** Jobs per webhook id the claiming process is sending now. */
  busy: ReadonlyMap<number, number>;
}

const iso = (ms: number) => new Date(ms).toISOString();
const fullWebhooks = (limits: Pick<ClaimLimits, 'perWebhook' | 'busy'>) =>
  [...limits.busy].filter(([, count]) => count >= limits.perWebhook).map(([id]) => id);

/**
 * Deliveries still to be made and the log of attempts. A job is claimed by writing a lease
 * (`claimed_until`) with a conditional update: of several processes racing for one job, exactly
 * one update matches, on SQLite and PostgreSQL alike. A process that dies holding a lease only
 * delays the job until the lease runs out.
 */
export function createWebhookJobsRepository(db: Db) {
  return {
    async enqueue(jobs: NewWebhookJob[], nowMs = Date.now()): Promise<void> {
      if (jobs.length === 0) return;
      const now = iso(nowMs);
      await db
        .insertInto('webhook_jobs')
        .values(
          jobs.map((job) => ({
            webhook_id: job.webhookId,
            notification_id: job.notificationId,
            delivery_id: job.deliveryId,
            event_type: job.eventType,
            payload: job.payload,
            attempts: 0,
            next_attempt_at: now,
            claimed_until: null,
            created_at: now,
          })),
        )
        .execute();
    },

    /**
     * Claims due jobs for `leaseMs`, at most `max`, and no more per webhook than `perWebhook`
     * counting the ones the caller is already sending (`busy`), so that one receiver that hangs
     * cannot take every slot of a process. Returns the jobs this caller won.
     */
    async claimDue(limits: ClaimLimits, nowMs = Date.now()): Promise<WebhookJobRow[]> {
      if (limits.max <= 0) return [];
      const now = iso(nowMs);
      const full = fullWebhooks(limits);
      let query = db
        .selectFrom('webhook_jobs')
        .selectAll()
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]));
      if (full.length > 0) query = query.where('webhook_id', 'not in', full);
      const candidates = await query
        .orderBy('next_attempt_at', 'asc')
        .orderBy('id', 'asc')
        .limit(limits.max * 4)
        .execute();
      const claimed: WebhookJobRow[] = [];
      const taken = new Map(limits.busy);
      const leaseUntil = iso(nowMs + limits.leaseMs);
      for (const job of candidates) {
        if (claimed.length >= limits.max) break;
        if ((taken.get(job.webhook_id) ?? 0) >= limits.perWebhook) continue;
        const result = await db
          .updateTable('webhook_jobs')
          .set({ claimed_until: leaseUntil })
          .where('id', '=', job.id)
          .where('next_attempt_at', '<=', now)
          .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 1) {
          claimed.push({ ...job, claimed_until: leaseUntil });
          taken.set(job.webhook_id, (taken.get(job.webhook_id) ?? 0) + 1);
        }
      }
      return claimed;
    },

    /** When the earliest unclaimed job of a webhook with room falls due (ms since the epoch). */
    async nextDueAt(limits: Pick<ClaimLimits, 'perWebhook' | 'busy'>): Promise<number | undefined> {
      const full = fullWebhooks(limits);
      let query = db
        .selectFrom('webhook_jobs')
        .select((eb) => eb.fn.min('next_attempt_at').as('next'))
        .where('claimed_until', 'is', null);
      if (full.length > 0) query = query.where('webhook_id', 'not in', full);
      const row = await query.executeTakeFirst();
      return row?.next ? Date.parse(row.next) : undefined;
    },

    async complete(id: number): Promise<void> {
      await db.deleteFrom('webhook_jobs').where('id', '=', id).execute();
    },

    async reschedule(id: number, attempts: number, nextAttemptAtMs: number): Promise<void> {
      await db
        .updateTable('webhook_jobs')
        .set({ attempts, next_attempt_at: iso(nextAttemptAtMs), claimed_until: null })
        .where('id', '=', id)
        .execute();
    },

    /** Logs one attempt and keeps only the newest DELIVERY_LOG_SIZE attempts of that webhook. */
    async recordAttempt(record: AttemptRecord): Promise<void> {
      await db
        .insertInto('webhook_deliveries')
        .values({
          webhook_id: record.webhookId,
          notification_id: record.notificationId,
          delivery_id: record.deliveryId,
          attempt: record.attempt,
          status: record.status,
          error: record.error,
          duration_ms: record.durationMs,
          at: record.at,
        })
        .execute();
      const cutoff = await db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('webhook_id', '=', record.webhookId)
        .orderBy('id', 'desc')
        .limit(1)
        .offset(DELIVERY_LOG_SIZE)
        .executeTakeFirst();
      if (cutoff) {
        await db
          .deleteFrom('webhook_deliveries')
          .where('webhook_id', '=', record.webhookId)
          .where('id', '<=', cutoff.id)
          .execute();
      }
    },

    async recentAttempts(webhookId: number): Promise<WebhookAttemptRow[]> {
      return db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('webhook_id', '=', webhookId)
        .orderBy('id', 'desc')
        .limit(DELIVERY_LOG_SIZE)
        .execute();
    },
  };
}

export type WebhookJobsRepository = ReturnType<typeof createWebhookJobsRepository>;
