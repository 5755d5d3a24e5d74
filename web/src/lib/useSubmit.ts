import { type FormEvent, useState } from 'react';

/**
 * The submit handling the forms share: the browser's own submission is stopped, the form is busy
 * while `save` runs, and what `save` throws is kept as `error` (cleared on the next try) for the
 * form to show next to its fields.
 */
export function useSubmit(save: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await save();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, onSubmit: (event: FormEvent) => void submit(event) };
}
