// The state of a form or button that makes one API call at a time: busy while it runs, and the
// text of its failure to show.
import { useState } from 'preact/hooks';
import type { Outcome } from './api';

export function useCall() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  /** Busy while `call` runs; its data, or undefined with its failure's text in `error`. */
  async function run<T>(call: Promise<Outcome<T>>): Promise<T | undefined> {
    setBusy(true);
    setError(undefined);
    const result = await call;
    setBusy(false);
    if ('data' in result) return result.data;
    setError(result.message);
    return undefined;
  }

  return { busy, error, setError, run };
}
