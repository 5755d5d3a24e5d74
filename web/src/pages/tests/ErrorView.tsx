import { useId, useMemo, useState } from 'react';
import type { TestError } from '../../../../src/client/index.js';
import {
  type CodeFrameLine,
  type DiffLine,
  errorParts,
  type LineDiff,
  type Segment,
  type ValueDiff,
} from './error-parts';
import { frameLocation, type StackFrame, type StackLine } from './stack-frames';

/** Changed parts are marked (`<mark>`), so the difference reads without colour too. */
function Segments({ segments }: { segments: readonly Segment[] }) {
  return (
    <>
      {segments.map((segment, index) =>
        segment.changed ? <mark key={index}>{segment.text}</mark> : <span key={index}>{segment.text}</span>,
      )}
    </>
  );
}

function ValuesView({ diff }: { diff: ValueDiff }) {
  return (
    <dl className="value-diff">
      <div className="value-diff-side value-expected">
        <dt>{diff.expectedLabel}</dt>
        <dd>
          <code>
            <Segments segments={diff.expected} />
          </code>
        </dd>
      </div>
      <div className="value-diff-side value-received">
        <dt>{diff.receivedLabel}</dt>
        <dd>
          <code>
            <Segments segments={diff.received} />
          </code>
        </dd>
      </div>
    </dl>
  );
}

const SIGNS: Record<DiffLine['role'], { sign: string; label: string }> = {
  expected: { sign: '-', label: 'expected' },
  received: { sign: '+', label: 'received' },
  same: { sign: ' ', label: '' },
};

function LinesView({ diff }: { diff: LineDiff }) {
  return (
    <figure className="line-diff">
      <figcaption className="line-diff-legend">
        <span className="diff-key diff-expected">- Expected</span>
        <span className="diff-key diff-received">+ Received</span>
      </figcaption>
      <pre>
        {diff.lines.map((line, index) => (
          <span key={index} className={`diff-line diff-${line.role}`}>
            <span aria-hidden="true" className="diff-sign">
              {SIGNS[line.role].sign}
            </span>
            {line.role !== 'same' && <span className="sr-only">{SIGNS[line.role].label}: </span>}
            <Segments segments={line.segments} />
            {'\n'}
          </span>
        ))}
      </pre>
    </figure>
  );
}

function CodeFrame({ lines }: { lines: readonly CodeFrameLine[] }) {
  return (
    <pre className="code-frame">
      {lines.map((line, index) => (
        <span key={index} className={line.current ? 'code-current' : line.caret ? 'code-caret' : undefined}>
          <span className="code-number" aria-hidden={line.number === null}>
            {line.current ? '>' : ' '}
            {String(line.number ?? '').padStart(4)} |{' '}
          </span>
          {line.text}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

const ORIGIN_LABEL: Record<StackFrame['origin'], string> = {
  project: 'your code',
  dependency: 'dependency',
  runner: 'test runner or Node',
};

function Frame({ frame }: { frame: StackFrame }) {
  return (
    <li className={`frame frame-${frame.origin}`}>
      <code>
        {frame.fn && <span className="frame-fn">{frame.fn} </span>}
        <span className="frame-file">{frameLocation(frame)}</span>
      </code>
      {frame.origin !== 'project' && <span className="frame-origin"> · {ORIGIN_LABEL[frame.origin]}</span>}
    </li>
  );
}

/**
 * The stack with the project's own frames first in weight: frames of dependencies and of the runner
 * are dimmed, and folded away when there are project frames to read.
 */
function StackView({ lines }: { lines: readonly StackLine[] }) {
  const frames = lines.filter((line): line is StackFrame => line.kind === 'frame');
  const own = frames.filter((frame) => frame.origin === 'project');
  const [all, setAll] = useState(own.length === 0);
  const listId = useId();
  if (lines.length === 0) return null;
  const others = lines.length - own.length;
  const shown = all ? lines : own;
  return (
    <div className="stack">
      <h3 className="stack-title">
        Stack <span className="muted small">({own.length} in your code)</span>
      </h3>
      <ol className="frames" id={listId}>
        {shown.map((line, index) =>
          line.kind === 'frame' ? (
            <Frame key={index} frame={line} />
          ) : (
            <li key={index} className="frame frame-text">
              <code>{line.raw.trim()}</code>
            </li>
          ),
        )}
      </ol>
      {own.length > 0 && others > 0 && (
        <button
          type="button"
          className="link-button"
          aria-expanded={all}
          aria-controls={listId}
          onClick={() => setAll(!all)}
        >
          {all
            ? 'Show only your code'
            : `Show all ${lines.length} lines (${others} in dependencies and the runner)`}
        </button>
      )}
    </div>
  );
}

/** A test's error for reading: headline, the values or lines that differ, details, source, stack. */
export function ErrorView({ error }: { error: TestError }) {
  const parts = useMemo(() => errorParts(error), [error]);
  return (
    <div className="error-view">
      <p className="error-headline">{parts.headline}</p>
      {parts.diff?.kind === 'values' && <ValuesView diff={parts.diff} />}
      {parts.diff?.kind === 'lines' && <LinesView diff={parts.diff} />}
      {parts.details.length > 0 && <pre className="error-details">{parts.details.join('\n')}</pre>}
      {parts.codeFrame.length > 0 && <CodeFrame lines={parts.codeFrame} />}
      {error.location && (
        <p className="error-location">
          <span className="muted">Location </span>
          <code>{error.location}</code>
        </p>
      )}
      <StackView lines={parts.stack} />
    </div>
  );
}
