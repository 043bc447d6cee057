import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { HttpError, unauthorized } from './http-error.js';

export interface LoginLimits {
  /** Failures per client address and account before further attempts are refused. */
  maxFailures: number;
  /** Failures per account across all addresses before further attempts are refused (absent: no such limit). */
  accountMaxFailures?: number | undefined;
  /** Length of both windows, counted from the first failure; whole seconds (rounded up). */
  windowMs: number;
}

export interface LoginLimiterOptions extends LoginLimits {
  /**
   * Redis shared by the replicas (SharedState's `rateLimitRedis`), so that they count together;
   * absent: this process's memory.
   */
  redis?: Redis | undefined;
  /** Prepended to every key, so that services sharing one Redis keep their counts apart. */
  keyPrefix?: string;
  /**
   * Message of the 503 answered while Redis cannot be reached (the service's language); default
   * English.
   */
  unavailableMessage?: string;
  /** Retry-After of that 503, in seconds (default 5). */
  unavailableRetryAfterSeconds?: number;
  /** The 401 of wrong credentials (the same for an unknown account); default English. */
  failedMessage?: string;
  /** The 429 while a limit is spent; default English. */
  tooManyMessage?: (retryAfterSeconds: number) => string;
  /**
   * Counted here, where both are decided, for every service using the limiter: logins refused
   * for wrong credentials and logins refused because a limit is spent (prom-client counters).
   */
  counters?: { failed: { inc(): void }; throttled: { inc(): void } };
}

export type LoginAttempt<T> =
  { limited: true; retryAfterSeconds: number } | { limited: false; account: T | null };

/**
 * The login limit fails closed: while Redis cannot be reached, logins are refused with this 503
 * and `Retry-After` rather than checked without a limit, which would give a password guesser
 * unlimited attempts for as long as the outage lasts. The connection, not each refused login,
 * logs the outage (openSharedState: one warning when it starts, one line when it ends).
 */
export const loginUnavailable = (message: string, retryAfterSeconds: number) =>
  new HttpError(503, message, { 'retry-after': String(retryAfterSeconds) });

/** One scope's counter and this attempt's key in it. */
interface Scope {
  limiter: RateLimiterAbstract;
  key: string;
}

/**
 * Failed logins counted in two scopes, rate-limiter-flexible's "login endpoint protection": per
 * client address and account (one client guessing), and per account alone (many addresses
 * guessing the same account, at a higher threshold). When either is spent, attempts are refused
 * until its window ends, without checking the password; refused attempts do not count, so a
 * window is never extended and the owner waits at most one window. A failure counts in both
 * scopes. A success clears the address+account count only: the account count measures guessing
 * from everywhere else, and clearing it would hand a distributed attacker a fresh budget every
 * time the owner logs in.
 *
 * Each attempt takes its point before the password is checked, and gives it back unless the
 * check fails: so attempts still being checked count (across replicas, on Redis), and a burst of
 * parallel guesses cannot all pass the check before the first failure is recorded. The address
 * scope is taken first, so that an attempt refused there never holds a point of the account's.
 *
 * While Redis cannot be reached, `attempt` throws the 503 of `loginUnavailable` before checking
 * the password: the limit fails closed. A success whose count cannot be cleared still succeeds.
 *
 * In memory (no Redis) a key lives until its window ends, so memory grows with the failed
 * logins of one window; the password checks bound their rate.
 */
export class LoginLimiter {
  private readonly byAddress: RateLimiterAbstract | undefined;
  private readonly byAccount: RateLimiterAbstract | undefined;

  constructor(private readonly options: LoginLimiterOptions) {
    // rate-limiter-flexible counts windows in whole seconds.
    const duration = Math.max(1, Math.ceil(options.windowMs / 1000));
    const counter = (scope: string, points: number | undefined) => {
      if (points === undefined || !Number.isFinite(points)) return undefined;
      // Keys: `<prefix>login:a:<address>\0<account>` and `<prefix>login:u:<account>`.
      const settings = { points, duration, keyPrefix: `${options.keyPrefix ?? ''}login:${scope}` };
      return options.redis
        ? new RateLimiterRedis({
            ...settings,
            storeClient: options.redis,
            rejectIfRedisNotReady: true,
          })
        : new RateLimiterMemory(settings);
    };
    this.byAddress = counter('a', options.maxFailures);
    this.byAccount = counter('u', options.accountMaxFailures);
  }

