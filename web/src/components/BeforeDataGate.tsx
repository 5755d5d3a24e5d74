import { type ReactNode, useState } from 'react';
import type { DashboardClient } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { useAsync } from '../lib/useAsync';
import { formatDate } from '../lib/time';
import { Spinner } from './ui';

/**
 * The first day with a ready report, when `date` has no report of its own and lies before it;
 * undefined otherwise (including when there is no report at all yet: a first start generates).
 */
async function earliestAfter(client: DashboardClient, date: string): Promise<string | undefined> {
  const own = await client.reports.summaries({ from: date, to: date, limit: 1 });
  if (own.data.length > 0) return undefined;
  const ready = await client.reports.summaries({ status: 'ready', limit: 1 });
  const total = ready.pagination?.total ?? ready.data.length;
  if (total === 0) return undefined;
  // Newest first: the last one is the earliest.
  const last = await client.reports.summaries({ status: 'ready', limit: 1, offset: total - 1 });
  const earliest = last.data[0]?.date;
  return earliest && date < earliest ? earliest : undefined;
}

/**
 * Asking for a report generates it. For a past date before the first report that would quietly
 * build an empty report, so the page says there are no test runs before then and offers to
 * generate instead. Today is never held back.
 */
export function BeforeDataGate({
  date,
  today,
  children,
}: {
  date: string;
  today: string;
  children: ReactNode;
}) {
  const client = useClient();
  const [confirmed, setConfirmed] = useState<string>();
  const skip = date === today || confirmed === date;
  const check = useAsync(
    async () => ({ date, earliest: skip ? undefined : await earliestAfter(client, date) }),
    [client, date, skip],
  );
  if (skip) return <>{children}</>;
  // The answer must be about this date: the children would generate the report of a date let through.
  if (check.data?.date !== date) {
    return check.error ? <>{children}</> : <Spinner label="Loading report…" />;
  }
  const earliest = check.data.earliest;
  if (!earliest) return <>{children}</>;
  return (
    <div className="empty before-data" data-testid="before-data">
      <p className="empty-title">No test runs before {formatDate(`${earliest}T00:00:00Z`)}.</p>
      <p className="muted">
        The first report is of {earliest}; a report for {date} would have no runs in it.
      </p>
      <button type="button" className="button" onClick={() => setConfirmed(date)}>
        Generate the report for {formatDate(`${date}T00:00:00Z`)} anyway
      </button>
    </div>
  );
}
