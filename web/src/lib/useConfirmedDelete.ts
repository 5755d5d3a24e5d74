import { useState } from 'react';

export interface ConfirmedDelete<T> {
  /** The item whose deletion waits for the user's confirmation, if any. */
  target: T | undefined;
  busy: boolean;
  /** Why the last attempt failed; the dialog stays open to show it. */
  error: unknown;
  ask: (item: T) => void;
  cancel: () => void;
  confirm: () => Promise<void>;
}

/**
 * The "Delete…? / Delete" flow of the list pages: asking opens the confirmation with a clean
 * state, confirming calls `remove` and, once the server agreed, `onDeleted` (drop the row, tell
 * the user) before the dialog closes.
 */
export function useConfirmedDelete<T>(
  remove: (item: T) => Promise<unknown>,
  onDeleted: (item: T) => void,
): ConfirmedDelete<T> {
  const [target, setTarget] = useState<T>();
  const [state, setState] = useState<{ busy: boolean; error?: unknown }>({ busy: false });
  return {
    target,
    busy: state.busy,
    error: state.error,
    ask: (item) => {
      setState({ busy: false });
      setTarget(item);
    },
    cancel: () => {
      setTarget(undefined);
    },
    confirm: async () => {
      if (target === undefined) return;
      setState({ busy: true });
      try {
        await remove(target);
        onDeleted(target);
        setTarget(undefined);
        setState({ busy: false });
      } catch (error) {
        setState({ busy: false, error });
      }
    },
  };
}
