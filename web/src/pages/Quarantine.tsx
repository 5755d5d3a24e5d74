import type { DashboardClient, Quarantine } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { ConfirmDeleteDialog } from '../components/ConfirmDeleteDialog';
import { EmptyState, ErrorMessage, Spinner } from '../components/ui';
import { Link, usePageTitle } from '../lib/router';
import { formatDateTime, todayUtc } from '../lib/time';
import { useAsync } from '../lib/useAsync';
import { useConfirmedDelete } from '../lib/useConfirmedDelete';
import { useShell } from '../shell';
import { appReportPath } from './insight/links';
import { useCanChange } from '../lib/access';

const LIFTED_BECAUSE: Record<string, string> = {
  manual: 'Lifted by hand',
  ticket_done: 'Ticket done',
  expired: 'Expired',
};

/** The newest 100 of each list (the API's largest page). */
async function loadQuarantines(client: DashboardClient) {
  const [active, lifted, apps] = await Promise.all([
    client.quarantine.list({ active: true, limit: 100 }),
    client.quarantine.list({ active: false, limit: 100 }),
    client.apps.listAll(),
  ]);
  return {
    active: active.data,
    lifted: lifted.data,
    appNames: new Map(apps.map((app) => [app.id, app.name])),
  };
}

function QuarantineTable({
  items,
  appNames,
  caption,
  onLift,
}: {
  items: Quarantine[];
  appNames: Map<number, string>;
  caption: string;
  onLift?: (item: Quarantine) => void;
}) {
  const today = todayUtc();
  const canLift = useCanChange() && onLift !== undefined;
  return (
    <div className="table-wrap">
      <table className="table responsive">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Spec</th>
            <th scope="col">Application</th>
            <th scope="col">Reason</th>
            <th scope="col">Ticket</th>
            <th scope="col">{onLift ? 'Expires' : 'Lifted'}</th>
            {canLift && (
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id} data-testid={`quarantine-${item.id}`}>
              <th scope="row" data-label="Spec">
                <code className="spec-name">{item.spec}</code>
              </th>
              <td data-label="Application">
                <Link to={appReportPath(item.appId, today)}>
                  {appNames.get(item.appId) ?? `App ${item.appId}`}
                </Link>
              </td>
              <td data-label="Reason">{item.reason}</td>
              <td data-label="Ticket">{item.ticketKey ?? <span className="muted">None</span>}</td>
              {onLift ? (
                <td data-label="Expires">{item.expiresAt ? formatDateTime(item.expiresAt) : 'Never'}</td>
              ) : (
                <td data-label="Lifted">
                  {LIFTED_BECAUSE[item.liftedReason ?? ''] ?? 'Lifted'}{' '}
                  <span className="muted small">{formatDateTime(item.liftedAt)}</span>
                </td>
              )}
              {canLift && onLift && (
                <td className="actions-cell">
                  <div className="actions">
                    <button
                      type="button"
                      className="button button-small"
                      aria-label={`Lift the quarantine of ${item.spec}`}
                      onClick={() => onLift(item)}
                    >
                      Lift
                    </button>
                  </div>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** `/quarantine`: known failures still set aside, and those lifted (by hand, by their ticket, by expiry). */
export function QuarantinePage() {
  usePageTitle('Quarantine');
  const client = useClient();
  const { notify } = useShell();
  const state = useAsync(() => loadQuarantines(client), [client]);
  const lifting = useConfirmedDelete<Quarantine>(
    (item) => client.quarantine.lift(item.id),
    (item) => {
      notify(`${item.spec} alerts again.`);
      state.reload();
    },
  );
  const { data } = state;
  return (
    <>
      <div className="page-header">
        <div>
          <h1 id="page-title" tabIndex={-1}>
            Quarantine
          </h1>
          <p className="muted">
            Known failures stay in the figures but not in the daily alert. Quarantine a failing spec from its
            application report.
          </p>
        </div>
      </div>
      {state.loading && !data && <Spinner label="Loading the quarantine…" />}
      {Boolean(state.error) && <ErrorMessage error={state.error} onRetry={state.reload} />}
      {data && (
        <>
          <section className="panel" aria-labelledby="active-quarantines" data-testid="active-quarantines">
            <div className="panel-header">
              <h2 id="active-quarantines">
                Active <span className="change-count">{data.active.length}</span>
              </h2>
            </div>
            {data.active.length === 0 ? (
              <EmptyState title="No known failures.">Every failing spec is alerted about.</EmptyState>
            ) : (
              <QuarantineTable
                items={data.active}
                appNames={data.appNames}
                caption="Active quarantines, newest first"
                onLift={lifting.ask}
              />
            )}
          </section>
          <section className="panel" aria-labelledby="lifted-quarantines" data-testid="lifted-quarantines">
            <div className="panel-header">
              <h2 id="lifted-quarantines">
                Lifted <span className="change-count">{data.lifted.length}</span>
              </h2>
            </div>
            {data.lifted.length === 0 ? (
              <p className="muted">None lifted yet.</p>
            ) : (
              <QuarantineTable
                items={data.lifted}
                appNames={data.appNames}
                caption="Lifted quarantines, newest first"
              />
            )}
          </section>
        </>
      )}
      <ConfirmDeleteDialog
        deletion={lifting}
        title="Lift the quarantine?"
        message={(item) => `${item.spec} will be alerted about again when it fails.`}
        confirmLabel="Lift"
      />
    </>
  );
}
