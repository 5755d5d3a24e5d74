import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react';
import { useOnReconnect } from './connection';

export interface AsyncState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
  setData: (update: (current: T | undefined) => T | undefined) => void;
}

/**
 * Loads data when `deps` change and when the connection to the server comes back; stale answers of
 * an earlier load are dropped, and the last data stays while a reload runs or fails.
 */
export function useAsync<T>(load: (signal: AbortSignal) => Promise<T>, deps: DependencyList): AsyncState<T> {
  const [data, setDataState] = useState<T>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    loadRef
      .current(controller.signal)
      .then((value) => {
        if (controller.signal.aborted) return;
        setDataState(value);
        setError(undefined);
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setError(err);
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [...deps, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  // What failed or may have changed while the server was away is asked for again; the data stays.
  useOnReconnect(reload);
  const setData = useCallback(
    (update: (current: T | undefined) => T | undefined) => setDataState(update),
    [],
  );
  return { data, error, loading, reload, setData };
}
