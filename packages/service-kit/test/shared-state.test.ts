/**
 * Shared state on a real Redis (Debian's redis-server, installed by the package's test script when
 * missing; never mocked): rate-limiter-flexible's Redis counters (the login limiter's) against its
 * in-memory ones, two "replicas" sharing login lockouts and rate limits, and a Redis stopped and restarted under them; the invalidation
 * signal between two SharedStates (in memory and through Redis, across an outage) and KeptCopy.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePort, RedisServer } from '@dogshop/child-processes';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterAbstract,
  type RateLimiterRes,
} from 'rate-limiter-flexible';
import { errorEnvelope } from '../src/error-envelope.js';
import { unauthorized } from '../src/http-error.js';
import { LoginLimiter, tooManyLoginFailures } from '../src/login-limiter.js';
import { securityDefaults } from '../src/security.js';
import { KeptCopy } from '../src/kept-copy.js';
import {
  openSharedState,
  type InvalidationCause,
  type SharedState,
  type SharedStateLog,
} from '../src/shared-state.js';

/** A log that keeps its lines, to count the warnings of an outage. */
function recordingLog() {
  const lines: { level: 'warn' | 'info'; message: string }[] = [];
  const log: SharedStateLog = {
    warn: (_object, message) => lines.push({ level: 'warn', message }),
    info: (_object, message) => lines.push({ level: 'info', message }),
  };
  return { log, lines, warnings: () => lines.filter((l) => l.level === 'warn').length };
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(50);
  }
}

const LOGIN_MAX_FAILURES = 5;
const RATE_LIMIT = 8;

/**
 * One replica: its own connection (openSharedState), the global rate limit of securityDefaults
 * on Redis, and a login route throttled by a LoginLimiter on the same connection.
 */
async function replica(url: string | undefined, log: SharedStateLog) {
  const shared = await openSharedState({ url, keyPrefix: 'test:', log });
  const app = Fastify();
  app.addHook('onClose', async () => shared.close());
  await app.register(errorEnvelope, {
    body: (status, message) => ({ success: false, error: message, status_code: status }),
  });
  await app.register(securityDefaults, {
    corsOrigins: [],
    rateLimitPerMinute: RATE_LIMIT,
    rateLimitRedis: shared.rateLimitRedis,
    rateLimitNameSpace: shared.rateLimitNameSpace,
  });
  const limiter = new LoginLimiter({
    maxFailures: LOGIN_MAX_FAILURES,
    windowMs: 60_000,
    redis: shared.rateLimitRedis,
    keyPrefix: 'test:',
  });
  let checks = 0;
  app.post('/login', { config: { rateLimit: false } }, async (request) => {
    const { account, password } = request.body as { account: string; password: string };
    const result = await limiter.attempt(request.ip, account, async () => {
      checks += 1;
      return password === 'right' ? { account } : null;
    });
    if (result.limited) throw tooManyLoginFailures('Too many', result.retryAfterSeconds);
    if (!result.account) throw unauthorized('Wrong e-mail or password');
    return { success: true };
  });
  app.get('/ping', async () => ({ pong: true }));
  await app.ready();
  return { app, shared, checks: () => checks };
}

const login = (app: FastifyInstance, account: string, password = 'wrong') =>
  app.inject({ method: 'POST', url: '/login', payload: { account, password } });
const ping = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/ping' });

let server: RedisServer;
/** A connection of the test's own, to look at keys. */
let probe: Redis;

beforeAll(async () => {
  server = new RedisServer(await freePort());
  await server.start();
  probe = new Redis(server.url, { lazyConnect: true });
  await probe.connect();
});

afterAll(async () => {
  probe?.disconnect();
  await server?.remove();
});

/**
 * A rate-limiter-flexible counter seen as the counter store these tests were first written for:
 * they pin the fixed windows LoginLimiter relies on (started by the first count, not extended by
 * later ones, expiring in Redis with the key).
 */
