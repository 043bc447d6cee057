import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
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
 * lives in Redis, through one connection per process (plus one for the invalidation signal);
 * without, in memory.
 *
 * What happens while Redis cannot be reached is decided per use:
 * - `rateLimitRedis` for @fastify/rate-limit: securityDefaults sets `skipOnError`, so the limits
 *   fail open (requests pass).
 * - `rateLimitRedis` for LoginLimiter (login-failure counters): its commands reject, and the
 *   limiter fails closed (503 with Retry-After instead of unlimited password guesses).
 * - `invalidation` (the caches): fails towards correctness. A cache may keep a copy only while
 *   `invalidation.listening`, i.e. while this process is subscribed and so hears every
 *   invalidation of every replica; otherwise it reads through to the database on every use.
 *   When the subscription drops, and again when it is back (messages may have been missed in
 *   between), every listener is told to drop its copies (`'missed'`). A publish Redis could not
 *   take is still delivered in this process at once and sent again when the connection is back.
 * The connection logs one warning when an outage starts and one line when it ends, not one per
 * request.
 */
export interface SharedState {
  /** Where the state lives. */
  kind: 'redis' | 'memory';
  /**
   * The client for the limits: @fastify/rate-limit's store and LoginLimiter's counters (`redis`);
   * absent without REDIS_URL (both count in memory).
   */
  rateLimitRedis?: Redis;
  /** Prefix of the rate limiter's keys, so that services sharing a Redis count apart. */
  rateLimitNameSpace: string;
  /** "This changed" signals between the replicas' caches (see Invalidation). */
  invalidation: Invalidation;
  /** Ends the Redis connections (nothing to do in memory); for the app's onClose. */
  close(): Promise<void>;
}

/** Why a listener must drop its copies: a replica changed the data, or messages may be lost. */
export type InvalidationCause = 'published' | 'missed';

/**
 * A signal that something changed, from any replica to every replica. A topic names what changed
 * (`handlers`, `api-keys`); the message carries nothing else, and a listener drops its copies.
 *
 * With Redis: one Pub/Sub channel per service (`<keyPrefix>invalidation`); messages are published
 * on the shared connection and heard on a second one (a subscribed connection runs no other
 * command). Pub/Sub delivers only to those subscribed at that moment, so a listener is also told
 * (`'missed'`) when the subscription drops and when it is back. In memory: an EventEmitter of the
 * process (every SharedState of the process with the same key prefix hears it).
 */
export interface Invalidation {
  /**
   * Tells every listener of `topic` on every replica. This process's listeners are called before
   * it returns; the others hear it through Redis. Never rejects: resolves true when Redis took
   * the message (in memory: always), false when it could not (Redis unreachable), in which case
   * the message is sent again as soon as the connection is back, while this process lives.
   */
  publish(topic: string): Promise<boolean>;
  /** Calls `onInvalidate` as described above until the returned function is called. */
  subscribe(topic: string, onInvalidate: (cause: InvalidationCause) => void): () => void;
  /**
   * Whether this process hears every publish of every replica now: always in memory; with Redis
   * while its subscription is confirmed. A cache keeps and serves a copy only while this is true.
   */
  readonly listening: boolean;
}

type InvalidationListener = (cause: InvalidationCause) => void;

/** The listeners of one SharedState, by topic. */
class Listeners {
  private readonly byTopic = new Map<string, Set<InvalidationListener>>();

  add(topic: string, listener: InvalidationListener): () => void {
    let set = this.byTopic.get(topic);
    if (!set) this.byTopic.set(topic, (set = new Set()));
    // A wrapper of its own, so that subscribing one function twice needs two unsubscribes.
    const entry: InvalidationListener = (cause) => listener(cause);
    set.add(entry);
    return () => {
      set.delete(entry);
      if (set.size === 0 && this.byTopic.get(topic) === set) this.byTopic.delete(topic);
    };
  }

  notify(topic: string, cause: InvalidationCause): void {
    for (const listener of [...(this.byTopic.get(topic) ?? [])]) listener(cause);
  }

  notifyAll(cause: InvalidationCause): void {
    for (const topic of [...this.byTopic.keys()]) this.notify(topic, cause);
  }
}

/** In memory, the invalidations of every SharedState of this process: event name = key prefix. */
const processBus = new EventEmitter().setMaxListeners(0);

function memoryInvalidation(keyPrefix: string): { invalidation: Invalidation; close(): void } {
  const listeners = new Listeners();
  const onMessage = (topic: string) => listeners.notify(topic, 'published');
  processBus.on(keyPrefix, onMessage);
  return {
    invalidation: {
      listening: true,
      publish: async (topic) => {
        processBus.emit(keyPrefix, topic);
        return true;
      },
      subscribe: (topic, onInvalidate) => listeners.add(topic, onInvalidate),
    },
    close: () => void processBus.off(keyPrefix, onMessage),
  };
}

