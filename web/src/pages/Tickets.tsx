import type { TicketList } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { EmptyState, ErrorMessage, Spinner, StatusBadge } from '../components/ui';
import { usePageTitle } from '../lib/router';
import { formatDateTime, fromNow } from '../lib/time';
import { useAsync } from '../lib/useAsync';
import { NotSetUp } from '../components/NotSetUp';
import { useServiceStatus } from '../lib/useStatus';

/** The variable only the manual QA query needs; without it "My tickets" still works. */
const MANUAL_QA_PROJECT = 'JIRA_MANUAL_QA_PROJECT';

interface SectionProps {
  id: string;
  title: string;
  list: 'manualQa' | 'myTickets';
  empty: string;
}

/** A section whose query cannot run yet: the variables to set, in place of the tickets. */
function UnconfiguredSection({ id, title, missing }: SectionProps & { missing: string[] }) {
  return (
    <section className="panel" aria-labelledby={id}>
      <div className="panel-header">
        <h2 id={id}>{title}</h2>
      </div>
      <NotSetUp what="The tracker" missing={missing} />
    </section>
  );
}

function TicketSection({ id, title, list, empty }: SectionProps) {
  const client = useClient();
  const tickets = useAsync<TicketList>(async () => (await client.tracker[list]()).data, [client, list]);
  return (
    <section className="panel" aria-labelledby={id}>
      <div className="panel-header">
        <h2 id={id}>
          {title}
          {tickets.data && <span className="count count-neutral">{tickets.data.total}</span>}
        </h2>
        <button
          type="button"
          className="button button-small"
          onClick={tickets.reload}
          disabled={tickets.loading}
        >
          Refresh<span className="sr-only"> {title}</span>
        </button>
      </div>
      {tickets.loading && !tickets.data && <Spinner label="Asking the tracker…" />}
      <ErrorMessage error={tickets.error} onRetry={tickets.reload} />
      {tickets.data && tickets.data.issues.length === 0 && <EmptyState title={empty} />}
      {tickets.data && tickets.data.issues.length > 0 && (
        <ul className="list">
          {tickets.data.issues.map((ticket) => (
            <li key={ticket.id} className="list-item">
              <div className="list-main">
                <a href={ticket.url} target="_blank" rel="noopener noreferrer">
                  <span className="ticket-key">{ticket.key}</span> {ticket.summary}
                </a>
                <span className="muted small block">
                  {ticket.priority !== 'None' && <>{ticket.priority} priority · </>}
                  {ticket.assignee} · updated{' '}
                  <time dateTime={ticket.updated} title={formatDateTime(ticket.updated)}>
                    {fromNow(ticket.updated)}
                  </time>
                  {ticket.parent && <> · part of {ticket.parent.key}</>}
                </span>
                {ticket.labels.length > 0 && (
                  <span className="labels">
                    {ticket.labels.map((label) => (
                      <span key={label} className="label">
                        {label}
                      </span>
                    ))}
                  </span>
                )}
              </div>
              <StatusBadge status={ticket.status} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Asks the tracker only once the status says it can answer; until then shows what to set up. */
function Section(props: SectionProps & { missing: string[] | undefined }) {
  const { missing, ...section } = props;
  if (missing === undefined) return <Spinner label="Checking the tracker set-up…" />;
  const needed = section.list === 'manualQa' ? missing : missing.filter((name) => name !== MANUAL_QA_PROJECT);
  if (needed.length > 0) return <UnconfiguredSection {...section} missing={needed} />;
  return <TicketSection {...section} />;
}

export function TicketsPage() {
  usePageTitle('Tickets');
  const status = useServiceStatus();
  // A status that cannot be read must not hide the tickets: then the queries run and speak for themselves.
  const missing = status.data ? status.data.integrations.jira.missing : status.error ? [] : undefined;
  return (
    <>
      <div className="page-header">
        <h1 id="page-title" tabIndex={-1}>
          Tickets
        </h1>
      </div>
      <div className="columns">
        <Section
          missing={missing}
          id="manual-qa"
          title="Waiting for manual QA"
          list="manualQa"
          empty="No ticket waits for manual testing."
        />
        <Section
          missing={missing}
          id="my-tickets"
          title="My tickets"
          list="myTickets"
          empty="No unresolved ticket is assigned to the tracker account."
        />
      </div>
    </>
  );
}
