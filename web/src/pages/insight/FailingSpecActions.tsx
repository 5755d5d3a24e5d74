import { useState } from 'react';
import type { SpecStat } from '../../../../src/client/index.js';
import { QUARANTINE_LIMITS, TODO_LIMITS } from '../../../../src/client/index.js';
import { useClient } from '../../api/client';
import { fieldMessage, fieldProblems } from '../../api/errors';
import { Dialog, ErrorMessage, TextArea, TextField } from '../../components/ui';
import { formatDateTime, fromLocalInput } from '../../lib/time';
import { useSubmit } from '../../lib/useSubmit';
import { useShell } from '../../shell';
import { appReportPath } from './links';
import { useCanChange } from '../../lib/access';

/** What the two actions need to know about the failing spec they act on. */
export interface FailingSpecContext {
  appId: number;
  appName: string;
  date: string;
  spec: SpecStat;
}

const QUARANTINE_LABELS: Record<string, string> = {
  reason: 'Reason',
  ticketKey: 'Ticket',
  expiresAt: 'Expires',
};

/** What a quarantine sets aside: a spec, or one test of it (`test`: its id, `title`: its name). */
export interface QuarantineTarget {
  appId: number;
  spec: string;
  test?: { id: string; title: string };
}

/**
 * "Quarantine…": set a spec, or one of its tests, aside as a known failure, with a reason, a ticket
 * and an optional expiry.
 */
export function QuarantineForm({
  target,
  onDone,
  onCancel,
}: {
  target: QuarantineTarget;
  onDone: () => void;
  onCancel: () => void;
}) {
  const client = useClient();
  const { notify } = useShell();
  const [reason, setReason] = useState('');
  const [ticketKey, setTicketKey] = useState('');
  const [expires, setExpires] = useState('');
  const { busy, error, onSubmit } = useSubmit(async () => {
    const expiresAt = fromLocalInput(expires);
    const body = {
      appId: target.appId,
      spec: target.spec,
      reason,
      ...(ticketKey.trim() ? { ticketKey: ticketKey.trim().toUpperCase() } : {}),
      ...(expiresAt ? { expiresAt } : {}),
    };
    if (target.test) await client.tests.quarantine({ ...body, test: target.test.id });
    else await client.quarantine.create(body);
    notify(`${target.test?.title ?? target.spec} is now a known failure.`);
    onDone();
  });
  const fieldError = (field: string) => fieldMessage(error, field, QUARANTINE_LABELS[field] ?? field);
  const unplaced = fieldProblems(error).some((p) => p.field in QUARANTINE_LABELS) ? undefined : error;
  return (
    <form onSubmit={onSubmit} noValidate className="form">
      <p className="muted small">
        {target.test ? (
          <>
            <strong>{target.test.title}</strong> (in <code className="spec-name">{target.spec}</code>) stays
            in the figures, but its failures no longer alert; the other tests of the file still do.
          </>
        ) : (
          <>
            <code className="spec-name">{target.spec}</code> stays in the figures, but the daily alert no
            longer reports it.
          </>
        )}{' '}
        It is lifted when its ticket is done or when it expires.
      </p>
      <ErrorMessage error={unplaced} />
      <TextArea
        label="Reason"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        error={fieldError('reason')}
        maxLength={QUARANTINE_LIMITS.reason}
        rows={3}
        required
      />
      <div className="grid-2">
        <TextField
          label="Ticket"
          value={ticketKey}
          onChange={(e) => setTicketKey(e.target.value)}
          error={fieldError('ticketKey')}
          placeholder="ABC-123"
          hint="Lifted when this ticket is done"
        />
        <TextField
          label="Expires (optional)"
          type="datetime-local"
          value={expires}
          onChange={(e) => setExpires(e.target.value)}
          error={fieldError('expiresAt')}
        />
      </div>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={busy || !reason.trim()}>
          {busy ? 'Saving…' : 'Quarantine'}
        </button>
      </div>
    </form>
  );
}

/** The to-do a failing spec suggests: its title, a link back to the app report and the ticket. */
export function todoDraft(context: FailingSpecContext, origin: string) {
  const ticket = context.spec.quarantine?.ticketKey;
  const since = context.spec.failingSince
    ? ` Failing since ${formatDateTime(context.spec.failingSince)}.`
    : '';
  return {
    title: `Fix ${context.spec.spec} (${context.appName})`,
    link: `${origin}${appReportPath(context.appId, context.date)}`,
    description: `${ticket ? `Ticket: ${ticket}.` : 'No ticket yet.'}${since}`,
  };
}