function counters(limiter: RateLimiterAbstract) {
  const window = (res: RateLimiterRes) => ({
    count: res.consumedPoints,
    resetAt: Date.now() + res.msBeforeNext,
  });
  return {
    increment: async (key: string, windowMs: number) =>
      window(await limiter.penalty(key, 1, { customDuration: windowMs / 1000 })),
    get: async (key: string) => {
      const res = await limiter.get(key);
      return res && window(res);
    },
    reset: async (key: string) => void (await limiter.delete(key)),
  };
}
type Counters = ReturnType<typeof counters>;
const COUNTER_SETTINGS = { points: 1, duration: 60 };

describe.each([
  [
    'RateLimiterMemory',
    () => ({ store: counters(new RateLimiterMemory(COUNTER_SETTINGS)), close: async () => {} }),
  ],
  [
    'RateLimiterRedis',
    () => {
      const redis = new Redis(server.url);
      return {
        store: counters(new RateLimiterRedis({ ...COUNTER_SETTINGS, storeClient: redis })),
        close: async () => void (await redis.quit()),
      };
    },
  ],
] as [string, () => { store: Counters; close: () => Promise<void> }][])('%s', (_name, open) => {
  let store: Counters;
  let close: () => Promise<void>;
  beforeAll(() => {
    ({ store, close } = open());
  });
  afterAll(async () => close());

  it('counts in a fixed window that starts with the first increment', async () => {
    const key = `window:${Math.random()}`;
    expect(await store.get(key)).toBeNull();
    const before = Date.now();
    const first = await store.increment(key, 60_000);
    expect(first.count).toBe(1);
    expect(first.resetAt).toBeGreaterThanOrEqual(before + 60_000 - 50);
    expect(first.resetAt).toBeLessThanOrEqual(Date.now() + 60_000);
    await sleep(1_000);
    // Later increments do not extend the window (which would move its end by the second slept;
    // the rest is the round trip's jitter on a loaded machine).
    const second = await store.increment(key, 60_000);
    expect(second.count).toBe(2);
    expect(Math.abs(second.resetAt - first.resetAt)).toBeLessThan(500);
    const read = await store.get(key);
    expect(read?.count).toBe(2);
    expect(Math.abs((read?.resetAt ?? 0) - first.resetAt)).toBeLessThan(500);
  });

  it('forgets a key on reset', async () => {
    const key = `reset:${Math.random()}`;
    await store.increment(key, 60_000);
    await store.increment(key, 60_000);
    await store.reset(key);
    expect(await store.get(key)).toBeNull();
    expect((await store.increment(key, 60_000)).count).toBe(1);
  });

  it('expires a window and starts a new one at the next increment', async () => {
    const key = `expiry:${Math.random()}`;
    // Windows are whole seconds in rate-limiter-flexible's Redis store.
    await store.increment(key, 1_000);
    await store.increment(key, 1_000);
    await sleep(1_100);
    expect(await store.get(key)).toBeNull();
    const fresh = await store.increment(key, 1_000);
    expect(fresh.count).toBe(1);
    expect(fresh.resetAt).toBeGreaterThan(Date.now());
  });
});

