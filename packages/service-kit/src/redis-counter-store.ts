import type { Redis, Result } from 'ioredis';
import type { CounterStore, WindowCount } from './login-limiter.js';

/**
 * INCR, and PEXPIRE when the key is new (or, should it ever happen, has no expiry), in one script:
 * Redis runs it atomically, so no crash or lost connection between the two can leave a counter
 * that never expires. Returns the count and the window's remaining milliseconds.
 */
const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

/** GET and PTTL of one key in one script, so both describe the same moment. */
const READ = `
local count = redis.call('GET', KEYS[1])
if not count then return {0, -2} end
return {tonumber(count), redis.call('PTTL', KEYS[1])}
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    serviceKitCounterIncrement(key: string, windowMs: number): Result<[number, number], Context>;
    serviceKitCounterRead(key: string): Result<[number, number], Context>;
  }
}

/**
 * Counters in Redis, shared by every process that uses the same server: the same fixed windows as
 * MemoryCounterStore (INCR + PEXPIRE on the first increment, GET + PTTL, DEL). Key names are
 * given by the caller (LoginLimiter prefixes its keys per service) and `keyPrefix`.
 *
 * Errors are not hidden: when Redis cannot be reached every method rejects (fast, given a client
 * without an offline queue), and the caller decides whether that fails open or closed.
 */
export class RedisCounterStore implements CounterStore {
  private readonly now: () => number;
  private readonly prefix: string;

  constructor(
    private readonly redis: Redis,
    options: { keyPrefix?: string; now?: () => number } = {},
  ) {
    this.now = options.now ?? (() => Date.now());
    this.prefix = options.keyPrefix ?? '';
    // defineCommand runs the scripts by EVALSHA, loading them again after a Redis restart.
    if (typeof redis.serviceKitCounterIncrement !== 'function') {
      redis.defineCommand('serviceKitCounterIncrement', { numberOfKeys: 1, lua: INCREMENT });
      redis.defineCommand('serviceKitCounterRead', { numberOfKeys: 1, lua: READ });
    }
  }

  async increment(key: string, windowMs: number): Promise<WindowCount> {
    const window = Math.max(1, Math.ceil(windowMs));
    const [count, ttl] = await this.redis.serviceKitCounterIncrement(this.prefix + key, window);
    return { count, resetAt: this.now() + ttl };
  }

  async get(key: string): Promise<WindowCount | null> {
    const [count, ttl] = await this.redis.serviceKitCounterRead(this.prefix + key);
    // PTTL: -2 the key is gone (its window ended), -1 no expiry (never written so by us).
    if (count === 0 || ttl < 0) return null;
    return { count, resetAt: this.now() + ttl };
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}
