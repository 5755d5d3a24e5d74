import type { Webhook } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { DataTable } from '../components/DataTable';
import { EmptyState, ErrorMessage, Spinner, StatusBadge } from '../components/ui';
import { formatDateTime, formatTime } from '../lib/time';
import { useAsync } from '../lib/useAsync';

/** The last 50 attempts of one webhook, newest first, as the API keeps them. */
export function DeliveriesList({ webhook }: { webhook: Webhook }) {
  const client = useClient();
  const deliveries = useAsync(
    async () => (await client.webhooks.deliveries(webhook.id)).data,
    [client, webhook],
  );

  if (deliveries.loading && !deliveries.data) return <Spinner />;
  if (deliveries.error) return <ErrorMessage error={deliveries.error} onRetry={deliveries.reload} />;
  const list = deliveries.data ?? [];
  if (list.length === 0) {
    return (
      <EmptyState title="Nothing sent yet.">
        Send a test message, or wait for the next notification.
      </EmptyState>
    );
  }
  return (
    <DataTable
      caption={<>Recent deliveries of {webhook.name ?? webhook.url}</>}
      columns={['When', 'Notification', 'Attempt', 'Result', 'Time']}
    >
      {list.map((entry) => {
        const delivered = entry.status !== null && entry.status >= 200 && entry.status < 300;
        return (
          <tr key={entry.id} className={delivered ? undefined : 'row-bad'}>
            <td data-label="When">
              <time dateTime={entry.at} title={formatDateTime(entry.at)}>
                {formatTime(entry.at)}
              </time>
            </td>
            <td data-label="Notification">
              {entry.notificationId === null ? 'Test message' : `#${entry.notificationId}`}
            </td>
            <td data-label="Attempt">{entry.attempt}</td>
            <td data-label="Result">
              <StatusBadge
                status={delivered ? 'success' : 'failed'}
                label={entry.status === null ? 'no answer' : `HTTP ${entry.status}`}
              />
              {entry.error && entry.status === null && <span className="small block">{entry.error}</span>}
            </td>
            <td data-label="Time">{entry.durationMs} ms</td>
          </tr>
        );
      })}
    </DataTable>
  );
}
