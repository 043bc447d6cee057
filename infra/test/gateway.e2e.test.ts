// The gateway end to end: a real nginx running infra/gateway/gateway.conf.template in front of both
// services (started as their images start them, on real databases). Every request below goes
// through the gateway only.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { locateNginx, startGateway, type Gateway } from './support/nginx.js';
import { INFRA_DIR, REPO_ROOT } from './support/paths.js';
import { DIRECTORY_ADMIN, SHOP_API_KEY, startPlatform, type Platform } from './support/platform.js';
import { freePort } from '@dogshop/child-processes';

let platform: Platform | undefined;
let gateway: Gateway | undefined;
let prefix: string | undefined;
// What the gateway serves itself (mounted the same way by compose.yaml).
const gatewayOpenapi = path.join(REPO_ROOT, 'openapi', 'gateway.json');
const gatewayDocs = path.join(INFRA_DIR, 'gateway', 'docs');
const timings: Array<[string, number]> = [];

beforeAll(async () => {
  locateNginx(); // fail at once, with how to install it, before starting anything
  const started = performance.now();
  prefix = mkdtempSync(path.join(os.tmpdir(), 'infra-gateway-'));
  // nginx's workers drop root for `nobody`, who must reach the temporary files in here.
  chmodSync(prefix, 0o755);
  platform = await startPlatform();
  gateway = await startGateway({
    prefix,
    port: await freePort(),
    shopPorts: [platform.shop.port],
    handlerDirectoryPorts: [platform.handlerDirectory.port],
    openapiFile: gatewayOpenapi,
    docsDir: gatewayDocs,
  });
  timings.push(['start databases, services and nginx', performance.now() - started]);
}, 90_000);

afterAll(async () => {
  await gateway?.stop();
  await platform?.stop();
  if (prefix) rmSync(prefix, { recursive: true, force: true });
  console.log(
    'gateway journey timings (ms):\n' +
      timings.map(([name, ms]) => `  ${name.padEnd(40)} ${ms.toFixed(0).padStart(6)}`).join('\n'),
  );
}, 30_000);

interface Call {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
}

async function call(url: string, opts: Call = {}) {
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  }
  const res = await fetch(`${gateway!.url}${url}`, {
    method: opts.method ?? 'GET',
    headers,
    body,
    redirect: 'manual',
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json: json as Record<string, unknown> };
}

const apiKey = { 'x-api-key': SHOP_API_KEY };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Retries an assertion for a moment: logs reach us a little after the response does. */
async function eventually(assertion: () => void, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      assertion();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

async function timed<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await fn();
  } finally {
    timings.push([name, performance.now() - started]);
  }
}

describe('customer journey through the gateway (shop)', () => {
  it('lists products, registers, logs in, reads the profile, orders, reviews and reads the order', async () => {
    await timed('customer journey (7 requests)', async () => {
      const products = await call('/products?limit=5', { headers: apiKey });
      expect(products.status).toBe(200);
      const product = (products.json.data as Array<Record<string, unknown>>).find(
        (p) => (p.stock as number) > 0,
      )!;
      expect(product).toBeDefined();

      const email = `e2e-${randomBytes(4).toString('hex')}@example.com`;
      const password = 'a good e2e password';
      const registered = await call('/customers/register', {
        method: 'POST',
        headers: apiKey,
        body: { email, password, first_name: 'Erika', last_name: 'Jäger' },
      });
      expect(registered.status).toBe(201);
      const customerId = (registered.json.data as { customer_id: number }).customer_id;

      const login = await call('/customers/login', {
        method: 'POST',
        headers: apiKey,
        body: { email, password },
      });
      expect(login.status).toBe(200);
      const token = (login.json.data as { token: string }).token;

      const profile = await call(`/customers/${customerId}/profile`, { headers: bearer(token) });
      expect(profile.status).toBe(200);
      expect(profile.json.data).toMatchObject({ email, first_name: 'Erika' });

      const order = await call('/orders', {
        method: 'POST',
        headers: apiKey,
        body: {
          customer_name: 'Erika Jäger',
          customer_email: email,
          items: [
            {
              product_id: product.id,
              product_name: product.name,
              quantity: 1,
              price: product.price,
            },
          ],
        },
      });
      expect(order.status).toBe(201);
      const orderId = (order.json.data as { order_id: number }).order_id;

      const review = await call(`/products/${String(product.id)}/reviews`, {
        method: 'POST',
        headers: bearer(token),
        body: {
          rating: 5,
          title: 'Through the gateway',
          comment: 'Ordered and reviewed end to end.',
        },
      });
      expect(review.status).toBe(201);

      const read = await call(`/orders/${orderId}`, { headers: apiKey });
      expect(read.status).toBe(200);
      expect(read.json.data).toMatchObject({ id: orderId, status: 'pending' });
    });
  });
});

