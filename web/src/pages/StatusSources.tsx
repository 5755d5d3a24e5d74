import type { ServiceStatus } from '../../../src/client/index.js';
import { DataTable } from '../components/DataTable';
import { StatusBadge } from '../components/ui';
import { Link } from '../lib/router';
import { formatDateTime, fromNow } from '../lib/time';

const FORMAT_LABELS: Record<string, string> = {
  junit: 'JUnit XML',
  playwright: 'Playwright JSON',
  mochawesome: 'Mochawesome JSON',
};

/** A moment as "5 minutes ago", the full time on hover; "never" when there is none. */
export function When({ at }: { at: string | null }) {
  if (!at) return <span className="muted">never</span>;
  return (
    <time dateTime={at} title={formatDateTime(at)}>
      {fromNow(at)}
    </time>
  );
}

/**
 * Where the test results come from: the Cypress Cloud export (read for the applications that upload
 * nothing) and the files CI jobs upload, with each uploading application's last upload.
 */
export function ResultSources({ status }: { status: ServiceStatus }) {
  const { cypress, uploads } = status.resultSources;
  return (
    <DataTable caption="Results sources" columns={['Source', 'State', 'Last received']}>
      <tr data-source="cypress">
        <th scope="row" data-label="Source">
          Cypress Cloud export
          <span className="muted small block">Read for the applications that upload no results</span>
        </th>
        <td data-label="State">
          {cypress.configured ? (
            <StatusBadge status="ready" label="set up" />
          ) : (
            <>
              <StatusBadge status="canceled" label="not set up" />
              <span className="small block">
                Set <code>CYPRESS_API_KEY</code>
              </span>
            </>
          )}
          {/* Without the key its failures are expected; the Integrations table still lists them. */}
          {cypress.configured && cypress.lastError && (
            <span className="text-bad small block">{cypress.lastError}</span>
          )}
        </td>
        <td data-label="Last received">
          <When at={cypress.lastSuccessAt} />
        </td>
      </tr>
      <tr data-source="uploads">
        <th scope="row" data-label="Source">
          Uploads from CI
          <span className="muted small block">
            <code>dashboard upload</code> or <code>POST /api/test_results</code>
          </span>
        </th>
        <td data-label="State">
          {uploads.apps.length > 0 ? (
            <StatusBadge
              status="ready"
              label={`${uploads.apps.length} application${uploads.apps.length === 1 ? '' : 's'}`}
            />
          ) : (
            <span className="muted">No upload yet</span>
          )}
        </td>
        <td data-label="Last received">
          <When at={uploads.apps[0]?.lastUploadAt ?? null} />
        </td>
      </tr>
    </DataTable>
  );
}

/** Each application that uploads its results, newest upload first: format, time and run. */
export function UploadsByApp({ apps }: { apps: ServiceStatus['resultSources']['uploads']['apps'] }) {
  return (
    <DataTable
      caption="Uploads by application, newest first"
      columns={['Application', 'Format', 'Last upload', 'Run']}
    >
      {apps.map((app) => (
        <tr key={app.appId} data-upload-app={app.appCode}>
          <th scope="row" data-label="Application">
            <Link to={`/apps/${app.appId}/report`}>{app.appName}</Link>
            <span className="muted small block">{app.appCode}</span>
          </th>
          <td data-label="Format">{FORMAT_LABELS[app.format] ?? app.format}</td>
          <td data-label="Last upload">
            <When at={app.lastUploadAt} />
          </td>
          <td data-label="Run">#{app.runNumber}</td>
        </tr>
      ))}
    </DataTable>
  );
}
