import type { Db } from '../../../db/database.js';
import { isUniqueViolation } from '../../../db/errors.js';

/** What a run's feedback last did, as the run page shows it. */
export interface FeedbackOutcome {
  state: 'posted' | 'skipped' | 'failed';
  message: string;
}

export interface FeedbackRunRow {
  app_id: number;
  run_number: number;
  due_at: string | null;
  attempts: number;
  delivered_digest: string | null;
  outcome: string | null;
  outcome_at: string | null;
}

const parseOutcome = (text: string | null): FeedbackOutcome | null => {
  if (!text) return null;
  try {
    return JSON.parse(text) as FeedbackOutcome;
  } catch {
    return null;
  }
};

/** The SQL of pull-request feedback: due runs and their leases, deliveries, comment ids. */
export function createFeedbackRepository(db: Db) {
  return {
    /** The run's feedback is due at `dueAt` (a later upload moves it; a final one brings it forward). */
    async schedule(appId: number, runNumber: number, dueAt: string, nowIso: string): Promise<void> {
      await db
        .insertInto('pr_feedback_runs')
        .values({ app_id: appId, run_number: runNumber, due_at: dueAt, updated_at: nowIso })
        .onConflict((conflict) =>
          conflict
            .columns(['app_id', 'run_number'])
            .doUpdateSet({ due_at: dueAt, attempts: 0, updated_at: nowIso }),
        )
        .execute();
    },

    /**
     * Claims up to `limit` due runs for this process until `leaseUntil`: each row is taken by one
     * conditional UPDATE, so of several workers exactly one gets it. Its `due_at` is cleared, so an
     * upload arriving meanwhile makes it due again.
     */
    async claimDue(nowIso: string, leaseUntil: string, limit: number): Promise<FeedbackRunRow[]> {
      const due = await db
        .selectFrom('pr_feedback_runs')
        .select(['app_id', 'run_number', 'due_at'])
        .where('due_at', '<=', nowIso)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', nowIso)]))
        .orderBy('due_at')
        .limit(limit)
        .execute();
      const claimed: FeedbackRunRow[] = [];
      for (const row of due) {
        const taken = await db
          .updateTable('pr_feedback_runs')
          .set({ claimed_until: leaseUntil, due_at: null })
          .where('app_id', '=', row.app_id)
          .where('run_number', '=', row.run_number)
          .where('due_at', '=', row.due_at!)
          .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', nowIso)]))
          .returning([
            'app_id',
            'run_number',
            'due_at',
            'attempts',
            'delivered_digest',
            'outcome',
            'outcome_at',
          ])
          .executeTakeFirst();
        if (taken) claimed.push(taken);
      }
      return claimed;
    },

    /** Ends this process's lease with what the delivery did; `retryAt` makes the run due again. */
    async release(
      appId: number,
      runNumber: number,
      result: { outcome: FeedbackOutcome; at: string; digest?: string; retryAt?: string },
    ): Promise<void> {
      await db
        .updateTable('pr_feedback_runs')
        .set((eb) => ({
          claimed_until: null,
          outcome: JSON.stringify(result.outcome),
          outcome_at: result.at,
          updated_at: result.at,
          ...(result.digest !== undefined ? { delivered_digest: result.digest } : {}),
          ...(result.retryAt !== undefined
            ? { due_at: eb.fn.coalesce('due_at', eb.val(result.retryAt)), attempts: eb('attempts', '+', 1) }
            : {}),
        }))
        .where('app_id', '=', appId)
        .where('run_number', '=', runNumber)
        .execute();
    },

    /** True for the one process that may post this verdict version of the run. */
    async claimDelivery(appId: number, runNumber: number, digest: string, nowIso: string): Promise<boolean> {
      try {
        await db
          .insertInto('pr_feedback_deliveries')
          .values({ app_id: appId, run_number: runNumber, digest, claimed_at: nowIso })
          .execute();
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    async finishDelivery(
      appId: number,
      runNumber: number,
      digest: string,
      outcome: FeedbackOutcome,
      at: string,
    ) {
      await db
        .updateTable('pr_feedback_deliveries')
        .set({ posted_at: at, outcome: JSON.stringify(outcome) })
        .where('app_id', '=', appId)
        .where('run_number', '=', runNumber)
        .where('digest', '=', digest)
        .execute();
    },

    /** A delivery that failed gives its version back, so the retry may post it. */
    async dropDelivery(appId: number, runNumber: number, digest: string): Promise<void> {
      await db
        .deleteFrom('pr_feedback_deliveries')
        .where('app_id', '=', appId)
        .where('run_number', '=', runNumber)
        .where('digest', '=', digest)
        .execute();
    },

    async findComment(appId: number, repository: string, pull: number): Promise<number | undefined> {
      const row = await db
        .selectFrom('pr_feedback_comments')
        .select('comment_id')
        .where('app_id', '=', appId)
        .where('repository', '=', repository)
        .where('pull_number', '=', pull)
        .executeTakeFirst();
      return row ? Number(row.comment_id) : undefined;
    },

    async saveComment(appId: number, repository: string, pull: number, commentId: number, nowIso: string) {
      await db
        .insertInto('pr_feedback_comments')
        .values({ app_id: appId, repository, pull_number: pull, comment_id: commentId, updated_at: nowIso })
        .onConflict((conflict) =>
          conflict
            .columns(['app_id', 'repository', 'pull_number'])
            .doUpdateSet({ comment_id: commentId, updated_at: nowIso }),
        )
        .execute();
    },

    async runFeedback(appId: number, runNumber: number) {
      const row = await db
        .selectFrom('pr_feedback_runs')
        .select(['due_at', 'claimed_until', 'outcome', 'outcome_at'])
        .where('app_id', '=', appId)
        .where('run_number', '=', runNumber)
        .executeTakeFirst();
      return row && { ...row, outcome: parseOutcome(row.outcome) };
    },
  };
}

export type FeedbackRepository = ReturnType<typeof createFeedbackRepository>;