describe('admin journey through the gateway (handler directory)', () => {
  it('logs in, creates a handler, hides it, sets its GPS position, exports CSV and deletes it', async () => {
    await timed('admin journey (9 requests)', async () => {
      const publicNames = async () => {
        const res = await call('/api/public/users');
        expect(res.status).toBe(200);
        return (res.json.data as Array<{ name: string }>).map((h) => h.name);
      };
      expect((await publicNames()).length).toBeGreaterThan(0);

      const login = await call('/api/auth/login', { method: 'POST', body: DIRECTORY_ADMIN });
      expect(login.status).toBe(200);
      const token = login.json.token as string;

      const name = `Gateway Hundeführer ${randomBytes(3).toString('hex')}`;
      const created = await call('/api/users', {
        method: 'POST',
        headers: bearer(token),
        body: { name, phone: '+49 30 555 0100', address: 'Forstweg 1, Berlin', type: 'SH' },
      });
      expect(created.status).toBe(201);
      const id = (created.json.data as { _id: string })._id;
      expect(await publicNames()).toContain(name);

      const hidden = await call(`/api/users/${id}/availability`, {
        method: 'PUT',
        headers: bearer(token),
        body: { available: false },
      });
      expect(hidden.status).toBe(200);
      expect(await publicNames()).not.toContain(name);

      const gps = await call(`/api/users/${id}/gps`, {
        method: 'PUT',
        headers: bearer(token),
        body: { lat: 52.52, lng: 13.405 },
      });
      expect(gps.status).toBe(200);
      expect(gps.json.data).toMatchObject({ gps: { lat: 52.52, lng: 13.405 } });

      const csv = await fetch(`${gateway!.url}/api/users/export?format=csv`, {
        headers: bearer(token),
      });
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="handlers-/);
      const bytes = Buffer.from(await csv.arrayBuffer());
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // UTF-8 byte-order mark
      expect(bytes.subarray(3).toString('utf8').split('\r\n')[0]).toBe(
        'id,name,address,phone,type,available,availableUntil,availabilityConfirmedAt,lat,lng,createdAt,updatedAt',
      );
      expect(bytes.toString('utf8')).toContain(name);

      const deleted = await call(`/api/users/${id}`, { method: 'DELETE', headers: bearer(token) });
      expect(deleted.status).toBe(200);
      expect(deleted.json).toEqual({ success: true, message: 'Benutzer wurde gelöscht' });
    });
  });
});

