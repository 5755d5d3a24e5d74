import { Link } from '../lib/router';
import { INTEGRATIONS, unconfigured, useServiceStatus } from '../lib/useStatus';

/**
 * The Overview's reminder while the basics are missing. The report is built from the test-results
 * service, so without its key (CYPRESS_API_KEY) every figure would be an empty 0%: that is the
 * basic this banner waits for. Other missing integrations are named in the same line; once the
 * test results are set up the banner goes, and the Status page keeps the full list.
 */
export function SetupBanner() {
  const status = useServiceStatus();
  const cypress = status.data?.integrations.cypress;
  if (!status.data || !cypress || cypress.configured) return null;
  const others = unconfigured(status.data).filter((name) => name !== 'cypress');
  return (
    <div className="alert alert-info setup-banner" role="status" data-testid="setup-banner">
      <strong>Finish the setup.</strong> The report has no data until the test-results key is set (
      {cypress.missing.map((name) => (
        <code key={name}>{name}</code>
      ))}
      ).
      {others.length > 0 && (
        <> Also not set up: {others.map((name) => INTEGRATIONS[name].label).join(', ')}.</>
      )}{' '}
      <Link to="/status">Open the Status page</Link>
    </div>
  );
}
