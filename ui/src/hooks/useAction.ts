// The busy/error/try pattern of every page in one place: while a task runs the
// page shows that it is working, and its failure is kept as an AppError the page
// explains in words.
import { useCallback, useState } from 'react';
import { asAppError, type AppError } from '../api';

export interface Action {
  /** A task is running (one run without `{ busy: false }`). */
  busy: boolean;
  /** How the last task failed; cleared when the next one starts. */
  error: AppError | null;
  /** Runs `task`; never rejects. `{ busy: false }`: a background task that does
   * not disable what `busy` disables. */
  run: (task: () => Promise<unknown>, options?: { busy?: boolean }) => Promise<void>;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const run = useCallback<Action['run']>(async (task, { busy: showBusy = true } = {}) => {
    if (showBusy) setBusy(true);
    setError(null);
    try {
      await task();
    } catch (err) {
      setError(asAppError(err));
    } finally {
      if (showBusy) setBusy(false);
    }
  }, []);
  return { busy, error, run };
}
