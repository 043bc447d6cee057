// Loading what a page shows: busy while it loads, the API's message when it fails, and only the
// latest answer shown — an answer to a request that a newer one has replaced (another search,
// another record, the page left) is dropped, however late it comes.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Outcome } from './api';
import { useLatest } from './use-latest';

export interface Resource<T> {
  /** The data shown: the last answer (kept while a new one loads, and when it fails). */
  data: T | undefined;
  /** `all`: the data itself is loading; `more`: a further page (`more`). */
  loading: 'all' | 'more' | undefined;
  /** The failure's text of the last load (the API's message, or the offline text). */
  error: string | undefined;
  /** The last failure's status (404: the record is gone) and whether it was offline. */
  failure: { status: number | undefined; offline: boolean } | undefined;
  /** Loads again with the current request, now. */
  reload: () => void;
  /** A further page: `load` it, and `merge` it into what is shown. */
  more: (load: () => Promise<Outcome<T>>, merge: (shown: T, next: T) => T) => void;
  /** Changes what is shown after a write, without loading (a changed row, a deleted one). */
  mutate: (change: (data: T) => T) => void;
}

interface State<T> {
  data: T | undefined;
  loading: 'all' | 'more' | undefined;
  error: string | undefined;
  failure: Resource<T>['failure'];
}

export interface ResourceOptions {
  /**
   * Waits this long after the last change of `deps` (typing: one request per pause, not per
   * key); the first load does not wait.
   */
  delayMs?: number;
  /**
   * When `deps` change, the last data stays shown until the new answer comes (a new search of
   * the same list); by default it goes at once (another record: never shown as this one).
   */
  keep?: boolean;
}

/**
 * Loads `load()` when the component mounts and whenever `deps` change; `load` undefined: nothing
 * to load, nothing shown. Only the latest request's answer is shown.
 */
export function useResource<T>(
  load: (() => Promise<Outcome<T>>) | undefined,
  deps: readonly unknown[],
  { delayMs = 0, keep = false }: ResourceOptions = {},
): Resource<T> {
  const [state, setState] = useState<State<T>>({
    data: undefined,
    loading: load ? 'all' : undefined,
    error: undefined,
    failure: undefined,
  });
  const start = useLatest();
  const current = useRef(load);
  current.current = load;

  async function fetch(request: () => Promise<Outcome<T>>, merge?: (shown: T, next: T) => T) {
    const isLatest = start();
    setState((shown) => ({ ...shown, loading: merge ? 'more' : 'all', error: undefined }));
    const result = await request();
    if (!isLatest()) return;
    setState((shown) =>
      'data' in result
        ? {
            data: merge && shown.data !== undefined ? merge(shown.data, result.data) : result.data,
            loading: undefined,
            error: undefined,
            failure: undefined,
          }
        : {
            ...shown,
            loading: undefined,
            error: result.message,
            failure: { status: result.status, offline: result.offline },
          },
    );
  }

  const mounted = useRef(false);
  useEffect(() => {
    const changed = mounted.current;
    mounted.current = true;
    if (!load) {
      start();
      setState({ data: undefined, loading: undefined, error: undefined, failure: undefined });
      return;
    }
    if (changed && !keep) {
      setState({ data: undefined, loading: 'all', error: undefined, failure: undefined });
    }
    // The pause is for changes (typing); the first load starts at once.
    const timer = setTimeout(() => void fetch(load), changed ? delayMs : 0);
    return () => {
      clearTimeout(timer);
      // An answer still on its way belongs to the old deps: dropped.
      start();
    };
  }, deps);

  return {
    ...state,
    reload: () => {
      if (current.current) void fetch(current.current);
    },
    more: (request, merge) => void fetch(request, merge),
    mutate: (change) =>
      setState((shown) =>
        shown.data === undefined ? shown : { ...shown, data: change(shown.data) },
      ),
  };
}