/** The Pub/Sub message: the topic, and which SharedState sent it (it heard it already). */
interface InvalidationMessage {
  topic: string;
  from: string;
}

function parseMessage(text: string): InvalidationMessage | undefined {
  try {
    const message = JSON.parse(text) as Partial<InvalidationMessage> | null;
    if (typeof message?.topic === 'string' && typeof message.from === 'string') {
      return { topic: message.topic, from: message.from };
    }
  } catch {
    // not one of ours
  }
  return undefined;
}

/**
 * Opens the service's shared state: one Redis connection when `url` is set (and a second one
 * subscribed to the invalidation channel), memory otherwise. Waits for Redis at most
 * `connectTimeoutMs`; when it does not answer, the service starts anyway (a Redis outage never
 * takes the API down), logs a warning, and keeps reconnecting.
 */
export async function openSharedState(options: SharedStateOptions): Promise<SharedState> {
  const rateLimitNameSpace = `${options.keyPrefix}rate-limit:`;
  if (!options.url) {
    const memory = memoryInvalidation(options.keyPrefix);
    return {
      kind: 'memory',
      rateLimitNameSpace,
      invalidation: memory.invalidation,
      close: async () => memory.close(),
    };
  }
  // Loaded only with REDIS_URL: the client takes a quarter of a second to load.
  const { Redis } = await import('ioredis');
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
  // Subscribed again by hand on every connection (not ioredis's autoResubscribe), so that
  // `listening` turns true only once Redis has confirmed the subscription.
  const subscriber = redis.duplicate({ autoResubscribe: false });
  const channel = `${options.keyPrefix}invalidation`;
  const self = randomUUID();
  const listeners = new Listeners();
  let listening = false;
  /** Topics whose publish Redis did not take; sent when the connection is back. */
  const unsent = new Set<string>();

  let closing = false;
  let down = false;
  const wentDown = (reason: string) => {
    if (closing || down) return;
    down = true;
    options.log.warn(
      { redis: where, reason },
      'Redis unreachable: rate limits pass unchecked (fail open), logins answer 503 (fail closed), caches read through until it is back',
    );
  };
  redis.on('error', (error: Error & { code?: string }) => {
    wentDown(error.code ?? (error.message || error.name));
  });
  redis.on('close', () => wentDown('connection closed'));
  redis.on('ready', () => {
    for (const topic of unsent) {
      unsent.delete(topic);
      void publishToRedis(topic);
    }
    if (!down) return;
    down = false;
    options.log.info({ redis: where }, 'Redis reachable again: limits and caches shared again');
  });

  const publishToRedis = async (topic: string): Promise<boolean> => {
    try {
      await redis.publish(channel, JSON.stringify({ topic, from: self }));
      return true;
    } catch {
      if (!closing) unsent.add(topic);
      return false;
    }
  };

  // The subscription's own outages are the main connection's (one Redis): logged there.
  subscriber.on('error', () => {});
  subscriber.on('close', () => {
    if (!listening) return;
    listening = false;
    listeners.notifyAll('missed');
  });
  let subscribed = () => {};
  const firstSubscription = new Promise<void>((resolve) => (subscribed = resolve));
  subscriber.on('ready', () => {
    subscriber.subscribe(channel).then(
      () => {
        if (closing || subscriber.status !== 'ready') return;
        listening = true;
        // Whatever was published while not subscribed is lost: drop every copy.
        listeners.notifyAll('missed');
        subscribed();
      },
      // Not confirmed (e.g. timed out): a fresh connection tries again.
      () => {
        if (!closing) subscriber.disconnect(true);
      },
    );
  });
  subscriber.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    const message = parseMessage(text);
    if (message && message.from !== self) listeners.notify(message.topic, 'published');
  });

  const isReady = () => redis.status === 'ready';
  const connected = isReady() ? Promise.resolve() : new Promise((r) => redis.once('ready', r));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all([connected, firstSubscription]),
    new Promise((resolve) => (timer = setTimeout(resolve, connectTimeout))),
  ]);
  clearTimeout(timer);
  if (!isReady()) wentDown(`no answer within ${connectTimeout} ms at start-up`);

  const invalidation: Invalidation = {
    get listening() {
      return listening;
    },
    publish: async (topic) => {
      listeners.notify(topic, 'published');
      return publishToRedis(topic);
    },
    subscribe: (topic, onInvalidate) => listeners.add(topic, onInvalidate),
  };

  const end = async (connection: Redis) => {
    if (connection.status === 'ready') {
      await connection.quit().catch(() => connection.disconnect());
    } else {
      connection.disconnect();
    }
  };
  return {
    kind: 'redis',
    rateLimitRedis: redis,
    rateLimitNameSpace,
    invalidation,
    close: async () => {
      closing = true;
      listening = false;
      unsent.clear();
      await Promise.all([end(redis), end(subscriber)]);
    },
  };
}
