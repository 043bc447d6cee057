import { Redis } from 'ioredis';
import { MemoryCounterStore, type CounterStore } from './login-limiter.js';
import { RedisCounterStore } from './redis-counter-store.js';
import { withoutCredentials } from './startup.js';

/** The two log levels openSharedState uses; a Fastify or pino logger fits. */
export interface SharedStateLog {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

export interface SharedStateOptions {
  /** `REDIS_URL`. Unset: everything stays in this process's memory, as with a single replica. */
  url?: string | undefined;
  /** The service's namespace in a Redis shared with other services, e.g. `shop:`. */
  keyPrefix: string;
  log: SharedStateLog;
  /** Bound of one connection attempt, and of the wait for Redis at start-up (default 2 s). */
  connectTimeoutMs?: number;
  /** Bound of one command, so a Redis that hangs fails like one that is gone (default 1 s). */
  commandTimeoutMs?: number;
}

/**
 * State that replicas of a service must share to behave like one process. With `REDIS_URL` it
 * lives in Redis, through one connection per process; without, in memory.
 *
 * What happens while Redis cannot be reached is decided per use:
 * - `counters` (the login limiter): its methods reject, and LoginLimiter fails closed (503 with
 *   Retry-After instead of unlimited password guesses).
 * - `rateLimitRedis` (@fastify/rate-limit): securityDefaults sets `skipOnError`, so the limits
 *   fail open (requests pass).
 * The connection logs one warning when an outage starts and one line when it ends, not one per
 * request.
 */
export interface SharedState {
  /** Where the state lives. */
  kind: 'redis' | 'memory';
  /** Counters with fixed windows, for LoginLimiter (`store`). */
  counters: CounterStore;
  /** The client for @fastify/rate-limit's Redis store; absent without REDIS_URL (in-memory store). */
  rateLimitRedis?: Redis;
  /** Prefix of the rate limiter's keys, so that services sharing a Redis count apart. */
  rateLimitNameSpace: string;
  // Cache invalidation (issue 13, item 1; the caches of the speed issue) belongs here, next to
  // the counters: e.g. `invalidation: { publish(topic, key), subscribe(topic, onMessage) }`, over
  // Redis pub/sub with REDIS_URL (publish on `redis`, subscribe on a `redis.duplicate()`, since a
  // subscribed connection runs no other command; its outage should fail towards short cache
  // lifetimes) and an in-process EventEmitter without. Not built yet.
  /** Ends the Redis connection (nothing to do in memory); for the app's onClose. */
  close(): Promise<void>;
}

/**
 * Opens the service's shared state: one Redis connection when `url` is set, memory otherwise.
 * Waits for Redis at most `connectTimeoutMs`; when it does not answer, the service starts anyway
 * (a Redis outage never takes the API down), logs a warning, and keeps reconnecting.
 */
export async function openSharedState(options: SharedStateOptions): Promise<SharedState> {
  const rateLimitNameSpace = `${options.keyPrefix}rate-limit:`;
  if (!options.url) {
    return {
      kind: 'memory',
      counters: new MemoryCounterStore(),
      rateLimitNameSpace,
      close: async () => {},
    };
  }
  const connectTimeout = options.connectTimeoutMs ?? 2_000;
  const where = withoutCredentials(options.url);
  const redis = new Redis(options.url, {
    connectTimeout,
    commandTimeout: options.commandTimeoutMs ?? 1_000,
    // Fail fast instead of queueing: while disconnected a command is refused at once (the login
    // answers 503, the rate limit lets the request pass), and one sent just before a connection
    // dropped is not retried more than once.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // Keep reconnecting, at most every 2 s, for as long as the outage lasts.
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    // How long close() lets a socket end cleanly before destroying it; ioredis also waits this
    // long on a socket an outage already closed, which would hold the process at shutdown.
    disconnectTimeout: 200,
  });

  let closing = false;
  let down = false;
  const wentDown = (reason: string) => {
    if (closing || down) return;
    down = true;
    options.log.warn(
      { redis: where, reason },
      'Redis unreachable: rate limits pass unchecked (fail open), logins answer 503 (fail closed) until it is back',
    );
  };
  redis.on('error', (error: Error & { code?: string }) => {
    wentDown(error.code ?? (error.message || error.name));
  });
  redis.on('close', () => wentDown('connection closed'));
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    options.log.info({ redis: where }, 'Redis reachable again: limits shared again');
  });

  const isReady = () => redis.status === 'ready';
  if (!isReady()) {
    let settle = () => {};
    const ready = new Promise<void>((resolve) => {
      settle = resolve;
      redis.once('ready', resolve);
    });
    const timer = setTimeout(settle, connectTimeout);
    await ready;
    clearTimeout(timer);
    redis.off('ready', settle);
    if (!isReady()) wentDown(`no answer within ${connectTimeout} ms at start-up`);
  }

  return {
    kind: 'redis',
    counters: new RedisCounterStore(redis),
    rateLimitRedis: redis,
    rateLimitNameSpace,
    close: async () => {
      closing = true;
      if (isReady()) {
        await redis.quit().catch(() => redis.disconnect());
      } else {
        redis.disconnect();
      }
    },
  };
}
