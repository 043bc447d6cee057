// Two replicas of each service behind the real nginx gateway, sharing one PostgreSQL, one MongoDB
// (MONGODB_URI, else the wire-protocol stand-in) and one real Redis (Debian's redis-server): what
// "run more replicas" promises. Limits and lockouts hold across replicas, a write through one is
// read through the other at once, a replica killed under load costs no client request and no
// order, and a Redis outage is survived as the README's "Running at scale" says.
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { freePort, RedisServer, sleep, type RunningProcess } from '@dogshop/child-processes';
import { startMongo, startPostgres, type TestDatabase } from './support/databases.js';
import { locateNginx, startGateway, type Gateway } from './support/nginx.js';
import { INFRA_DIR, REPO_ROOT } from './support/paths.js';
import {
  DIRECTORY_ADMIN,
  migrateShop,
  SHOP_API_KEY,
  startHandlerDirectory,
  startShop,
  type RunningService,
} from './support/platform.js';

const SHOP_AUTH_RATE_LIMIT = 15;
const SHOP_LOGIN_MAX_FAILURES = 10; // the shop's default
const DIRECTORY_LOGIN_MAX_FAILURES = 5; // the directory's default

let dataDir: string;
let redis: RedisServer;
let postgres: TestDatabase;
let mongo: TestDatabase;
let sql: pg.Client;
let gateway: Gateway;
const processes: RunningProcess[] = [];
const shops: RunningService[] = [];
const directories: RunningService[] = [];
/** Figures for the note: printed once at the end. */
const figures: Record<string, unknown> = {};

const sharedEnv = () => ({
  REDIS_URL: redis.url,
  LOG_LEVEL: 'warn',
  // One hop, as behind the gateway: the tests below name their client address in X-Forwarded-For.
  TRUST_PROXY_HOPS: '1',
  RATE_LIMIT_PER_MINUTE: '100000', // the loads below come from one address
});

async function startShopReplica(index: number, port?: number): Promise<RunningService> {
  return startShop(
    {
      name: `shop-${index}`,
      port,
      dataDir: mkdtempSync(path.join(dataDir, `shop-${index}-`)),
      databaseUrl: postgres.url,
      env: { ...sharedEnv(), AUTH_RATE_LIMIT_PER_MINUTE: String(SHOP_AUTH_RATE_LIMIT) },
    },
    processes,
  );
}

async function startDirectoryReplica(index: number, port?: number): Promise<RunningService> {
  return startHandlerDirectory(
    {
      name: `handler-directory-${index}`,
      port,
      dataDir: mkdtempSync(path.join(dataDir, `handler-directory-${index}-`)),
      mongodbUri: mongo.url,
      env: { ...sharedEnv(), AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
    },
    processes,
  );
}

beforeAll(async () => {
  locateNginx(); // fail at once, with how to install it, before starting anything
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'infra-replicas-'));
  // nginx's workers drop root for `nobody`, who must reach the temporary files in here.
  chmodSync(dataDir, 0o755);
  redis = new RedisServer(await freePort());
  await redis.start();
  [postgres, mongo] = await Promise.all([startPostgres(), startMongo()]);
  await migrateShop(postgres.url);
  sql = new pg.Client({ connectionString: postgres.url });
  await sql.connect();
  // One after the other within a service: the first replica loads the demo data into the empty
  // database, the second finds it there.
  await Promise.all([
    (async () => {
      shops.push(await startShopReplica(0));
      shops.push(await startShopReplica(1));
    })(),
    (async () => {
      directories.push(await startDirectoryReplica(0));
      directories.push(await startDirectoryReplica(1));
    })(),
  ]);
  const prefix = mkdtempSync(path.join(dataDir, 'gateway-'));
  chmodSync(prefix, 0o755);
  gateway = await startGateway({
    prefix,
    port: await freePort(),
    shopPorts: shops.map((s) => s.port),
    handlerDirectoryPorts: directories.map((d) => d.port),
    openapiFile: path.join(REPO_ROOT, 'openapi', 'gateway.json'),
    docsDir: path.join(INFRA_DIR, 'gateway', 'docs'),
  });
}, 120_000);