describe('RateLimiterRedis keys', () => {
  it('always carry an expiry, set in the same script as the first increment', async () => {
    const redis = new Redis(server.url);
    try {
      const store = counters(
        new RateLimiterRedis({ ...COUNTER_SETTINGS, storeClient: redis, keyPrefix: 'p' }),
      );
      await store.increment('k', 60_000);
      const ttl = await probe.pttl('p:k');
      expect(ttl).toBeGreaterThan(59_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
      // A key left without expiry (not by this store) is given one at its next increment.
      await probe.set('p:bare', '3');
      expect((await store.increment('bare', 60_000)).count).toBe(4);
      expect(await probe.pttl('p:bare')).toBeGreaterThan(59_000);
    } finally {
      await redis.quit();
    }
  });
});

describe('LoginLimiter on Redis', () => {
  it('keeps the counts of limiters with different key prefixes apart on one store', async () => {
    const redis = new Redis(server.url, { lazyConnect: true });
    await redis.connect(); // a limiter refuses (503) while its connection is not ready
    try {
      const limits = { maxFailures: 1, accountMaxFailures: 1, windowMs: 60_000, redis };
      const shop = new LoginLimiter({ ...limits, keyPrefix: 'shop:' });
      const directory = new LoginLimiter({ ...limits, keyPrefix: 'directory:' });
      await shop.attempt('10.0.0.1', 'anna', async () => null);
      expect((await shop.attempt('10.0.0.1', 'anna', async () => null)).limited).toBe(true);
      expect((await directory.attempt('10.0.0.1', 'anna', async () => null)).limited).toBe(false);
    } finally {
      await redis.quit();
    }
  });

  it('counts attempts still being checked on every replica: a parallel burst over two reaches the check 3 times', async () => {
    const connections = [new Redis(server.url), new Redis(server.url)];
    await Promise.all(connections.map((redis) => until(() => redis.status === 'ready')));
    try {
      const [a, b] = connections.map(
        (redis) =>
          new LoginLimiter({ maxFailures: 3, windowMs: 60_000, redis, keyPrefix: 'burst:' }),
      );
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      let checks = 0;
      const guesses = Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? a! : b!).attempt('10.0.0.1', 'anna', async () => {
          checks += 1;
          await gate;
          return null;
        }),
      );
      await sleep(100); // every attempt has asked Redis before any check ends
      release();
      const results = await Promise.all(guesses);
      expect(checks).toBe(3);
      expect(results.filter((r) => r.limited)).toHaveLength(7);
    } finally {
      await Promise.all(connections.map((redis) => redis.quit()));
    }
  });
});

describe('openSharedState', () => {
  it('keeps everything in memory without a URL', async () => {
    const { log, lines } = recordingLog();
    const shared = await openSharedState({ url: undefined, keyPrefix: 'x:', log });
    expect(shared.kind).toBe('memory');
    expect(shared.rateLimitRedis).toBeUndefined();
    await shared.close();
    expect(lines).toEqual([]);
  });

  it('starts without a reachable Redis, warns once and refuses logins (503) until it answers', async () => {
    const { log, warnings } = recordingLog();
    const port = await freePort();
    const started = Date.now();
    const { app, shared, checks } = await replica(`redis://127.0.0.1:${port}`, log);
    try {
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(shared.kind).toBe('redis');
      for (let i = 0; i < 3; i += 1) {
        const answer = await login(app, 'owner@example.com');
        expect(answer.statusCode).toBe(503);
        expect(answer.headers['retry-after']).toBe('5');
        expect(answer.json()).toEqual({
          success: false,
          error: 'Login temporarily unavailable, retry later',
          status_code: 503,
        });
        expect((await ping(app)).statusCode).toBe(200);
      }
      // Fail closed without checking the password; one warning for the whole outage.
      expect(checks()).toBe(0);
      expect(warnings()).toBe(1);
    } finally {
      await app.close();
    }
  });
});

