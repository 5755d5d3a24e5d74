import type { FailureGroup } from '../../../../src/client/index.js';
import { useClient } from '../../api/client';
import { ErrorMessage, Spinner } from '../../components/ui';
import { formatDateTime } from '../../lib/time';
import { useAsync } from '../../lib/useAsync';
import './why.css';

/** "Failures by cause": the failed tests of the uploaded runs grouped by their first error line. */
export function FailureGroups({
  summaryId,
  appId,
  version,
}: {
  summaryId: number;
  appId: number;
  /** Changes with each version of the report (a regeneration keeps the summary id). */
  version: string | undefined;
}) {
  const client = useClient();
  const state = useAsync(
    () => client.reports.failureGroups(summaryId, appId).then((body) => body.data),
    [client, summaryId, appId, version],
  );
  const groups: FailureGroup[] = state.data ?? [];
  return (
    <section className="panel" aria-labelledby="failure-groups" data-testid="failure-groups">
      <div className="panel-header">
        <h2 id="failure-groups">
          Failures by cause <span className="change-count">{groups.length}</span>
        </h2>
      </div>
      {state.loading && !state.data && <Spinner label="Grouping the failures…" />}
      {Boolean(state.error) && <ErrorMessage error={state.error} onRetry={state.reload} />}
      {state.data && groups.length === 0 && (
        <p className="muted">No failure text in the window (only uploaded results carry it).</p>
      )}
      {groups.length > 0 && (
        <div className="table-wrap">
          <table className="table responsive">
            <caption className="sr-only">Failures grouped by cause, most failed tests first</caption>
            <thead>
              <tr>
                <th scope="col">Failure</th>
                <th scope="col">Tests</th>
                <th scope="col">Specs</th>
                <th scope="col">Last seen</th>
              </tr>
            </thead>
            <tbody>
              {groups.map((group) => (
                <tr key={group.signature}>
                  <th scope="row" data-label="Failure">
                    <span className="failure-message" title={group.signature}>
                      {group.message}
                    </span>
                  </th>
                  <td data-label="Tests">{group.tests}</td>
                  <td data-label="Specs">
                    {group.specs.map((spec) => (
                      <code key={spec} className="spec-name block">
                        {spec}
                      </code>
                    ))}
                  </td>
                  <td data-label="Last seen">{formatDateTime(group.lastSeenAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