afterAll(async () => {
  await gateway?.stop();
  await Promise.all(processes.map((p) => p.stop('SIGTERM')));
  await sql?.end();
  await Promise.all([postgres?.stop(), mongo?.stop(), redis?.remove()]);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  console.log(`replica test figures:\n${JSON.stringify(figures, null, 2)}`);
}, 60_000);

interface Answer {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
}

/** One request to `base` (a replica or the gateway); never throws for an HTTP status. */
async function call(
  base: string,
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${url}`, {
    method: opts.method ?? 'GET',
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON (metrics, CSV): the status is what counts
  }
  return { status: res.status, headers: res.headers, json };
}

const replica = (service: RunningService) => `http://127.0.0.1:${service.port}`;
const apiKey = { 'x-api-key': SHOP_API_KEY };
/** A client address of its own for each scenario, so that limits of one do not touch another. */
const from = (address: string) => ({ 'x-forwarded-for': address });

async function directoryToken(base: string): Promise<string> {
  const login = await call(base, '/api/auth/login', { method: 'POST', body: DIRECTORY_ADMIN });
  expect(login.status).toBe(200);
  return login.json.token as string;
}

describe('limits shared through Redis', () => {
  it('the shop locks an account out on either replica after its 10th wrong password', async () => {
    const email = `lockout-${randomBytes(4).toString('hex')}@example.com`;
    const registered = await call(replica(shops[0]!), '/customers/register', {
      method: 'POST',
      headers: apiKey,
      body: { email, password: 'the right password 1', first_name: 'Lea', last_name: 'Förster' },
    });
    expect(registered.status).toBe(201);
    const attempt = (index: number) =>
      call(replica(shops[index % 2]!), '/customers/login', {
        method: 'POST',
        headers: { ...apiKey, ...from('198.51.100.10') },
        body: { email, password: 'a wrong password' },
      });
    for (let i = 0; i < SHOP_LOGIN_MAX_FAILURES; i++) expect((await attempt(i)).status).toBe(401);
    // The 11th and 12th, one on each replica: locked out, not rate limited (limit 15).
    for (const index of [0, 1]) {
      const locked = await attempt(index);
      expect({ replica: index, status: locked.status }).toEqual({ replica: index, status: 429 });
      expect(locked.json.error).not.toMatch(/^Too many requests/);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('the shop counts its login rate limit over both replicas', async () => {
    const attempt = (index: number) =>
      call(replica(shops[index % 2]!), '/customers/login', {
        method: 'POST',
        headers: { ...apiKey, ...from('198.51.100.11') },
        body: { email: `nobody-${index}@example.com`, password: 'whatever it is' },
      });
    for (let i = 0; i < SHOP_AUTH_RATE_LIMIT; i++) expect((await attempt(i)).status).toBe(401);
    for (const index of [0, 1]) {
      const limited = await attempt(index);
      expect({ replica: index, status: limited.status }).toEqual({ replica: index, status: 429 });
      expect(limited.json.error).toMatch(/^Too many requests/);
    }
  });

  it('the directory locks an account out on either replica after its 5th failure', async () => {
    const attempt = (index: number) =>
      call(replica(directories[index % 2]!), '/api/auth/login', {
        method: 'POST',
        headers: from('198.51.100.12'),
        body: { username: DIRECTORY_ADMIN.username, password: 'not the password' },
      });
    for (let i = 0; i < DIRECTORY_LOGIN_MAX_FAILURES; i++) {
      expect((await attempt(i)).status).toBe(401);
    }
    for (const index of [0, 1]) {
      const locked = await attempt(index);
      expect({ replica: index, status: locked.status }).toEqual({ replica: index, status: 429 });
      expect(locked.json.message).toMatch(/Anmeldeversuche/);
    }
    // The owner, from another address, is not locked out by a stranger's guesses.
    expect(
      (
        await call(replica(directories[1]!), '/api/auth/login', {
          method: 'POST',
          headers: from('198.51.100.13'),
          body: DIRECTORY_ADMIN,
        })
      ).status,
    ).toBe(200);
  });
});

describe('a write through one replica', () => {
  it('is in the other replica’s public list at once, and through the gateway', async () => {
    const names = (answer: Answer) =>
      (answer.json.data as Array<{ name: string }>).map((h) => h.name);
    // Both replicas (and the gateway) have served the list before the write.
    for (const base of [...directories.map(replica), gateway.url]) {
      expect((await call(base, '/api/public/users')).status).toBe(200);
    }
    const token = await directoryToken(replica(directories[0]!));
    const name = `Replik Hundeführer ${randomBytes(3).toString('hex')}`;
    const created = await call(replica(directories[0]!), '/api/users', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: { name, phone: '+49 30 555 0102', address: 'Hochsitzweg 3', type: 'SH' },
    });
    expect(created.status).toBe(201);
    expect(names(await call(replica(directories[1]!), '/api/public/users'))).toContain(name);
    expect(names(await call(gateway.url, '/api/public/users'))).toContain(name);
  });

  it('an availableUntil that passes leaves both replicas’ lists and the gateway’s copy, with no write', async () => {
    const names = (answer: Answer) =>
      (answer.json.data as Array<{ name: string }>).map((h) => h.name);
    const token = await directoryToken(replica(directories[0]!));
    const name = `Bald Weg ${randomBytes(3).toString('hex')}`;
    const created = await call(replica(directories[0]!), '/api/users', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: {
        name,
        phone: '+49 30 555 0103',
        availableUntil: new Date(Date.now() + 3_000).toISOString(),
      },
    });
    expect(created.status).toBe(201);
    const bases = [...directories.map(replica), gateway.url];
    // Every replica and the gateway keep the list with the handler in it.
    const before = await Promise.all(bases.map((base) => call(base, '/api/public/users')));
    for (const answer of before) expect(names(answer)).toContain(name);
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    for (const base of bases) {
      const after = await call(base, '/api/public/users');
      expect({ base, listed: names(after).includes(name) }).toEqual({ base, listed: false });
      expect(after.headers.get('etag')).not.toBe(before[0]!.headers.get('etag'));
    }
  });
});

describe('one replica killed under load', () => {
  it('costs no GET through the gateway', async () => {
    const killAfterMs = 1_500;
    const runMs = 5_000;
    let sent = 0;
    const failures: string[] = [];
    const started = Date.now();
    const worker = async (n: number) => {
      while (Date.now() - started < runMs) {
        const url = n % 2 === 0 ? '/products?limit=5' : '/api/public/users';
        sent++;
        try {
          const answer = await call(gateway.url, url, { headers: n % 2 === 0 ? apiKey : {} });
          if (answer.status !== 200) failures.push(`${url}: ${answer.status}`);
        } catch (error) {
          failures.push(`${url}: ${String(error)}`);
        }
      }
    };
    const killer = (async () => {
      await sleep(killAfterMs);
      await Promise.all([
        shops[1]!.process.stop('SIGKILL'),
        directories[1]!.process.stop('SIGKILL'),
      ]);
    })();
    try {
      await Promise.all([...Array.from({ length: 8 }, (_, n) => worker(n)), killer]);
    } finally {
      // Back to two replicas, on the same ports the gateway knows, for what follows.
      shops[1] = await startShopReplica(1, shops[1]!.port);
      directories[1] = await startDirectoryReplica(1, directories[1]!.port);
    }
    figures.getFailover = { sent, failed: failures.length, firstFailures: failures.slice(0, 5) };
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(100);
  }, 90_000);

  it('loses and doubles no order that clients retry with their Idempotency-Key', async () => {
    const products = await call(gateway.url, '/products?limit=1', { headers: apiKey });
    const product = (products.json.data as Array<{ id: number; name: string; price: number }>)[0]!;
    await sql.query('UPDATE products SET stock = 100000 WHERE id = $1', [product.id]);
    const stockBefore = 100_000;
    const email = `failover-${randomBytes(4).toString('hex')}@example.com`;
    const body = {
      customer_name: 'Failover Kundin',
      customer_email: email,
      items: [
        { product_id: product.id, product_name: product.name, quantity: 1, price: product.price },
      ],
    };
    const killAfterMs = 1_500;
    const runMs = 5_000;
    let requests = 0;
    let retried = 0;
    const acknowledged = new Set<number>();
    const refused: string[] = [];
    const started = Date.now();
    const placeOrder = async () => {
      const key = randomUUID();
      // The client's part of the promise: resend the same request under the same key until it has
      // an answer that says what happened.
      for (let attempt = 0; attempt < 100; attempt++) {
        if (attempt > 0) {
          retried++;
          await sleep(100);
        }
        requests++;
        let answer: Answer;
        try {
          answer = await call(gateway.url, '/orders', {
            method: 'POST',
            headers: { ...apiKey, 'idempotency-key': key },
            body,
          });
        } catch {
          continue; // no answer: unknown whether it was placed
        }
        if (answer.status === 201) {
          acknowledged.add((answer.json.data as { order_id: number }).order_id);
          return;
        }
        if (answer.status >= 500) continue; // the gateway's 502/503/504: unknown, so resend
        refused.push(`${answer.status} ${JSON.stringify(answer.json)}`);
        return;
      }
      refused.push(`no answer for ${key} after 100 attempts`);
    };
    const worker = async () => {
      while (Date.now() - started < runMs) await placeOrder();
    };
    const killer = (async () => {
      await sleep(killAfterMs);
      await shops[0]!.process.stop('SIGKILL');
    })();
    try {
      await Promise.all([...Array.from({ length: 6 }, () => worker()), killer]);
    } finally {
      shops[0] = await startShopReplica(0, shops[0]!.port);
    }

    const stored = await sql.query<{ id: number }>(
      'SELECT id FROM orders WHERE customer_email = $1 ORDER BY id',
      [email],
    );
    const stock = await sql.query<{ stock: number }>('SELECT stock FROM products WHERE id = $1', [
      product.id,
    ]);
    figures.orderFailover = {
      requests,
      retried,
      refused: refused.length,
      acknowledged: acknowledged.size,
      stored: stored.rowCount,
      stockBefore,
      stockAfter: stock.rows[0]!.stock,
    };
    expect(refused).toEqual([]);
    expect(acknowledged.size).toBeGreaterThan(20);
    expect(stored.rows.map((row) => row.id).sort((a, b) => a - b)).toEqual(
      [...acknowledged].sort((a, b) => a - b),
    );
    expect(stock.rows[0]!.stock).toBe(stockBefore - acknowledged.size);
  }, 120_000);
});

describe('Redis stopped mid-run', () => {
  it('keeps reads answering, refuses logins with 503 and Retry-After, and recovers', async () => {
    const token = await directoryToken(replica(directories[0]!)); // before: logins need Redis
    await redis.stop();
    try {
      for (const shop of shops) {
        expect((await call(replica(shop), '/products?limit=2', { headers: apiKey })).status).toBe(
          200,
        );
        const login = await call(replica(shop), '/customers/login', {
          method: 'POST',
          headers: { ...apiKey, ...from('198.51.100.20') },
          body: { email: 'anyone@example.com', password: 'any password at all' },
        });
        expect(login.status).toBe(503);
        expect(Number(login.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      for (const directory of directories) {
        expect((await call(replica(directory), '/api/public/users')).status).toBe(200);
        const login = await call(replica(directory), '/api/auth/login', {
          method: 'POST',
          headers: from('198.51.100.21'),
          body: DIRECTORY_ADMIN,
        });
        expect(login.status).toBe(503);
        expect(Number(login.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      // A write still reaches the other replica's readers: no replica trusts its copy of the
      // public list while it cannot hear invalidations.
      const name = `Ausfall Hundeführer ${randomBytes(3).toString('hex')}`;
      const created = await call(replica(directories[0]!), '/api/users', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: { name, phone: '+49 30 555 0103', address: 'Kanzelweg 4', type: 'SH' },
      });
      expect(created.status).toBe(201);
      const list = await call(replica(directories[1]!), '/api/public/users');
      expect((list.json.data as Array<{ name: string }>).map((h) => h.name)).toContain(name);
    } finally {
      await redis.start();
    }
    // Back: logins work again within a few seconds (ioredis reconnects at most every 2 s).
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (
        await call(replica(directories[1]!), '/api/auth/login', {
          method: 'POST',
          headers: from('198.51.100.22'),
          body: DIRECTORY_ADMIN,
        })
      ).status;
      if (status === 200) break;
      await sleep(200);
    }
    expect(status).toBe(200);
  }, 60_000);
});

describe('operations', () => {
  it('each replica answers /metrics with the request-duration histogram; the gateway does not', async () => {
    for (const service of [...shops, ...directories]) {
      const res = await fetch(`${replica(service)}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/^http_request_duration_seconds_bucket\{/m);
    }
    expect((await fetch(`${gateway.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${gateway.url}/api/metrics`)).status).toBe(404);
  });
});
