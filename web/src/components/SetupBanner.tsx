import { usePolling } from '../lib/freshness';
import { Link } from '../lib/router';
import { INTEGRATIONS, unconfigured, useServiceStatus } from '../lib/useStatus';

/** While the banner shows, how often it looks again (a first upload may arrive any moment). */
const RECHECK_MS = 10_000;

/**
 * The Overview's reminder while the basics are missing. The report is built from test results,
 * which come from the Cypress Cloud export (its key, CYPRESS_API_KEY) or from files uploaded by CI
 * jobs: without either every figure would be an empty 0%, and that is what this banner waits for.
 * Other missing integrations are named in the same line; once results come from either source the
 * banner goes, and the Status page keeps the full list.
 */
export function SetupBanner() {
  const status = useServiceStatus();
  const cypress = status.data?.integrations.cypress;
  const uploaded = (status.data?.resultSources.uploads.apps.length ?? 0) > 0;
  const shown = status.data !== undefined && cypress !== undefined && !cypress.configured && !uploaded;
  usePolling(status.reload, shown ? RECHECK_MS : undefined);
  if (!shown) return null;
  const others = unconfigured(status.data).filter((name) => name !== 'cypress');
  return (
    <div className="alert alert-info setup-banner" role="status" data-testid="setup-banner">
      <span>
        <strong>Finish the setup.</strong> The report has no data until test results arrive: set the Cypress
        key {'('}
        {cypress.missing.map((name) => (
          <code key={name}>{name}</code>
        ))}
        {') '}
        or upload a result file from CI (<code>dashboard upload</code>).
        {others.length > 0 && (
          <> Also not set up: {others.map((name) => INTEGRATIONS[name].label).join(', ')}.</>
        )}{' '}
        <Link to="/status">Open the Status page</Link>
      </span>
    </div>
  );
}