describe('request ids', () => {
  const serviceLog = (which: 'shop' | 'handlerDirectory') => platform![which].process.output();

  it('passes a client id to the service and returns it', async () => {
    const id = `e2e-${randomBytes(6).toString('hex')}`;
    const res = await call('/products?limit=1', { headers: { ...apiKey, 'x-request-id': id } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(id);
    // Once, not twice: the gateway answers it, the service's copy is dropped.
    expect(res.headers.get('x-request-id')!.split(',')).toHaveLength(1);
    await eventually(() => expect(serviceLog('shop')).toContain(`"request_id":"${id}"`));
    await eventually(() => expect(gateway!.accessLog()).toContain(`"request_id":"${id}"`));
  });

  it('generates one when the client sends none (or one the services would not accept)', async () => {
    const cases: Array<Record<string, string>> = [{}, { 'x-request-id': 'has spaces; and more' }];
    for (const headers of cases) {
      const res = await call('/api/public/users', { headers });
      expect(res.status).toBe(200);
      const id = res.headers.get('x-request-id')!;
      expect(id).toMatch(/^[0-9a-f]{32}$/); // nginx's $request_id
      await eventually(() =>
        expect(serviceLog('handlerDirectory')).toContain(`"request_id":"${id}"`),
      );
    }
  });

  it('is on the answers nginx gives itself too', async () => {
    const res = await call('/gateway/health', { headers: { 'x-request-id': 'health-check-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('health-check-1');
  });
});

describe('body limit', () => {
  const big = (kb: number) => JSON.stringify({ padding: 'x'.repeat(kb * 1024) });

  it('answers 413 in the shop envelope above 100 kB, before the shop sees the body', async () => {
    const id = `too-large-${randomBytes(4).toString('hex')}`;
    const res = await call('/orders', {
      method: 'POST',
      headers: { ...apiKey, 'x-request-id': id },
      body: big(150),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('x-request-id')).toBe(id);
    await eventually(() => expect(gateway!.accessLog()).toContain(`"request_id":"${id}"`));
    expect(platform!.shop.process.output()).not.toContain(id);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toEqual({
      success: false,
      error: 'Request body is too large (at most 100 kB)',
      status_code: 413,
    });
  });

  it('answers 413 in the directory envelope (German) under /api/', async () => {
    const res = await call('/api/auth/login', { method: 'POST', body: big(150) });
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ success: false, message: 'Anfrage zu groß (höchstens 100 kB)' });
  });

  it('lets a body under the limit through to the service', async () => {
    const res = await call('/orders', { method: 'POST', headers: apiKey, body: big(90) });
    expect(res.status).toBe(400); // the shop's own validation: no 413 below the limit
  });
});

describe('API docs through the gateway', () => {
  const assetsOf = (html: string) =>
    [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]!);

  /** Fetches a Swagger UI page and every asset it references, resolved like a browser would. */
  async function expectDocsPage(pagePath: string, title: string) {
    const page = await call(pagePath);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const assets = assetsOf(page.text);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    const base = new URL(pagePath, gateway!.url);
    for (const asset of assets) {
      const res = await fetch(new URL(asset, base));
      expect({ asset, status: res.status }).toEqual({ asset, status: 200 });
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    // The initializer loads the document from ./json beside the page (slash appended).
    const specUrl = new URL('./json', base.href.endsWith('/') ? base : `${base.href}/`);
    const spec = (await (await fetch(specUrl)).json()) as { info: { title: string } };
    expect(spec.info.title).toBe(title);
  }

  it('serves the shop docs at /docs and /docs/', async () => {
    await timed('shop docs page + assets', async () => {
      await expectDocsPage('/docs', 'Shop API');
      await expectDocsPage('/docs/', 'Shop API');
    });
  });

  it('serves the handler-directory docs at /api/docs/ (and redirects /api/docs there)', async () => {
    const redirect = await call('/api/docs');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/api/docs/');
    await timed('handler-directory docs page + assets', () =>
      expectDocsPage('/api/docs/', 'Hundeführer-Verzeichnis API'),
    );
  });

  it('serves both OpenAPI documents and the gateway document and page', async () => {
    expect((await call('/openapi.json')).json.info).toMatchObject({ title: 'Shop API' });
    expect((await call('/api/openapi.json')).json.info).toMatchObject({
      title: 'Hundeführer-Verzeichnis API',
    });
    const combined = await call('/gateway/openapi.json');
    expect(combined.status).toBe(200);
    expect(combined.headers.get('content-type')).toMatch(/^application\/json/);
    expect(combined.text).toBe(readFileSync(gatewayOpenapi, 'utf8'));
    const page = await call('/gateway/docs/');
    expect(page.status).toBe(200);
    expect(page.text).toBe(readFileSync(path.join(gatewayDocs, 'index.html'), 'utf8'));
    for (const asset of assetsOf(page.text)) {
      const res = await fetch(new URL(asset, `${gateway!.url}/gateway/docs/`));
      expect({ asset, status: res.status }).toEqual({ asset, status: 200 });
    }
    expect((await call('/gateway/docs')).headers.get('location')).toBe('/gateway/docs/');
  });
});

describe('compression', () => {
  it('gzips JSON for clients that accept it, and only for them', async () => {
    const zipped = await fetch(`${gateway!.url}/openapi.json`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toMatch(/Accept-Encoding/i);
    expect(((await zipped.json()) as { openapi: string }).openapi).toBe('3.1.0');

    const list = await fetch(`${gateway!.url}/api/public/users`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(list.headers.get('content-encoding')).toBe('gzip');

    const plain = await fetch(`${gateway!.url}/openapi.json`, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers.get('content-encoding')).toBeNull();
  });
});

describe('micro-cache of the public handler list', () => {
  interface LogLine {
    request_id: string;
    status: number;
    upstream_status: string;
    cache: string;
  }
  /** The access-log line of one request (nginx writes it a moment after answering). */
  async function logOf(id: string): Promise<LogLine> {
    let line: LogLine | undefined;
    await eventually(() => {
      line = gateway!
        .accessLog()
        .split('\n')
        .filter((l) => l.includes(`"request_id":"${id}"`))
        .map((l) => JSON.parse(l) as LogLine)[0];
      expect(line).toBeDefined();
    });
    return line!;
  }
  let sequence = 0;
  // Uncompressed unless asked: nginx's gzip turns a strong ETag into a weak one (W/"…").
  const publicList = async (headers: Record<string, string> = {}, query = '') => {
    const id = `micro-cache-${randomBytes(4).toString('hex')}-${(sequence += 1)}`;
    const res = await call(`/api/public/users${query}`, {
      headers: { 'accept-encoding': 'identity', ...headers, 'x-request-id': id },
    });
    return { ...res, log: await logOf(id) };
  };
  const names = (res: { json: Record<string, unknown> }) =>
    (res.json.data as Array<{ name: string }>).map((h) => h.name);

  it('serves its stored copy after the directory revalidates it (304 upstream), and shows a write through another replica at once', async () => {
    await timed('micro-cache (10 requests)', async () => {
      const first = await publicList();
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      expect(first.headers.get('cache-control')).toBe(
        'public, max-age=5, stale-while-revalidate=30',
      );
      // Meant for the gateway only; and a stored copy's counters would be someone else's.
      expect(first.headers.get('x-accel-expires')).toBeNull();
      expect(first.headers.get('x-ratelimit-remaining')).toBeNull();

      // The same list again: from the gateway's copy, confirmed by the directory with a 304.
      const second = await publicList();
      expect(second.status).toBe(200);
      expect(second.text).toBe(first.text);
      expect(second.headers.get('etag')).toBe(etag);
      expect(second.log).toMatchObject({ cache: 'REVALIDATED', upstream_status: '304' });

      // A client's own revalidation is answered by the gateway: 304, no body, same validators.
      const conditional = await publicList({ 'if-none-match': etag });
      expect(conditional.status).toBe(304);
      expect(conditional.text).toBe('');
      expect(conditional.headers.get('etag')).toBe(etag);
      expect(conditional.headers.get('cache-control')).toBe(
        'public, max-age=5, stale-while-revalidate=30',
      );
      // Gzipped, the tag is weak; sent back, it still matches (If-None-Match compares weakly).
      const zipped = await publicList({ 'accept-encoding': 'gzip' });
      expect(zipped.headers.get('etag')).toBe(`W/${etag}`);
      const zippedAgain = await publicList({
        'accept-encoding': 'gzip',
        'if-none-match': zipped.headers.get('etag')!,
      });
      expect(zippedAgain.status).toBe(304);

      // A write straight to the directory (as through another replica, not this gateway) …
      const direct = `http://127.0.0.1:${platform!.handlerDirectory.port}`;
      const login = await fetch(`${direct}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(DIRECTORY_ADMIN),
      });
      const { token } = (await login.json()) as { token: string };
      const name = `Cache Hundeführer ${randomBytes(3).toString('hex')}`;
      const created = await fetch(`${direct}/api/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(token) },
        body: JSON.stringify({ name, phone: '+49 30 555 0101', address: 'Waldweg 2', type: 'SH' }),
      });
      expect(created.status).toBe(201);

      // … is in the list through the gateway at once, and the old ETag gets the new list.
      const after = await publicList({ 'if-none-match': etag });
      expect(after.status).toBe(200);
      expect(names(after)).toContain(name);
      expect(after.headers.get('etag')).not.toBe(etag);
      expect(after.log).toMatchObject({ cache: 'EXPIRED', upstream_status: '200' });
      const again = await publicList();
      expect(names(again)).toContain(name);
      expect(again.log.cache).toBe('REVALIDATED');
    });
  });

  it('is neither read nor filled by requests carrying credentials', async () => {
    // A URI of its own, never asked for before: the credentialed requests do not store it.
    const query = '?lat=48.1&lng=11.6';
    for (const headers of [{ authorization: 'Bearer not-a-token' }, apiKey]) {
      const res = await publicList(headers, query);
      expect(res.status).toBe(200);
      expect(res.log).toMatchObject({ cache: 'BYPASS', upstream_status: '200' });
    }
    expect((await publicList({}, query)).log.cache).toBe('MISS');
    expect((await publicList({}, query)).log.cache).toBe('REVALIDATED');
  });

  it('caches nothing else: a catalogue read with the key goes to the shop, which answers its own 304', async () => {
    const products = await call('/products?limit=1', {
      headers: { ...apiKey, 'accept-encoding': 'identity' },
    });
    expect(products.headers.get('cache-control')).toBe('private, no-cache');
    expect(products.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    const again = await call('/products?limit=1', {
      headers: {
        ...apiKey,
        'accept-encoding': 'identity',
        'if-none-match': products.headers.get('etag')!,
      },
    });
    expect(again.status).toBe(304); // the shop's own 304, passed through
    const id = `no-cache-${randomBytes(4).toString('hex')}`;
    await call('/products?limit=1', { headers: { ...apiKey, 'x-request-id': id } });
    expect((await logOf(id)).cache).toBe('');
  });
});

describe('the directory’s pages through the gateway', () => {
  // The CSP of services/handler-directory/src/plugins/pages.ts, as a browser must receive it:
  // with the default MAP_TILE_URL, OpenStreetMap's tile host for images only.
  const PAGES_CSP =
    "default-src 'none'; script-src 'self'; style-src 'self'; " +
    "img-src 'self' https://tile.openstreetmap.org; " +
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

  it('serves the finder at /verzeichnis/ with its CSP, its script and stylesheet, still compressed by the directory', async () => {
    await timed('finder page + assets', async () => {
      const page = await fetch(`${gateway!.url}/verzeichnis/`, {
        headers: { 'accept-encoding': 'br, gzip' },
      });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toBe(PAGES_CSP);
      expect(page.headers.get('cache-control')).toBe('no-cache');
      // The directory's brotli, passed on (nginx's gzip leaves an encoded answer alone).
      expect(page.headers.get('content-encoding')).toBe('br');
      expect(page.headers.get('x-request-id')!.split(',')).toHaveLength(1);
      const html = await page.text();
      expect(html).toContain('<h1>Nachsuchenführer in der Nähe</h1>');

      const assets = [...html.matchAll(/(?:src|href)="(\/verzeichnis\/assets\/[^"]+)"/g)].map(
        (match) => match[1]!,
      );
      // Its entry first, the chunks it shares with the other pages, one stylesheet.
      expect(assets[0]).toMatch(/\/finder-[\w-]+\.js$/);
      expect(assets.filter((asset) => asset.endsWith('.css'))).toHaveLength(1);
      for (const asset of assets) {
        const res = await fetch(`${gateway!.url}${asset}`, {
          headers: { 'accept-encoding': 'gzip' },
        });
        expect({ asset, status: res.status }).toEqual({ asset, status: 200 });
        expect(res.headers.get('content-type')).toMatch(
          /^text\/(?:javascript|css); charset=utf-8$/,
        );
        expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect(res.headers.get('content-encoding')).toBe('gzip');
        expect(res.headers.get('content-security-policy')).toBe(PAGES_CSP);
        expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
      }
      // What the finder asks for next, through the same origin.
      const near = await call('/api/public/users?lat=52.52&lng=13.405&limit=20');
      expect(near.status).toBe(200);
    });
  });

  it('redirects /verzeichnis to /verzeichnis/', async () => {
    const res = await call('/verzeichnis');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/verzeichnis/');
  });

  it.each([
    ['/verzeichnis/mein-eintrag/', 'Mein Eintrag'],
    ['/verzeichnis/admin/', 'Verwaltung der Nachsuchenführer'],
  ])('serves %s with the same CSP, and its sign-in through the same origin', async (path, h1) => {
    const page = await call(path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(PAGES_CSP);
    expect(page.text).toContain(`<h1>${h1}</h1>`);
    const bare = await call(path.slice(0, -1));
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe(path);
    const login = await call('/api/auth/login', { method: 'POST', body: DIRECTORY_ADMIN });
    expect(login.status).toBe(200);
  });

  it('gives the pages the map settings: OpenStreetMap tiles by default', async () => {
    const res = await call('/verzeichnis/karte.json');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      tiles: {
        url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
        attribution: '© OpenStreetMap-Mitwirkende',
      },
    });
  });
});

describe('the shop’s admin app through the gateway', () => {
  const APP_CSP =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

  it('serves /app/ and its deep links from the shop, with its CSP and its assets', async () => {
    for (const path of ['/app/', '/app/orders/42']) {
      const page = await call(path);
      expect({ path, status: page.status }).toEqual({ path, status: 200 });
      expect(page.headers.get('content-security-policy')).toBe(APP_CSP);
      expect(page.text).toContain('<h1>Shop admin</h1>');
    }
    const html = (await call('/app/')).text;
    const assets = [...html.matchAll(/(?:src|href)="(\/app\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const res = await call(asset);
      expect({ asset, status: res.status }).toEqual({ asset, status: 200 });
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    expect((await call('/app')).headers.get('location')).toBe('/app/');
  });
});

describe('an upstream that is down', () => {
  it("answers 503 in that service's envelope, and the other service keeps working", async () => {
    await platform!.handlerDirectory.process.stop('SIGTERM');
    const res = await call('/api/public/users');
    expect(res.status).toBe(503);
    expect(res.json).toEqual({ success: false, message: 'Dienst vorübergehend nicht verfügbar' });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
    expect((await call('/products?limit=1', { headers: apiKey })).status).toBe(200);
  });
});

describe('the directory’s pages while the directory is down', () => {
  it('answers a German page, 503, not the shop', async () => {
    await platform!.handlerDirectory.process.stop('SIGTERM'); // stopped above already
    const res = await call('/verzeichnis/');
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
    expect(res.text).toContain('Das Verzeichnis der Nachsuchenführer ist gerade nicht erreichbar');
  });
});
