import { useState } from 'react';
import type { SpecStat } from '../../../../src/client/index.js';
import { formatDateTime } from '../../lib/time';
import { SpecSuspects } from './SpecSuspects';
import './why.css';

type Result = SpecStat['history'][number];

/** A shape as well as a colour per status, so the strip reads without colour too. */
const MARKS: Record<Result['status'], { mark: string; label: string }> = {
  passed: { mark: '✓', label: 'passed' },
  failed: { mark: '✕', label: 'failed' },
  flaky: { mark: '~', label: 'flaky' },
};

/** The spec's last results, oldest first: one cell each, linked to the run when its page is known. */
export function SpecHistory({ spec }: { spec: SpecStat }) {
  if (spec.history.length === 0) return <span className="muted">—</span>;
  const linkOf = (result: Result) =>
    result.runNumber === spec.lastFailedRunNumber && spec.lastFailedRunUrl
      ? spec.lastFailedRunUrl
      : result === spec.history[spec.history.length - 1]
        ? spec.lastRunUrl
        : null;
  return (
    <ol className="history-strip" aria-label={`Last ${spec.history.length} results, oldest first`}>
      {spec.history.map((result) => {
        const { mark, label } = MARKS[result.status];
        const title = `Run #${result.runNumber} ${label} · ${formatDateTime(result.at)}`;
        const link = linkOf(result);
        return (
          <li key={result.runNumber} className={`history-cell history-${result.status}`} title={title}>
            {link ? (
              <a href={link} target="_blank" rel="noreferrer" aria-label={title}>
                {mark}
              </a>
            ) : (
              <span aria-label={title} role="img">
                {mark}
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
}

const shortSha = (sha: string) => sha.slice(0, 7);
/** Characters of the error shown before "Show all". */
const ERROR_PREVIEW = 120;

function CommitLink({ sha, repositoryUrl }: { sha: string; repositoryUrl: string | null | undefined }) {
  const code = <code title={sha}>{shortSha(sha)}</code>;
  if (!repositoryUrl) return code;
  return (
    <a href={`${repositoryUrl.replace(/\/+$/, '')}/commit/${sha}`} target="_blank" rel="noreferrer">
      {code}
    </a>
  );
}

/** The spec's last error: a short line, all of it on demand. */
function SpecError({ message }: { message: string }) {
  const [open, setOpen] = useState(false);
  const long = message.length > ERROR_PREVIEW;
  return (
    <p className="spec-error">
      <span className="sr-only">Last error: </span>
      <span>{open || !long ? message : `${message.slice(0, ERROR_PREVIEW)}…`}</span>
      {long && (
        <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Show less' : 'Show all'}
        </button>
      )}
    </p>
  );
}

/** Why a failing spec fails: its runs, the commits around its streak, its error and suspects. */
export function SpecWhy({
  spec,
  appId,
  date,
  repositoryUrl,
}: {
  spec: SpecStat;
  appId: number;
  date: string;
  repositoryUrl: string | null | undefined;
}) {
  return (
    <div className="spec-why">
      {spec.lastError && <SpecError message={spec.lastError.message} />}
      <p className="spec-links muted small">
        {spec.lastFailedRunNumber !== null &&
          (spec.lastFailedRunUrl ? (
            <a href={spec.lastFailedRunUrl} target="_blank" rel="noreferrer">
              Failed run #{spec.lastFailedRunNumber}
            </a>
          ) : (
            <span>Failed run #{spec.lastFailedRunNumber}</span>
          ))}
        {spec.firstFailedCommitSha && (
          <span>
            First failing commit <CommitLink sha={spec.firstFailedCommitSha} repositoryUrl={repositoryUrl} />
          </span>
        )}
        {spec.lastPassedCommitSha && (
          <span>
            Last passing commit <CommitLink sha={spec.lastPassedCommitSha} repositoryUrl={repositoryUrl} />
          </span>
        )}
      </p>
      {spec.lastStatus === 'failed' && <SpecSuspects appId={appId} spec={spec.spec} date={date} />}
    </div>
  );
}
