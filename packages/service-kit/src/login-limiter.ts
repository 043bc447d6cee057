import { HttpError } from './http-error.js';

/** A count in a fixed window; `resetAt` (ms since the epoch) is when the window ends. */
export interface WindowCount {
  count: number;
  resetAt: number;
}

/**
 * Counters that expire with their window. The window is fixed: it starts with a key's first
 * increment and later increments do not extend it. This maps onto Redis one to one (INCR, then
 * PEXPIRE on the first increment, PTTL for `resetAt`; GET + PTTL; DEL), so a Redis store can
 * replace the in-memory one and let replicas share the counts.
 */
export interface CounterStore {
  /** Adds one to `key`, starting a window of `windowMs` when it has none. */
  increment(key: string, windowMs: number): Promise<WindowCount>;
  /** The key's count, or null when it has none or its window has ended. */
  get(key: string): Promise<WindowCount | null>;
  reset(key: string): Promise<void>;
}

/** Counts in this process's memory: with several replicas each counts on its own. */
export class MemoryCounterStore implements CounterStore {
  private readonly counts = new Map<string, WindowCount>();
  private readonly now: () => number;
  /** Keys kept at most; the oldest windows are dropped first, so a flood cannot exhaust memory. */
  private readonly maxEntries: number;

  constructor(options: { now?: () => number; maxEntries?: number } = {}) {
    this.now = options.now ?? (() => Date.now());
    this.maxEntries = options.maxEntries ?? 100_000;
  }

  async increment(key: string, windowMs: number): Promise<WindowCount> {
    const now = this.now();
    const entry = this.counts.get(key);
    if (entry && entry.resetAt > now) {
      entry.count += 1;
      return { ...entry };
    }
    this.counts.delete(key);
    if (this.counts.size >= this.maxEntries) this.evict(now);
    const fresh = { count: 1, resetAt: now + windowMs };
    this.counts.set(key, fresh);
    return { ...fresh };
  }

  async get(key: string): Promise<WindowCount | null> {
    const entry = this.counts.get(key);
    if (!entry) return null;
    if (entry.resetAt <= this.now()) {
      this.counts.delete(key);
      return null;
    }
    return { ...entry };
  }

  async reset(key: string): Promise<void> {
    this.counts.delete(key);
  }

  private evict(now: number): void {
    for (const [key, entry] of this.counts) {
      if (entry.resetAt <= now) this.counts.delete(key);
    }
    // Maps iterate in insertion order: the first keys are the oldest windows.
    for (const key of this.counts.keys()) {
      if (this.counts.size < this.maxEntries) break;
      this.counts.delete(key);
    }
  }
}

export interface LoginLimits {
  /** Failures per client address and account before further attempts are refused. */
  maxFailures: number;
  /** Failures per account across all addresses before further attempts are refused (absent: no such limit). */
  accountMaxFailures?: number | undefined;
  /** Length of both windows, counted from the first failure. */
  windowMs: number;
}

export interface LoginLimiterOptions extends LoginLimits {
  /** Default: a MemoryCounterStore. */
  store?: CounterStore;
  /** Prepended to every key, so that services sharing one store keep their counts apart. */
  keyPrefix?: string;
  now?: () => number;
  /**
   * Message of the 503 answered while the store cannot be reached (the service's language);
   * default English.
   */
  unavailableMessage?: string;
  /** Retry-After of that 503, in seconds (default 5). */
  unavailableRetryAfterSeconds?: number;
  /**
   * Counted here, where both are decided, for every service using the limiter: logins refused
   * for wrong credentials and logins refused because a limit is spent (prom-client counters).
   */
  counters?: { failed: { inc(): void }; throttled: { inc(): void } };
}

export type LoginAttempt<T> =
  { limited: true; retryAfterSeconds: number } | { limited: false; account: T | null };

/** Retry-After when only attempts still being checked fill a limit: they settle within moments. */
const IN_FLIGHT_RETRY_MS = 1_000;

/**
 * The login limit fails closed: while its store (Redis, when shared) cannot be reached, logins are
 * refused with this 503 and `Retry-After` rather than checked without a limit, which would give a
 * password guesser unlimited attempts for as long as the outage lasts. The connection, not each
 * refused login, logs the outage (openSharedState: one warning when it starts, one line when it ends).
 */
export const loginUnavailable = (message: string, retryAfterSeconds: number) =>
  new HttpError(503, message, { 'retry-after': String(retryAfterSeconds) });

