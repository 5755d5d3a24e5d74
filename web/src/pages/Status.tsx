import { DataTable } from '../components/DataTable';
import { ErrorMessage, Spinner, StatusBadge } from '../components/ui';
import { usePageTitle } from '../lib/router';
import {
  INTEGRATIONS,
  type IntegrationName,
  type ServiceStatus,
  unconfigured,
  useServiceStatus,
} from '../lib/useStatus';
import { ResultSources, UploadsByApp, When } from './StatusSources';

const JOB_LABELS: Record<string, string> = {
  'e2e-report': 'Daily E2E report',
  'pr-management': 'Pull request check',
  'manual-tickets-reminder': 'Manual testing reminder',
  'delete-completed-todos': 'Clear completed to-dos',
};

function Integrations({ status }: { status: ServiceStatus }) {
  return (
    <DataTable caption="Integrations" columns={['Integration', 'State', 'Last success', 'Last error']}>
      {(Object.keys(INTEGRATIONS) as IntegrationName[]).map((name) => {
        const integration = status.integrations[name];
        const { label, purpose } = INTEGRATIONS[name];
        return (
          <tr key={name} data-integration={name}>
            <th scope="row" data-label="Integration">
              {label}
              <span className="muted small block">For {purpose}</span>
            </th>
            <td data-label="State">
              {integration.configured ? (
                <StatusBadge status="ready" label="set up" />
              ) : (
                <>
                  <StatusBadge status="canceled" label="not set up" />
                  <span className="small block">
                    Set{' '}
                    {integration.missing.map((variable, index) => (
                      <span key={variable}>
                        {index > 0 && ', '}
                        <code>{variable}</code>
                      </span>
                    ))}
                  </span>
                </>
              )}
            </td>
            <td data-label="Last success">
              <When at={integration.lastSuccessAt} />
            </td>
            <td data-label="Last error">
              {integration.lastError ? (
                <span className="text-bad">{integration.lastError}</span>
              ) : (
                <span className="muted">None</span>
              )}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}

function Jobs({ status }: { status: ServiceStatus }) {
  return (
    <DataTable caption="Scheduled jobs" columns={['Job', 'Schedule', 'Next run', 'Last run']}>
      {status.jobs.map((job) => (
        <tr key={job.name}>
          <th scope="row" data-label="Job">
            {JOB_LABELS[job.name] ?? job.name}
            <span className="muted small block">{job.description}</span>
          </th>
          <td data-label="Schedule">
            <code>{job.schedule}</code> <span className="muted small">({job.timezone})</span>
          </td>
          <td data-label="Next run">
            {job.nextRun ? <When at={job.nextRun} /> : <span className="muted">not scheduled here</span>}
          </td>
          <td data-label="Last run">
            {job.lastResult && <StatusBadge status={job.lastResult} />} <When at={job.lastRun} />
            {job.lastError && <span className="text-bad small block">{job.lastError}</span>}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/** What is set up, what still needs a variable, and whether the jobs run: the first stop of a new install. */
export function StatusPage() {
  usePageTitle('Status');
  const status = useServiceStatus();
  const missing = unconfigured(status.data);
  return (
    <>
      <div className="page-header">
        <h1 id="page-title" tabIndex={-1}>
          Status
        </h1>
        <button type="button" className="button" onClick={status.reload} disabled={status.loading}>
          Refresh
        </button>
      </div>
      {status.loading && !status.data && <Spinner />}
      <ErrorMessage error={status.error} onRetry={status.reload} />
      {status.data && (
        <>
          <p className={missing.length ? 'alert alert-info' : 'muted'} role="status">
            {missing.length === 0
              ? 'Every integration is set up.'
              : `${missing.length} of ${Object.keys(INTEGRATIONS).length} integrations are not set up yet. Each needs the environment variables shown below; the rest of the dashboard works without them.`}
          </p>
          <dl className="facts status-facts">
            <div>
              <dt>Version</dt>
              <dd>{status.data.version}</dd>
            </div>
            <div>
              <dt>Roles</dt>
              <dd>{status.data.roles.join(', ')}</dd>
            </div>
            <div>
              <dt>Database</dt>
              <dd>{status.data.database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}</dd>
            </div>
            <div>
              <dt>Message broker</dt>
              <dd>
                {status.data.broker.kind === 'redis' ? 'Redis' : 'in-process'}{' '}
                <StatusBadge
                  status={status.data.broker.status === 'ok' ? 'ready' : 'failed'}
                  label={status.data.broker.status}
                />
              </dd>
            </div>
          </dl>
          <section className="panel" aria-labelledby="sources-title">
            <div className="panel-header">
              <h2 id="sources-title">Results sources</h2>
            </div>
            <ResultSources status={status.data} />
          </section>
          {status.data.resultSources.uploads.apps.length > 0 && (
            <section className="panel" aria-labelledby="uploads-title">
              <div className="panel-header">
                <h2 id="uploads-title">Uploads by application</h2>
              </div>
              <UploadsByApp apps={status.data.resultSources.uploads.apps} />
            </section>
          )}
          <section className="panel" aria-labelledby="integrations-title">
            <div className="panel-header">
              <h2 id="integrations-title">Integrations</h2>
            </div>
            <Integrations status={status.data} />
          </section>
          <section className="panel" aria-labelledby="jobs-title">
            <div className="panel-header">
              <h2 id="jobs-title">Scheduled jobs</h2>
            </div>
            <Jobs status={status.data} />
          </section>
        </>
      )}
    </>
  );
}