describe('two replicas on one Redis', () => {
  let a: Awaited<ReturnType<typeof replica>>;
  let b: Awaited<ReturnType<typeof replica>>;
  const logs = recordingLog();

  beforeAll(async () => {
    await probe.flushall();
    a = await replica(server.url, logs.log);
    b = await replica(server.url, logs.log);
  });
  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
  });

  it('share one login lockout: the 6th failure is 429 on either replica', async () => {
    for (let i = 0; i < LOGIN_MAX_FAILURES; i += 1) {
      const answer = await login(i % 2 === 0 ? a.app : b.app, 'shared@example.com');
      expect(answer.statusCode).toBe(401);
    }
    for (const { app } of [a, b]) {
      const answer = await login(app, 'shared@example.com');
      expect(answer.statusCode).toBe(429);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(55);
      expect(answer.json()).toMatchObject({ success: false, status_code: 429 });
    }
    expect(a.checks() + b.checks()).toBe(LOGIN_MAX_FAILURES);
    // The keys are the service's own (prefix) and expire with the window.
    const keys = await probe.keys('test:login:*');
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(await probe.pttl(key)).toBeGreaterThan(0);
  });

  it('share one rate limit: the (N+1)th request over both replicas is 429', async () => {
    for (let i = 0; i < RATE_LIMIT; i += 1) {
      expect((await ping(i % 2 === 0 ? a.app : b.app)).statusCode).toBe(200);
    }
    for (const { app } of [a, b]) {
      const answer = await ping(app);
      expect(answer.statusCode).toBe(429);
      expect(answer.headers['retry-after']).toBeDefined();
      expect(answer.json()).toMatchObject({ success: false, status_code: 429 });
    }
    expect((await probe.keys('test:rate-limit:*')).length).toBe(1);
  });

  it('with Redis stopped: logins 503 with Retry-After (closed), limited routes answer (open); both recover', async () => {
    await server.stop();
    await until(() => a.shared.rateLimitRedis?.status !== 'ready');
    await until(() => b.shared.rateLimitRedis?.status !== 'ready');
    const checksBefore = a.checks() + b.checks();

    for (let i = 0; i < 4; i += 1) {
      for (const { app } of [a, b]) {
        const started = Date.now();
        const refused = await login(app, `other${i}@example.com`);
        expect(refused.statusCode).toBe(503);
        expect(refused.headers['retry-after']).toBe('5');
        expect(refused.json()).toMatchObject({ success: false, status_code: 503 });
        // Over the limit before the outage, and answered all the same: the limit fails open.
        expect((await ping(app)).statusCode).toBe(200);
        expect(Date.now() - started).toBeLessThan(1_500);
      }
    }
    expect(a.checks() + b.checks()).toBe(checksBefore);
    // One warning per connection (replica) for the whole outage, not one per request.
    expect(logs.warnings()).toBe(2);

    // Back on the same port (empty: no persistence); both replicas reconnect by themselves.
    await server.start();
    await until(() => a.shared.rateLimitRedis?.status === 'ready');
    await until(() => b.shared.rateLimitRedis?.status === 'ready');
    expect(logs.lines.filter((l) => l.level === 'info')).toHaveLength(2);

    for (let i = 0; i < LOGIN_MAX_FAILURES; i += 1) {
      expect((await login(i % 2 === 0 ? b.app : a.app, 'after@example.com')).statusCode).toBe(401);
    }
    expect((await login(a.app, 'after@example.com')).statusCode).toBe(429);
    expect((await login(b.app, 'after@example.com')).statusCode).toBe(429);
    // The right password still gets in for an account nobody guessed at.
    expect((await login(b.app, 'owner@example.com', 'right')).statusCode).toBe(200);

    for (let i = 0; i < RATE_LIMIT; i += 1) {
      expect((await ping(i % 2 === 0 ? b.app : a.app)).statusCode).toBe(200);
    }
    expect((await ping(a.app)).statusCode).toBe(429);
    expect((await ping(b.app)).statusCode).toBe(429);
  }, 30_000);
});

/** Records what each listener of a topic was told. */
function listen(shared: SharedState, topic: string) {
  const heard: InvalidationCause[] = [];
  const unsubscribe = shared.invalidation.subscribe(topic, (cause) => heard.push(cause));
  return { heard, unsubscribe };
}

