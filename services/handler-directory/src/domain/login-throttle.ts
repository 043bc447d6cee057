/**
 * Counts failed logins per key (client IP + lower-cased username) in a fixed window that starts
 * with the first failure. Once `maxFailures` are reached, further attempts for that key are
 * refused until the window ends, without checking the password. Successful logins are not
 * counted and clear the key. The counts live in this process: with several instances each
 * counts on its own (the per-IP route limit still applies).
 */
export class LoginThrottle {
  private readonly failures = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    /** Entries kept at most; the oldest are dropped first, so a flood cannot exhaust memory. */
    private readonly maxEntries = 100_000,
  ) {}

  static key(ip: string, username: string): string {
    return `${ip}\u0000${username.trim().toLowerCase()}`;
  }

  /** Seconds until the key may try again; 0 when it may try now. */
  retryAfterSeconds(key: string): number {
    const entry = this.failures.get(key);
    if (!entry) return 0;
    const remaining = entry.resetAt - this.now();
    if (remaining <= 0) {
      this.failures.delete(key);
      return 0;
    }
    return entry.count >= this.maxFailures ? Math.ceil(remaining / 1000) : 0;
  }

  recordFailure(key: string): void {
    const now = this.now();
    const entry = this.failures.get(key);
    if (entry && entry.resetAt > now) {
      entry.count += 1;
      return;
    }
    this.failures.delete(key);
    if (this.failures.size >= this.maxEntries) this.evict(now);
    this.failures.set(key, { count: 1, resetAt: now + this.windowMs });
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private evict(now: number): void {
    for (const [key, entry] of this.failures) {
      if (entry.resetAt <= now) this.failures.delete(key);
    }
    // Maps iterate in insertion order: the first keys are the oldest windows.
    for (const key of this.failures.keys()) {
      if (this.failures.size < this.maxEntries) break;
      this.failures.delete(key);
    }
  }
}
