import { useId, useState } from 'react';
import type { SpecStat, SpecTestCounts } from '../../../../src/client/index.js';
import { formatDateTime, formatPercent, fromNow } from '../../lib/time';
import { SpecTests, type TestSource } from '../tests/TestList';
import { SpecHistory } from './SpecHistory';
import { formatDuration } from './links';

/** A list of an application's specs: each row its recent results and the figures of `columns`. */
export function SpecTable({
  caption,
  specs,
  columns,
  actions,
  why,
  tests,
}: {
  caption: string;
  specs: SpecStat[];
  columns: 'failing' | 'flaky' | 'slow';
  actions?: (spec: SpecStat) => React.ReactNode;
  /** What is known of why the spec fails, shown under its name. */
  why?: (spec: SpecStat) => React.ReactNode;
  /** Where each row's tests are read from; without it the rows do not open. */
  tests?: TestSource;
}) {
  const width = 4 + (columns === 'failing' ? 2 : 1) + (actions ? 1 : 0);
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
            <SpecRow
              key={spec.spec}
              spec={spec}
              columns={columns}
              actions={actions}
              why={why}
              tests={tests}
              width={width}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The test counts of a spec item: null for the Cypress export, absent from servers before #36. */
const testCountsOf = (spec: SpecStat) => (spec as SpecStat & { tests?: SpecTestCounts | null }).tests;

function TestsToggle({
  spec,
  open,
  onToggle,
  controls,
}: {
  spec: SpecStat;
  open: boolean;
  onToggle: () => void;
  controls: string;
}) {
  const counts = testCountsOf(spec);
  const summary = counts
    ? [
        `${counts.total} ${counts.total === 1 ? 'test' : 'tests'}`,
        counts.failing ? `${counts.failing} failing` : '',
        counts.flaky ? `${counts.flaky} flaky` : '',
      ]
        .filter(Boolean)
        .join(' · ')
    : 'Tests';
  return (
    <button
      type="button"
      className="link-button spec-tests-toggle"
      aria-expanded={open}
      aria-controls={controls}
      onClick={onToggle}
    >
      {/* The visible words start the name (WCAG 2.5.3); the file is said only to screen readers. */}
      <span aria-hidden="true">{open ? '▾' : '▸'}</span> {summary}
      <span className="sr-only"> in {spec.spec}</span>
    </button>
  );
}

function SpecRow({
  spec,
  columns,
  actions,
  why,
  tests,
  width,
}: {
  spec: SpecStat;
  columns: 'failing' | 'flaky' | 'slow';
  actions?: (spec: SpecStat) => React.ReactNode;
  why?: (spec: SpecStat) => React.ReactNode;
  tests?: TestSource;
  width: number;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const opens = tests !== undefined && testCountsOf(spec) !== null;
  return (
    <>
      <tr className={spec.lastStatus === 'failed' ? 'row-bad' : undefined}>
        <th scope="row" data-label="Spec">
          <code className="spec-name">{spec.spec}</code>
          {opens && (
            <TestsToggle spec={spec} open={open} onToggle={() => setOpen(!open)} controls={panelId} />
          )}
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
        {columns === 'slow' && <td data-label="Average duration">{formatDuration(spec.avgDurationMs)}</td>}
        <td data-label="Failed runs">
          {spec.failedRuns} <span className="muted small">of {spec.totalRuns}</span>
        </td>
        <td data-label="Success rate">{spec.totalRuns ? formatPercent(spec.successRate) : '—'}</td>
        {actions && <td className="actions-cell">{actions(spec)}</td>}
      </tr>
      {opens && open && (
        <tr className="spec-tests-row" id={panelId}>
          <td colSpan={width}>
            <SpecTests spec={spec.spec} source={tests} />
          </td>
        </tr>
      )}
    </>
  );
}
