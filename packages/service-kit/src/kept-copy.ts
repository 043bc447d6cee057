import type { Invalidation } from './shared-state.js';

export interface KeptCopyOptions<T> {
  /**
   * The longest a copy is used (default 60 s), whatever the signal says: it bounds what no
   * publish announces (a write straight into the database, a replica that died between its
   * write and its publish, a Redis that hangs without closing its connections).
   */
  maxAgeMs?: number;
  /**
   * When a value stops being true with nobody writing (ms since the epoch; undefined: not by
   * itself), e.g. a list whose entries carry an end: it is not used from then on, on every
   * replica alike, as each derives it from the value.
   */
  validUntil?: (value: T) => number | undefined;
  /** The clock (tests). */
  now?: () => number;
}

/**
 * One value derived from shared data (e.g. a serialised list with its ETag), computed once and
 * then reused until any replica publishes `topic` on `invalidation`.
 *
 * It fails towards correctness: while `invalidation.listening` is false (Redis unreachable, or
 * the subscription not confirmed yet) nothing is kept and every `get` computes afresh; a value
 * whose computation overlapped an invalidation is handed to the callers that were waiting for it
 * but not kept. Concurrent `get`s share one computation.
 */
export class KeptCopy<T> {
  /** The kept value, and until when (ms since the epoch) it is used. */
  private kept: { value: T; until: number } | undefined;
  private loading: Promise<T> | undefined;
  /** Counts invalidations; a computation is kept only when none happened while it ran. */
  private generation = 0;
  private readonly maxAgeMs: number;
  private readonly validUntil: (value: T) => number | undefined;
  private readonly now: () => number;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly invalidation: Invalidation,
    topic: string,
    options: KeptCopyOptions<T> = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? 60_000;
    this.now = options.now ?? Date.now;
    this.validUntil = options.validUntil ?? (() => undefined);
    this.unsubscribe = invalidation.subscribe(topic, () => this.drop());
  }

  /** Whether values are kept now (the signal is heard); when false, every `get` loads. */
  get keeping(): boolean {
    return this.invalidation.listening;
  }

  /** The kept value, or `load`'s (kept when it may be). */
  get(load: () => Promise<T>): Promise<T> {
    if (!this.invalidation.listening) {
      this.kept = undefined;
      return load();
    }
    if (this.kept && this.now() < this.kept.until) return Promise.resolve(this.kept.value);
    if (this.loading) return this.loading;
    const generation = this.generation;
    const since = this.now();
    const loading = load().then(
      (value) => {
        if (this.loading === loading) this.loading = undefined;
        if (this.generation === generation && this.invalidation.listening) {
          const until = Math.min(since + this.maxAgeMs, this.validUntil(value) ?? Infinity);
          this.kept = { value, until };
        }
        return value;
      },
      (error: unknown) => {
        if (this.loading === loading) this.loading = undefined;
        throw error;
      },
    );
    this.loading = loading;
    return loading;
  }

  /** Forgets the value, and any computation under way for later callers. */
  drop(): void {
    this.generation += 1;
    this.kept = undefined;
    this.loading = undefined;
  }

  /** Stops listening (the app's onClose). */
  close(): void {
    this.unsubscribe();
    this.drop();
  }
}