/** "Create to-do", pre-filled from the spec; everything can be changed before saving. */
function TodoDraftForm({ context, onDone }: { context: FailingSpecContext; onDone: () => void }) {
  const client = useClient();
  const { notify } = useShell();
  const draft = todoDraft(context, window.location.origin);
  const [title, setTitle] = useState(draft.title);
  const [link, setLink] = useState(draft.link);
  const [description, setDescription] = useState(draft.description);
  const { busy, error, onSubmit } = useSubmit(async () => {
    await client.todos.create({
      title,
      ...(link.trim() ? { link: link.trim() } : {}),
      ...(description.trim() ? { description } : {}),
    });
    notify('To-do created.');
    onDone();
  });
  return (
    <form onSubmit={onSubmit} noValidate className="form">
      <ErrorMessage error={error} />
      <TextField
        label="Title"
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        maxLength={TODO_LIMITS.title}
        required
      />
      <TextField
        label="Link"
        type="url"
        value={link}
        onChange={(e) => setLink(e.target.value)}
        maxLength={TODO_LIMITS.link}
      />
      <TextArea label="Notes" value={description} onChange={(e) => setDescription(e.target.value)} rows={3} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={busy || !title.trim()}>
          {busy ? 'Saving…' : 'Create to-do'}
        </button>
      </div>
    </form>
  );
}

/** The two actions of a failing spec; `onQuarantined` lets the report move it to "Known failures". */
export function FailingSpecActions({
  context,
  onQuarantined,
}: {
  context: FailingSpecContext;
  onQuarantined: () => void;
}) {
  const [open, setOpen] = useState<'quarantine' | 'todo'>();
  const canChange = useCanChange();
  const close = () => setOpen(undefined);
  const name = context.spec.spec;
  if (!canChange) return null;
  return (
    <div className="actions">
      {!context.spec.quarantine && (
        <button
          type="button"
          className="button button-small"
          aria-label={`Quarantine ${name}`}
          onClick={() => setOpen('quarantine')}
        >
          Quarantine…
        </button>
      )}
      <button
        type="button"
        className="button button-small"
        aria-label={`Create to-do for ${name}`}
        onClick={() => setOpen('todo')}
      >
        Create to-do
      </button>
      <Dialog open={open === 'quarantine'} title={`Quarantine ${name}`} onClose={close}>
        <QuarantineForm
          target={{ appId: context.appId, spec: context.spec.spec }}
          onCancel={close}
          onDone={() => {
            close();
            onQuarantined();
          }}
        />
      </Dialog>
      <Dialog open={open === 'todo'} title={`To-do for ${name}`} onClose={close}>
        <TodoDraftForm context={context} onDone={close} />
      </Dialog>
    </div>
  );
}

/** Failing specs that are known failures: their reason, ticket and expiry, and the to-do action. */
export function KnownFailuresTable({
  specs,
  contextOf,
}: {
  specs: readonly SpecStat[];
  contextOf: (spec: SpecStat) => FailingSpecContext;
}) {
  return (
    <div className="table-wrap">
      <table className="table responsive spec-table">
        <caption className="sr-only">Known failures, quarantined with their ticket</caption>
        <thead>
          <tr>
            <th scope="col">Spec</th>
            <th scope="col">Ticket</th>
            <th scope="col">Reason</th>
            <th scope="col">Expires</th>
            <th scope="col">Failed runs</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {specs.map((spec) => (
            <tr key={spec.spec}>
              <th scope="row" data-label="Spec">
                <code className="spec-name">{spec.spec}</code>
              </th>
              <td data-label="Ticket">{spec.quarantine?.ticketKey ?? <span className="muted">None</span>}</td>
              <td data-label="Reason">{spec.quarantine?.reason}</td>
              <td data-label="Expires">
                {spec.quarantine?.expiresAt ? formatDateTime(spec.quarantine.expiresAt) : '—'}
              </td>
              <td data-label="Failed runs">
                {spec.failedRuns} <span className="muted small">of {spec.totalRuns}</span>
              </td>
              <td className="actions-cell">
                <FailingSpecActions context={contextOf(spec)} onQuarantined={() => undefined} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
