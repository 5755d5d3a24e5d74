import type { ConfirmedDelete } from '../lib/useConfirmedDelete';
import { ConfirmDialog } from './ui';

/** The confirmation of a `useConfirmedDelete` flow; open while an item waits for the answer. */
export function ConfirmDeleteDialog<T>({
  deletion,
  title,
  message,
  confirmLabel = 'Delete',
}: {
  deletion: ConfirmedDelete<T>;
  title: string;
  /** What will be lost, said of the item waiting for confirmation. */
  message: (item: T) => string;
  confirmLabel?: string;
}) {
  return (
    <ConfirmDialog
      open={deletion.target !== undefined}
      title={title}
      message={deletion.target === undefined ? '' : message(deletion.target)}
      confirmLabel={confirmLabel}
      busy={deletion.busy}
      error={deletion.error}
      onConfirm={() => void deletion.confirm()}
      onCancel={deletion.cancel}
    />
  );
}
