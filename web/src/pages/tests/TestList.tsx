import { useEffect, useId, useState } from 'react';
import type { TestStat } from '../../../../src/client/index.js';
import { useClient } from '../../api/client';
import { ErrorMessage, Spinner } from '../../components/ui';
import { Link, useQueryParam } from '../../lib/router';
import { formatPercent } from '../../lib/time';
import { useAsync } from '../../lib/useAsync';
import { formatDuration } from '../insight/links';
import { errorParts } from './error-parts';
import { type ListRetention, retentionNote, STATUS_MARKS, testPath } from './test-format';
import './tests.css';

/** Where the tests come from: an app in one report, and the date its page links carry. */
export interface TestSource {
  summaryId: number;
  appId: number;
  date: string;
}

/** Tests of a spec shown before "Show all"; the API puts failing and flaky ones first. */
const FIRST = 10;

function TestRow({ test, source, showSpec }: { test: TestStat; source: TestSource; showSpec: boolean }) {
  const { mark, label } = STATUS_MARKS[test.lastStatus];
  const headline = test.lastStatus === 'failed' && test.lastError ? errorParts(test.lastError).headline : '';
  return (
    <li className={`test-row test-${test.lastStatus}`}>
      <span className={`history-cell history-${test.lastStatus}`}>
        <span role="img" aria-label={`Last run ${label}`}>
          {mark}
        </span>
      </span>
      <div className="test-row-main">
        <Link to={testPath(source.appId, test.testId, source.date)} className="test-title">
          {test.title}
        </Link>
        {test.project && <span className="badge badge-neutral test-project">{test.project}</span>}
        {test.quarantine && <span className="badge badge-warn">Known failure</span>}
        {showSpec && <code className="spec-name test-spec">{test.spec}</code>}
        {headline && <p className="spec-error test-headline">{headline}</p>}
      </div>
      <p className="test-row-figures muted small">
        <span>{test.runs ? `${formatPercent(test.passRate)} passed` : 'No runs'}</span>
        {test.flakeRate > 0 && <span>flaky in {Math.round(test.flakeRate * test.runs)}</span>}
        {test.avgDurationMs !== null && <span>{formatDuration(test.avgDurationMs)}</span>}
      </p>
    </li>
  );
}

/** A short muted line when the report's window reaches past the results' retention. */
function RetentionNote({ retention }: { retention: ListRetention | undefined }) {
  const note = retentionNote(retention);
  return note ? <p className="muted small retention-note">{note}</p> : null;
}

export function TestRows({
  tests,
  source,
  showSpec = false,
  label,
}: {
  tests: readonly TestStat[];
  source: TestSource;
  showSpec?: boolean;
  label: string;
}) {
  return (
    <ul className="test-rows" aria-label={label}>
      {tests.map((test) => (
        <TestRow key={test.testId} test={test} source={source} showSpec={showSpec} />
      ))}
    </ul>
  );
}

/** The tests of one spec file, failing and flaky first (the API's order). */
export function SpecTests({ spec, source }: { spec: string; source: TestSource }) {
  const client = useClient();
  const [all, setAll] = useState(false);
  const state = useAsync(
    () => client.tests.list(source.summaryId, source.appId, { spec, limit: all ? 100 : FIRST }),
    [client, source.summaryId, source.appId, spec, all],
  );
  const tests = state.data?.data ?? [];
  const total = state.data?.pagination?.total ?? tests.length;
  return (
    <div className="spec-tests">
      {state.loading && !state.data && <Spinner label={`Loading the tests of ${spec}…`} />}
      <ErrorMessage error={state.error} onRetry={state.reload} />
      {state.data && tests.length === 0 && <p className="muted small">No test of this file in the report.</p>}
      {tests.length > 0 && <TestRows tests={tests} source={source} label={`Tests of ${spec}`} />}
      {state.data && total > tests.length && (
        <button type="button" className="link-button" onClick={() => setAll(true)} disabled={state.loading}>
          Show all {total} tests
        </button>
      )}
      <RetentionNote retention={state.data?.retention} />
    </div>
  );
}

/** Typing settles for this long before the search is sent. */
const SEARCH_DELAY_MS = 250;

/** "Find a test": the app's tests whose title holds the words, kept in the address (`?test=`). */
export function TestSearch({ source }: { source: TestSource }) {
  const client = useClient();
  const [query, setQuery] = useQueryParam('test');
  const [text, setText] = useState(query);
  const inputId = useId();
  useEffect(() => {
    const timer = window.setTimeout(() => setQuery(text.trim()), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [text, setQuery]);
  const state = useAsync(
    async () =>
      query === ''
        ? undefined
        : client.tests.list(source.summaryId, source.appId, { search: query, limit: 20 }),
    [client, source.summaryId, source.appId, query],
  );
  const found = state.data?.data ?? [];
  const total = state.data?.pagination?.total ?? found.length;
  return (
    <section className="panel test-search" aria-labelledby="test-search-title">
      <div className="panel-header">
        <h2 id="test-search-title">Find a test</h2>
      </div>
      <form role="search" className="test-search-form" onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label htmlFor={inputId}>Test title</label>
          <input
            id={inputId}
            type="search"
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder="e.g. checkout total"
            autoComplete="off"
          />
        </div>
      </form>
      <div aria-live="polite" className="test-search-results">
        {query !== '' && state.loading && <Spinner label="Searching…" />}
        <ErrorMessage error={state.error} onRetry={state.reload} />
        {query !== '' && state.data && (
          <p className="muted small">
            {total === 0
              ? `No test title holds “${query}”.`
              : total > found.length
                ? `${total} tests match; the first ${found.length}:`
                : `${total} ${total === 1 ? 'test matches' : 'tests match'}:`}
          </p>
        )}
        {query !== '' && found.length > 0 && (
          <TestRows tests={found} source={source} showSpec label={`Tests matching ${query}`} />
        )}
        {query !== '' && <RetentionNote retention={state.data?.retention} />}
      </div>
    </section>
  );
}