  /**
   * A login as both services answer it: the account `check` returns, else a 401 (wrong
   * credentials, the same for an unknown account), or a 429 with Retry-After while a limit is
   * spent. Arguments as for `attempt`.
   */
  async login<T>(address: string, account: string, check: () => Promise<T | null>): Promise<T> {
    const attempt = await this.attempt(address, account, check);
    if (attempt.limited) {
      const seconds = attempt.retryAfterSeconds;
      const message =
        this.options.tooManyMessage?.(seconds) ??
        `Too many failed logins, retry in ${seconds} seconds`;
      throw tooManyLoginFailures(message, seconds);
    }
    if (!attempt.account) throw unauthorized(this.options.failedMessage ?? 'Invalid credentials');
    return attempt.account;
  }

  /**
   * Runs `check` (the password verification: the account, or null when the credentials are
   * wrong) unless a limit is spent. `account` must already be in its canonical form (trimmed,
   * lower-cased), so that spellings of one account share their counts.
   */
  async attempt<T>(
    address: string,
    account: string,
    check: () => Promise<T | null>,
  ): Promise<LoginAttempt<T>> {
    const addressScope = this.byAddress && {
      limiter: this.byAddress,
      key: `${address}\u0000${account}`,
    };
    const accountScope = this.byAccount && { limiter: this.byAccount, key: account };
    const scopes = [addressScope, accountScope].filter((scope) => scope !== undefined);

    const taken: Scope[] = [];
    for (const [i, scope] of scopes.entries()) {
      let refusal: unknown;
      try {
        await scope.limiter.consume(scope.key);
        taken.push(scope);
        continue;
      } catch (error) {
        refusal = error;
      }
      // The library refuses with a RateLimiterRes; anything else is Redis failing: closed.
      if (!(refusal instanceof RateLimiterRes)) {
        await this.giveBack(taken);
        throw this.unavailable();
      }
      await this.giveBack([...taken, scope]); // refused attempts do not count
      // A later scope spent too may end later: the answer names the last window to end.
      const later = await this.spentUntil(scopes.slice(i + 1));
      const waitMs = Math.max(refusal.msBeforeNext, ...later);
      this.options.counters?.throttled.inc();
      return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    }

    let result: T | null;
    try {
      result = await check();
    } catch (error) {
      await this.giveBack(taken); // a check that could not decide counts nothing
      throw error;
    }
    if (result === null) {
      this.options.counters?.failed.inc();
    } else {
      // The owner proved the password; an uncleared count only ends with its window.
      await Promise.all([
        addressScope?.limiter.delete(addressScope.key),
        this.giveBack(accountScope ? [accountScope] : []),
      ]).catch(() => undefined);
    }
    return { limited: false, account: result };
  }

  /** For each of `scopes` that is spent, the milliseconds until its window ends. */
  private async spentUntil(scopes: Scope[]): Promise<number[]> {
    const counts = await Promise.all(
      scopes.map(({ limiter, key }) => limiter.get(key).catch(() => null)),
    );
    return counts.flatMap((count, i) =>
      count && count.consumedPoints >= scopes[i]!.limiter.points ? [count.msBeforeNext] : [],
    );
  }

  /**
   * Returns the points of an attempt that counts nothing. Never rejects: a point Redis did not
   * take back counts as a failure until its window ends (closed, like the rest).
   */
  private async giveBack(scopes: Scope[]): Promise<void> {
    await Promise.all(
      scopes.map(async ({ limiter, key }) => {
        const { consumedPoints } = await limiter.reward(key);
        // A key at zero holds no failure: dropped, so that the next failure starts its own
        // window (below zero, the window ended meanwhile and the reward opened a new one).
        if (consumedPoints <= 0) await limiter.delete(key);
      }),
    ).catch(() => undefined);
  }

  private unavailable(): HttpError {
    return loginUnavailable(
      this.options.unavailableMessage ?? 'Login temporarily unavailable, retry later',
      this.options.unavailableRetryAfterSeconds ?? 5,
    );
  }
}

/** The 429 of a refused login, with `Retry-After`. */
export const tooManyLoginFailures = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, { 'retry-after': String(retryAfterSeconds) });
