import type { JiraClient } from '../../integrations/jira/jira-client.js';
import { describeFailure } from '../../integrations/call-outcomes.js';
import type { NotificationInput, NotificationSink } from '../notifications/notification-sink.js';
import type { QuarantineRepository, QuarantineRow } from './quarantine.repository.js';
import type { LiftedReason, ReviewResult } from './quarantine.schema.js';

export interface QuarantineReviewDeps {
  repository: QuarantineRepository;
  /** Undefined when Jira is not configured: ticketed quarantines then wait for their expiry. */
  jira: Pick<JiraClient, 'statusCategory'> | undefined;
  /** Variables whose absence leaves Jira unconfigured (named in the result). */
  missingJiraVariables: readonly string[];
  notify: NotificationSink;
  clock: () => number;
  /** Secrets kept out of the error text of the result. */
  secrets?: readonly (string | undefined)[];
}

type Lifted = ReviewResult['lifted'][number];

function liftNotification(lift: Lifted): NotificationInput {
  const ticket = lift.ticketKey ?? 'no ticket';
  const because =
    lift.liftedReason === 'ticket_done' ? `${ticket} is done` : `its quarantine expired (ticket: ${ticket})`;
  return {
    type: 'info',
    title: `Quarantine lifted: ${lift.spec} (${lift.appName})`,
    message: `${lift.spec} of ${lift.appName} is no longer a known failure: ${because}. Its failures alert again.`,
    data: {
      quarantineId: lift.id,
      appId: lift.appId,
      appName: lift.appName,
      spec: lift.spec,
      ticketKey: lift.ticketKey,
      liftedReason: lift.liftedReason,
    },
  };
}

/**
 * The review behind the `quarantine-review` job: lifts every active quarantine that expired and
 * every one whose ticket's status category is `done`, one `info` notification per lift. When
 * Jira fails, the quarantines it could not check stay as they are (the next run tries again) and
 * the failure is in the result; the Jira client has already recorded it for `/api/status`.
 */
export function createQuarantineReview(deps: QuarantineReviewDeps) {
  return async function review(): Promise<ReviewResult> {
    const now = deps.clock();
    const active = await deps.repository.listActive();
    const due: { row: QuarantineRow; reason: LiftedReason }[] = [];
    const waiting: QuarantineRow[] = [];
    for (const row of active) {
      if (row.expires_at !== null && Date.parse(row.expires_at) <= now) due.push({ row, reason: 'expired' });
      else if (row.ticket_key !== null) waiting.push(row);
    }

    let trackerError: string | null = null;
    let unchecked = 0;
    if (waiting.length > 0 && !deps.jira) {
      trackerError = `Jira is not configured (missing ${deps.missingJiraVariables.join(', ')})`;
      unchecked = waiting.length;
    } else if (deps.jira) {
      // Several quarantines may wait on one ticket: ask Jira once per ticket.
      const categories = new Map<string, string | null>();
      for (const row of waiting) {
        const key = row.ticket_key!;
        if (trackerError === null && !categories.has(key)) {
          try {
            categories.set(key, await deps.jira.statusCategory(key));
          } catch (error) {
            // One failure usually means Jira is down: leave the rest for the next run.
            trackerError = describeFailure(error, deps.secrets);
          }
        }
        if (!categories.has(key)) unchecked += 1;
        else if (categories.get(key) === 'done') due.push({ row, reason: 'ticket_done' });
      }
    }

    const names = await deps.repository.appNames([...new Set(due.map(({ row }) => row.app_id))]);
    const lifted: Lifted[] = [];
    for (const { row, reason } of due) {
      // A lift done meanwhile by hand or by another review is not reported twice.
      if (!(await deps.repository.lift(row.id, new Date(deps.clock()).toISOString(), reason))) continue;
      const lift: Lifted = {
        id: row.id,
        appId: row.app_id,
        appName: names.get(row.app_id) ?? `App ${row.app_id}`,
        spec: row.spec,
        ticketKey: row.ticket_key,
        liftedReason: reason,
      };
      lifted.push(lift);
      await deps.notify(liftNotification(lift));
    }
    return { lifted, unchecked, trackerError };
  };
}

export type QuarantineReview = ReturnType<typeof createQuarantineReview>;
