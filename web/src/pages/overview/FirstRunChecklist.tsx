import { useEffect } from 'react';
import type { DashboardClient } from '../../../../src/client/index.js';
import { useClient } from '../../api/client';
import { errorStatus } from '../../api/errors';
import { Link } from '../../lib/router';
import { useAsync } from '../../lib/useAsync';

/** The line that sends a first JUnit file, for the person setting up to copy. */
export const UPLOAD_COMMAND =
  'DASHBOARD_URL=… DASHBOARD_API_KEY=… npx dashboard upload results.xml --app <code> --run <n>';

/** How often an unfinished checklist looks again, so it ticks itself while the person sets up. */
const CHECK_MS = 10_000;

interface Progress {
  cypressKey: boolean;
  uploaded: boolean;
  hasApp: boolean;
  hasReport: boolean;
}

/** Whether one upload exists; a service without the upload endpoint yet (404) has none. */
async function anyUpload(client: DashboardClient): Promise<boolean> {
  try {
    const page = await client.call<{ data: unknown[] }>('GET', '/api/test_results', { query: { limit: 1 } });
    return page.data.length > 0;
  } catch (error) {
    if (errorStatus(error) === 404) return false;
    throw error;
  }
}

async function progress(client: DashboardClient): Promise<Progress> {
  const [status, uploaded, apps, reports] = await Promise.all([
    client.status(),
    anyUpload(client),
    client.apps.list({ limit: 1 }),
    client.reports.summaries({ status: 'ready', limit: 1 }),
  ]);
  return {
    cypressKey: status.data.integrations.cypress.configured,
    uploaded,
    hasApp: apps.data.length > 0,
    // A report of nothing (generated before any result came in) does not count.
    hasReport: (reports.data[0]?.totalRuns ?? 0) > 0,
  };
}

function Step({ done, title, children }: { done: boolean; title: string; children: React.ReactNode }) {
  return (
    <li className={done ? 'checklist-step is-done' : 'checklist-step'} data-done={done}>
      <span className="checklist-mark" aria-hidden="true">
        {done ? '✓' : ''}
      </span>
      <div>
        <strong>
          {title}
          <span className="sr-only">{done ? ' (done)' : ' (to do)'}</span>
        </strong>
        <div className="muted small">{children}</div>
      </div>
    </li>
  );
}

/**
 * The first start's three steps, each ticked as soon as the service has it: a source of test results,
 * an application, a report with runs in it. Gone once all three are done.
 */
export function FirstRunChecklist() {
  const client = useClient();
  const state = useAsync(() => progress(client), [client]);
  const data = state.data;
  const done = data ? (data.cypressKey || data.uploaded) && data.hasApp && data.hasReport : true;

  useEffect(() => {
    if (done) return;
    const timer = window.setInterval(state.reload, CHECK_MS);
    window.addEventListener('focus', state.reload);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('focus', state.reload);
    };
  }, [done, state.reload]);

  if (!data || done) return null;
  return (
    <section className="panel checklist" aria-labelledby="checklist-title" data-testid="first-run-checklist">
      <h2 id="checklist-title">Getting started</h2>
      <ol>
        <Step done={data.cypressKey || data.uploaded} title="1. A source of test results">
          Set the Cypress key (<code>CYPRESS_API_KEY</code>) on the server, or upload a first JUnit file:
          <pre className="copy-line">
            <code>{UPLOAD_COMMAND}</code>
          </pre>
        </Step>
        <Step done={data.hasApp} title="2. The first application">
          <Link to="/apps">Add an application</Link>. Its name must equal the Cypress project&apos;s name;
          uploads name it by its code (<code>--app</code>).
        </Step>
        <Step done={data.hasReport} title="3. The first report">
          The daily report is generated from the results of the last 14 days; it appears here once the first
          results of an application are in.
        </Step>
      </ol>
    </section>
  );
}