/**
 * Failed logins counted in two scopes: per client address and account (one client guessing),
 * and per account alone (many addresses guessing the same account, at a higher threshold). When
 * either is exhausted, attempts are refused until its window ends, without checking the password;
 * refused attempts do not count, so a window is never extended and the owner waits at most one
 * window. A failure counts in both scopes. A success clears the address+account count only: the
 * account count measures guessing from everywhere else, and clearing it would hand a distributed
 * attacker a fresh budget every time the owner logs in.
 *
 * Attempts still being checked count towards the limits (in this process, in arrival order), so a
 * burst of parallel guesses cannot all pass the check before the first failure is recorded.
 *
 * When the store fails (a shared store that cannot be reached), `attempt` throws the 503 of
 * `loginUnavailable` before checking the password, and also when a failure cannot be recorded: the
 * limit fails closed. A success whose count cannot be cleared still succeeds.
 */
export class LoginLimiter {
  private readonly store: CounterStore;
  private readonly prefix: string;
  private readonly now: () => number;
  /** Per key, the attempts being checked now, in arrival order. */
  private readonly inFlight = new Map<string, Set<number>>();
  private sequence = 0;

  constructor(private readonly options: LoginLimiterOptions) {
    this.now = options.now ?? (() => Date.now());
    this.store = options.store ?? new MemoryCounterStore({ now: this.now });
    this.prefix = options.keyPrefix ?? '';
  }

  /**
   * Runs `check` (the password verification: the account, or null when the credentials are
   * wrong) unless a limit is exhausted. `account` must already be in its canonical form (trimmed,
   * lower-cased), so that spellings of one account share their counts.
   */
  async attempt<T>(
    address: string,
    account: string,
    check: () => Promise<T | null>,
  ): Promise<LoginAttempt<T>> {
    const { maxFailures, accountMaxFailures = Infinity, windowMs } = this.options;
    const addressKey = `${this.prefix}login:a:${address}\u0000${account}`;
    const scopes = [
      { key: addressKey, max: maxFailures },
      { key: `${this.prefix}login:u:${account}`, max: accountMaxFailures },
    ].filter(({ max }) => Number.isFinite(max));
    // Registered before the counts are read, so that concurrent attempts see each other.
    const ticket = (this.sequence += 1);
    for (const { key } of scopes) {
      const pending = this.inFlight.get(key) ?? new Set<number>();
      this.inFlight.set(key, pending.add(ticket));
    }
    try {
      const counts = await this.stored(Promise.all(scopes.map(({ key }) => this.store.get(key))));
      const now = this.now();
      let waitMs = 0;
      scopes.forEach(({ key, max }, i) => {
        const current = counts[i];
        const failures = current?.count ?? 0;
        if (current && failures >= max) waitMs = Math.max(waitMs, current.resetAt - now);
        else if (failures + this.earlierInFlight(key, ticket, max - failures) >= max)
          waitMs = Math.max(waitMs, IN_FLIGHT_RETRY_MS);
      });
      if (waitMs > 0) {
        this.options.counters?.throttled.inc();
        return { limited: true, retryAfterSeconds: Math.ceil(waitMs / 1000) };
      }

      const result = await check();
      if (result === null) {
        this.options.counters?.failed.inc();
        await this.stored(
          Promise.all(scopes.map(({ key }) => this.store.increment(key, windowMs))),
        );
      } else if (scopes.some(({ key }) => key === addressKey)) {
        // The owner proved the password; an uncleared count only ends with its window.
        await this.store.reset(addressKey).catch(() => undefined);
      }
      return { limited: false, account: result };
    } finally {
      for (const { key } of scopes) {
        const pending = this.inFlight.get(key);
        pending?.delete(ticket);
        if (pending?.size === 0) this.inFlight.delete(key);
      }
    }
  }

  /** `operation`, with a store failure turned into the 503 of an unavailable login. */
  private async stored<R>(operation: Promise<R>): Promise<R> {
    try {
      return await operation;
    } catch {
      throw loginUnavailable(
        this.options.unavailableMessage ?? 'Login temporarily unavailable, retry later',
        this.options.unavailableRetryAfterSeconds ?? 5,
      );
    }
  }

  /** Attempts on `key` that arrived before `ticket` and are still being checked, counted up to `cap`. */
  private earlierInFlight(key: string, ticket: number, cap: number): number {
    let earlier = 0;
    // Sets iterate in insertion order, which is arrival order.
    for (const other of this.inFlight.get(key) ?? []) {
      if (other >= ticket || earlier >= cap) break;
      earlier += 1;
    }
    return earlier;
  }
}

/** The 429 of a refused login, with `Retry-After`. */
export const tooManyLoginFailures = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, { 'retry-after': String(retryAfterSeconds) });