describe('invalidation in memory', () => {
  it('reaches every SharedState of the process with the same prefix, the publisher’s included', async () => {
    const { log } = recordingLog();
    const a = await openSharedState({ url: undefined, keyPrefix: 'mem:', log });
    const b = await openSharedState({ url: undefined, keyPrefix: 'mem:', log });
    const other = await openSharedState({ url: undefined, keyPrefix: 'other:', log });
    try {
      expect(a.invalidation.listening).toBe(true);
      const onA = listen(a, 'handlers');
      const onB = listen(b, 'handlers');
      const otherTopic = listen(b, 'api-keys');
      const otherPrefix = listen(other, 'handlers');
      expect(await a.invalidation.publish('handlers')).toBe(true);
      expect(onA.heard).toEqual(['published']);
      expect(onB.heard).toEqual(['published']);
      expect(otherTopic.heard).toEqual([]);
      expect(otherPrefix.heard).toEqual([]);
      onB.unsubscribe();
      await a.invalidation.publish('handlers');
      expect(onB.heard).toEqual(['published']);
      expect(onA.heard).toEqual(['published', 'published']);
    } finally {
      await Promise.all([a.close(), b.close(), other.close()]);
    }
    // A closed SharedState hears nothing more.
    const c = await openSharedState({ url: undefined, keyPrefix: 'mem:', log });
    const onC = listen(c, 'handlers');
    await c.invalidation.publish('handlers');
    expect(onC.heard).toEqual(['published']);
    await c.close();
  });
});

