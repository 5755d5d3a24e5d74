import type { AppRunsToday, ApplicationDetails, ManualRun, ReportDetail } from '../../../src/client/index.js';
import { describeError } from '../api/errors';
import { IfCanChange } from '../lib/access';
import { CiRunsTodayCell, LastManualRunCell, LastResultCell } from './AppRunCells';

/** What one application's row is told by the page, and what it asks the page to do. */
export interface ApplicationRowProps {
  app: ApplicationDetails;
  /** The last action on this row (watching, run) failed with `error`, shown under its name. */
  failure: { error: unknown } | undefined;
  /** A manual run is being started for this app: its button waits. */
  starting: boolean;
  report: { date: string; byApp: ReadonlyMap<number, ReportDetail> } | undefined;
  followed: ManualRun | undefined;
  runsToday: AppRunsToday | undefined;
  onToggleWatching: () => void;
  onRunNow: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** One application in the Applications table: what it is, how it runs today, and its actions. */
export function ApplicationRow(props: ApplicationRowProps) {
  const { app, report, followed, runsToday } = props;
  return (
    <tr>
      <ApplicationNameCell app={app} failure={props.failure} />
      <td data-label="Watching">
        <IfCanChange fallback={app.watching ? 'On' : 'Off'}>
          <button
            type="button"
            role="switch"
            aria-checked={app.watching}
            aria-label={`Watching ${app.name}`}
            className="switch"
            onClick={props.onToggleWatching}
          >
            <span className="switch-track" aria-hidden="true" />
            <span className="switch-text">{app.watching ? 'On' : 'Off'}</span>
          </button>
        </IfCanChange>
      </td>
      <td data-label="Last E2E result">
        <LastResultCell appId={app.id} report={report} />
      </td>
      <td data-label="Last manual run">
        <LastManualRunCell app={app} followed={followed} />
      </td>
      <td data-label="Runs today">
        <CiRunsTodayCell runs={runsToday} />
      </td>
      <td data-label="Manual runs today">{runsToday?.manualRuns ?? app.e2eRunsQuantity}</td>
      <td className="actions-cell">
        <IfCanChange>
          <ApplicationActions {...props} />
        </IfCanChange>
      </td>
    </tr>
  );
}

/** The row header: the app's name, code and links, and the error of the row's last action. */
function ApplicationNameCell({
  app,
  failure,
}: {
  app: ApplicationDetails;
  failure: { error: unknown } | undefined;
}) {
  return (
    <th scope="row" data-label="Application">
      <span className="strong">{app.name}</span>
      <span className="muted small block">
        {app.code} ·{' '}
        <a href={app.pipelineUrl} target="_blank" rel="noopener noreferrer">
          pipeline<span className="sr-only"> (opens in a new tab)</span> ↗
        </a>
        {app.repositoryUrl && (
          <>
            {' · '}
            <a href={app.repositoryUrl} target="_blank" rel="noopener noreferrer">
              repository<span className="sr-only"> (opens in a new tab)</span> ↗
            </a>
          </>
        )}
      </span>
      {failure && (
        <span className="field-error block" role="alert">
          {describeError(failure.error)}
        </span>
      )}
    </th>
  );
}

/** Run E2E (only when the app has a trigger), edit and delete; each names the app to a reader. */
function ApplicationActions({ app, starting, onRunNow, onEdit, onDelete }: ApplicationRowProps) {
  const triggerOn = app.e2eTriggerConfiguration?.enabled === true;
  return (
    <div className="actions">
      {triggerOn && (
        <button type="button" className="button button-small" onClick={onRunNow} disabled={starting}>
          {starting ? 'Starting…' : 'Run E2E'}
          <span className="sr-only"> for {app.name}</span>
        </button>
      )}
      <button type="button" className="button button-small" onClick={onEdit}>
        Edit<span className="sr-only"> {app.name}</span>
      </button>
      <button type="button" className="button button-small button-danger-ghost" onClick={onDelete}>
        Delete<span className="sr-only"> {app.name}</span>
      </button>
    </div>
  );
}
