import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useEffect,
  useId,
  useRef,
} from 'react';
import { describeError, errorTitle, isConnectionError } from '../api/errors';

/**
 * A failed request. A load (one with `onRetry`) that failed because the server does not answer is no
 * alarm here, only a quiet note: the page-wide connection bar says why, and the load is repeated on
 * reconnect.
 */
export function ErrorMessage({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (!error) return null;
  if (onRetry && isConnectionError(error)) {
    return <p className="muted small waiting-for-server">Waiting for the server…</p>;
  }
  const title = errorTitle(error);
  return (
    <div className="alert alert-error" role="alert">
      <strong>{title}.</strong> <span>{describeError(error)}</span>
      {onRetry && (
        <button type="button" className="button button-small" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      {children && <p className="muted">{children}</p>}
    </div>
  );
}

const TONES: Record<string, string> = {
  passed: 'good',
  success: 'good',
  ready: 'good',
  open: 'info',
  merged: 'merged',
  closed: 'neutral',
  failed: 'bad',
  failing: 'bad',
  error: 'bad',
  errored: 'bad',
  canceled: 'neutral',
  running: 'info',
  created: 'info',
  on_hold: 'warn',
  pending: 'warn',
  e2e_failure: 'bad',
  e2e_success: 'good',
  pr_update: 'info',
  app_update: 'neutral',
  system: 'warn',
  info: 'info',
};

export function StatusBadge({ status, label }: { status: string; label?: string }) {
  const tone = TONES[status.toLowerCase()] ?? 'neutral';
  return <span className={`badge badge-${tone}`}>{label ?? status.replace(/_/g, ' ')}</span>;
}

interface FieldFrame {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
}

function useFieldIds(error?: string, hint?: string) {
  const id = useId();
  const describedBy =
    [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return { id, describedBy };
}

function FieldNotes({
  id,
  error,
  hint,
}: {
  id: string;
  error?: string | undefined;
  hint?: string | undefined;
}) {
  return (
    <>
      {hint && (
        <span className="field-hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {error && (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      )}
    </>
  );
}

export function TextField({
  label,
  error,
  hint,
  ...input
}: FieldFrame & InputHTMLAttributes<HTMLInputElement>) {
  const { id, describedBy } = useFieldIds(error, hint);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      <FieldNotes id={id} error={error} hint={hint} />
    </div>
  );
}

export function TextArea({
  label,
  error,
  hint,
  ...input
}: FieldFrame & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const { id, describedBy } = useFieldIds(error, hint);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      <FieldNotes id={id} error={error} hint={hint} />
    </div>
  );
}

export function SelectField({
  label,
  error,
  hint,
  children,
  ...select
}: FieldFrame & SelectHTMLAttributes<HTMLSelectElement>) {
  const { id, describedBy } = useFieldIds(error, hint);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...select}>
        {children}
      </select>
      <FieldNotes id={id} error={error} hint={hint} />
    </div>
  );
}

export function Checkbox({ label, ...input }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className="checkbox">
      <input type="checkbox" {...input} />
      <span>{label}</span>
    </label>
  );
}

/** A modal built on <dialog>: the browser traps focus, closes on Escape and restores focus. */
export function Dialog({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onClose={onClose}>
      {open && (
        <>
          <div className="dialog-header">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
              ×
            </button>
          </div>
          {children}
        </>
      )}
    </dialog>
  );
}

export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  error?: unknown;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog open={open} title={title} onClose={onCancel}>
      <p>{message}</p>
      <ErrorMessage error={error} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button button-danger" onClick={onConfirm} disabled={busy}>
          {busy ? 'Working…' : confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