describe('invalidation through Redis', () => {
  const logs = recordingLog();
  let a: SharedState;
  let b: SharedState;

  beforeAll(async () => {
    a = await openSharedState({ url: server.url, keyPrefix: 'inv:', log: logs.log });
    b = await openSharedState({ url: server.url, keyPrefix: 'inv:', log: logs.log });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('is listening once open, and a publish on one replica reaches the other (and itself once)', async () => {
    expect(a.invalidation.listening).toBe(true);
    expect(b.invalidation.listening).toBe(true);
    const onA = listen(a, 'handlers');
    const onB = listen(b, 'handlers');
    const onBOther = listen(b, 'api-keys');
    try {
      expect(await a.invalidation.publish('handlers')).toBe(true);
      // The publisher's own listeners before publish resolves, the other replica's through Redis.
      expect(onA.heard).toEqual(['published']);
      await until(() => onB.heard.length === 1);
      expect(onB.heard).toEqual(['published']);
      await b.invalidation.publish('api-keys');
      await until(() => onBOther.heard.length === 1);
      await sleep(100);
      // Not heard back from Redis by its publisher, nor under another topic.
      expect(onA.heard).toEqual(['published']);
      expect(onB.heard).toEqual(['published']);
      expect(onBOther.heard).toEqual(['published']);
      // One channel per service; the message names the topic.
      expect(await probe.pubsub('NUMSUB', 'inv:invalidation')).toEqual(['inv:invalidation', 2]);
    } finally {
      onA.unsubscribe();
      onB.unsubscribe();
      onBOther.unsubscribe();
    }
  });

  it('tells listeners to drop their copies when the subscription drops and again when it is back', async () => {
    const onA = listen(a, 'handlers');
    const onB = listen(b, 'handlers');
    try {
      await server.stop();
      await until(() => !a.invalidation.listening && !b.invalidation.listening);
      expect(onA.heard).toEqual(['missed']);
      expect(onB.heard).toEqual(['missed']);

      // A publish while Redis is down: refused at once, delivered in its own process all the same.
      const failed = Date.now();
      expect(await a.invalidation.publish('handlers')).toBe(false);
      expect(Date.now() - failed).toBeLessThan(500);
      expect(onA.heard).toEqual(['missed', 'published']);

      await server.start();
      await until(() => a.invalidation.listening && b.invalidation.listening);
      // Told again once subscribed again: whatever was published meanwhile is lost. (A's publish
      // is sent again when its connection is back, which B hears only if it had resubscribed.)
      await until(() => onB.heard.filter((cause) => cause === 'missed').length === 2);
      expect(onA.heard).toEqual(['missed', 'published', 'missed']);
      expect(await b.invalidation.publish('handlers')).toBe(true);
      await until(() => onA.heard.length === 4);
      expect(onA.heard.at(-1)).toBe('published');
    } finally {
      onA.unsubscribe();
      onB.unsubscribe();
    }
  }, 30_000);

  it('sends a publish Redis could not take once the publisher’s connection is back', async () => {
    const onB = listen(b, 'handlers');
    try {
      // Only A's shared connection drops (B stays subscribed): A's publish in between is refused…
      const id = await a.rateLimitRedis!.client('ID');
      await probe.client('KILL', 'ID', String(id));
      await until(() => a.rateLimitRedis!.status !== 'ready');
      expect(await a.invalidation.publish('handlers')).toBe(false);
      expect(b.invalidation.listening).toBe(true);
      // …and reaches B after A has reconnected.
      await until(() => onB.heard.length === 1);
      expect(onB.heard).toEqual(['published']);
      expect(a.rateLimitRedis!.status).toBe('ready');
    } finally {
      onB.unsubscribe();
    }
  });

  it('a subscriber connection killed by Redis (CLIENT KILL) is told, resubscribes and is told again', async () => {
    const onB = listen(b, 'handlers');
    try {
      await probe.client('KILL', 'TYPE', 'pubsub');
      await until(() => onB.heard.length >= 2 && b.invalidation.listening);
      expect(onB.heard).toEqual(['missed', 'missed']);
      await a.invalidation.publish('handlers');
      await until(() => onB.heard.length === 3);
      expect(onB.heard.at(-1)).toBe('published');
    } finally {
      onB.unsubscribe();
    }
  });
});

describe('KeptCopy', () => {
  const logs = recordingLog();
  let a: SharedState;
  let b: SharedState;
  beforeAll(async () => {
    a = await openSharedState({ url: server.url, keyPrefix: 'copy:', log: logs.log });
    b = await openSharedState({ url: server.url, keyPrefix: 'copy:', log: logs.log });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  /** A load function that counts its calls and answers the current `data`. */
  function source(initial: string) {
    const state = { data: initial, loads: 0 };
    const load = async () => {
      state.loads += 1;
      await sleep(10);
      return state.data;
    };
    return { state, load };
  }

  it('keeps one value until another replica publishes its topic; concurrent gets share a load', async () => {
    const { state, load } = source('v1');
    const copy = new KeptCopy<string>(b.invalidation, 'handlers');
    try {
      expect(await Promise.all([copy.get(load), copy.get(load), copy.get(load)])).toEqual([
        'v1',
        'v1',
        'v1',
      ]);
      expect(await copy.get(load)).toBe('v1');
      expect(state.loads).toBe(1);
      state.data = 'v2';
      await a.invalidation.publish('handlers');
      await until(async () => (await copy.get(load)) === 'v2');
      expect(state.loads).toBe(2);
      await a.invalidation.publish('other-topic');
      await sleep(50);
      expect(await copy.get(load)).toBe('v2');
      expect(state.loads).toBe(2);
    } finally {
      copy.close();
    }
  });

  it('does not keep a value whose load overlapped an invalidation', async () => {
    const { state, load } = source('old');
    const copy = new KeptCopy<string>(b.invalidation, 'handlers');
    try {
      const first = copy.get(async () => {
        const value = await load();
        // The write and its publish happen while this load is under way.
        state.data = 'new';
        await b.invalidation.publish('handlers');
        return value;
      });
      expect(await first).toBe('old');
      expect(await copy.get(load)).toBe('new');
    } finally {
      copy.close();
    }
  });

  it('keeps nothing while not listening, and a value at most maxAgeMs', async () => {
    let now = 0;
    const { state, load } = source('v');
    const memory = await openSharedState({ url: undefined, keyPrefix: 'copy-mem:', log: logs.log });
    const deaf = { ...memory.invalidation, listening: false };
    const uncached = new KeptCopy<string>(deaf, 'handlers');
    const aged = new KeptCopy<string>(memory.invalidation, 'handlers', {
      maxAgeMs: 1_000,
      now: () => now,
    });
    try {
      await uncached.get(load);
      await uncached.get(load);
      expect(state.loads).toBe(2);
      state.loads = 0;
      await aged.get(load);
      now = 999;
      await aged.get(load);
      expect(state.loads).toBe(1);
      now = 1_000;
      await aged.get(load);
      expect(state.loads).toBe(2);
    } finally {
      uncached.close();
      aged.close();
      await memory.close();
    }
  });
});
