import type { SpecStat } from '../../../../src/client/index.js';
import { formatDateTime, formatPercent, fromNow } from '../../lib/time';
import { SpecHistory } from './SpecHistory';
import { formatDuration } from './links';

/** A list of an application's specs: each row its recent results and the figures of `columns`. */
export function SpecTable({
  caption,
  specs,
  columns,
  actions,
  why,
}: {
  caption: string;
  specs: SpecStat[];
  columns: 'failing' | 'flaky' | 'slow';
  actions?: (spec: SpecStat) => React.ReactNode;
  /** What is known of why the spec fails, shown under its name. */
  why?: (spec: SpecStat) => React.ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table className="table responsive spec-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Spec</th>
            <th scope="col">Recent results</th>
            {columns === 'failing' && <th scope="col">Failing since</th>}
            {columns === 'failing' && <th scope="col">Last failure by</th>}
            {columns === 'flaky' && <th scope="col">Flaky runs</th>}
            {columns === 'slow' && <th scope="col">Average duration</th>}
            <th scope="col">Failed runs</th>
            <th scope="col">Success rate</th>
            {actions && (
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {specs.map((spec) => (
            <tr key={spec.spec} className={spec.lastStatus === 'failed' ? 'row-bad' : undefined}>
              <th scope="row" data-label="Spec">
                <code className="spec-name">{spec.spec}</code>
                {why?.(spec)}
              </th>
              <td data-label="Recent results">
                <SpecHistory spec={spec} />
              </td>
              {columns === 'failing' && (
                <td data-label="Failing since">
                  {spec.failingSince ? (
                    <time dateTime={spec.failingSince} title={formatDateTime(spec.failingSince)}>
                      {formatDateTime(spec.failingSince)}{' '}
                      <span className="muted small">({fromNow(spec.failingSince)})</span>
                    </time>
                  ) : (
                    '—'
                  )}
                </td>
              )}
              {columns === 'failing' && (
                <td data-label="Last failure by">
                  {spec.lastFailureAuthor ?? <span className="muted">Unknown</span>}
                </td>
              )}
              {columns === 'flaky' && <td data-label="Flaky runs">{spec.flakyRuns}</td>}
              {columns === 'slow' && (
                <td data-label="Average duration">{formatDuration(spec.avgDurationMs)}</td>
              )}
              <td data-label="Failed runs">
                {spec.failedRuns} <span className="muted small">of {spec.totalRuns}</span>
              </td>
              <td data-label="Success rate">{spec.totalRuns ? formatPercent(spec.successRate) : '—'}</td>
              {actions && <td className="actions-cell">{actions(spec)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
