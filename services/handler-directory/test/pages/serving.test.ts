// How the directory serves its pages (src/plugins/pages.ts), through the real app: headers,
// encodings, caching, the paths it answers and those it does not, and start-up without a build.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Fastify from 'fastify';
import {
  PAGES_DIR,
  PAGES_PREFIX,
  pagesContentSecurityPolicy,
  servePages,
} from '../../src/plugins/pages.js';
import { createTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  t.request({ method: 'GET', url, headers });
const built = (file: string) => readFileSync(path.join(PAGES_DIR, file));
/** The finder's script and stylesheet, as its HTML names them. */
const assets = () =>
  [
    ...built('index.html')
      .toString('utf8')
      .matchAll(/"\/verzeichnis\/(assets\/[^"]+)"/g),
  ].map((match) => match[1]!);

describe('the finder page', () => {
  it('is served at /verzeichnis/ with the pages’ CSP and the other page headers, revalidated on every use', async () => {
    const res = await get(PAGES_PREFIX);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toBe(built('index.html').toString('utf8'));
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
        "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(res.headers['content-security-policy']).toBe(pagesContentSecurityPolicy());
    expect(res.headers).toMatchObject({
      'cache-control': 'no-cache',
      'cross-origin-opener-policy': 'same-origin',
      'permissions-policy': expect.stringContaining('geolocation=(self)'),
      // Those of every answer of the service, from service-kit.
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      vary: 'accept-encoding',
    });
    expect(res.headers['content-encoding']).toBeUndefined();
    // The API's answers carry no page CSP.
    const api = await get('/api/public/users');
    expect(api.headers['content-security-policy']).toBeUndefined();
  });

  it('sends the smallest encoding the browser takes, precompressed, each with its own ETag, and 304 on it', async () => {
    const original = built('index.html');
    const br = await get(PAGES_PREFIX, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload)).toEqual(original);
    const gzip = await get(PAGES_PREFIX, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload)).toEqual(original);
    expect(
      (await get(PAGES_PREFIX, { 'accept-encoding': 'br;q=0, gzip;q=0.5' })).headers[
        'content-encoding'
      ],
    ).toBe('gzip');
    expect(
      (await get(PAGES_PREFIX, { 'accept-encoding': 'identity' })).headers['content-encoding'],
    ).toBeUndefined();
    const etags = new Set([br.headers.etag, gzip.headers.etag]);
    expect(etags.size).toBe(2);

    const again = await get(PAGES_PREFIX, {
      'accept-encoding': 'br',
      'if-none-match': br.headers.etag as string,
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['content-security-policy']).toBe(pagesContentSecurityPolicy());
  });

  it('keeps its hashed scripts and stylesheet for a year, immutable', async () => {
    // Its entry, the chunks it shares with the other pages (preloaded), and the stylesheet.
    const files = assets();
    expect(files[0]).toMatch(/^assets\/finder-[\w-]+\.js$/);
    expect(files.filter((file) => file.endsWith('.css'))).toHaveLength(1);
    const types = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };
    for (const file of files) {
      const res = await get(PAGES_PREFIX + file, { 'accept-encoding': 'br' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(types[file.endsWith('.css') ? 'css' : 'js']);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(brotliDecompressSync(res.rawPayload)).toEqual(built(file));
    }
    const icon = await get(`${PAGES_PREFIX}favicon.svg`);
    expect(icon.headers).toMatchObject({
      'content-type': 'image/svg+xml',
      'cache-control': 'no-cache',
    });
  });

  it('serves the service worker as JavaScript, revalidated on every use, listing the finder’s files only', async () => {
    const res = await get(`${PAGES_PREFIX}sw.js`);
    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'no-cache',
    });
    // Its default scope is its folder, the prefix: no Service-Worker-Allowed needed.
    expect(res.headers['service-worker-allowed']).toBeUndefined();
    const files = JSON.parse(/const FILES = (\[.*\]);/.exec(res.body)![1]!) as string[];
    expect(files.sort()).toEqual(
      [PAGES_PREFIX, `${PAGES_PREFIX}favicon.svg`, ...assets().map((a) => PAGES_PREFIX + a)].sort(),
    );
  });

  it('redirects /verzeichnis to /verzeichnis/ and answers HEAD', async () => {
    const res = await get('/verzeichnis');
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(PAGES_PREFIX);
    const head = await t.request({ method: 'HEAD', url: PAGES_PREFIX });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-security-policy']).toBe(pagesContentSecurityPolicy());
  });

  it('answers 404 in the German envelope for anything below the prefix that was not built, inside or outside the build folder', async () => {
    for (const url of [
      `${PAGES_PREFIX}nicht-da`,
      `${PAGES_PREFIX}index.html.br`,
      `${PAGES_PREFIX}assets/../index.html`,
      `${PAGES_PREFIX}%2e%2e/package.json`,
      `${PAGES_PREFIX}..%2f..%2fpackage.json`,
    ]) {
      const res = await get(url);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 404 });
      expect(res.json()).toEqual({ success: false, message: 'Ressource nicht gefunden' });
    }
  });

  it('is neither in the OpenAPI document nor counted by the rate limit', async () => {
    const doc = (await get('/openapi.json')).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/verzeichnis'))).toEqual([]);
    expect((await get('/api/public/users')).headers['x-ratelimit-limit']).toBeDefined();
    expect((await get(PAGES_PREFIX)).headers['x-ratelimit-limit']).toBeUndefined();
  });
});

describe('without a build', () => {
  it('starts, says so in one log line, and answers 404 at the prefix', async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'pages-not-built-'));
    const lines: string[] = [];
    const app = Fastify({
      logger: { level: 'warn', stream: { write: (l: string) => lines.push(l) } },
    });
    try {
      await app.register(servePages(empty), { config: t.config, shared: undefined as never });
      await app.ready();
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({
        level: 40,
        msg: `pages not built: ${empty} has no index.html, ${PAGES_PREFIX} answers 404`,
      });
      for (const url of ['/verzeichnis', PAGES_PREFIX, `${PAGES_PREFIX}assets/x.js`]) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({
          message:
            'Die Seiten des Verzeichnisses sind nicht gebaut (pnpm build in services/handler-directory)',
        });
      }
    } finally {
      await app.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('the handler’s page, the admin app and the map settings', () => {
  it.each(['mein-eintrag/', 'admin/'])(
    'serves %s with the pages’ headers, and its folder without the slash redirects there',
    async (folder) => {
      const res = await get(PAGES_PREFIX + folder);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(built(`${folder}index.html`).toString('utf8'));
      expect(res.headers['content-security-policy']).toBe(pagesContentSecurityPolicy());
      const bare = await get(PAGES_PREFIX + folder.slice(0, -1));
      expect(bare.statusCode).toBe(301);
      expect(bare.headers.location).toBe(PAGES_PREFIX + folder);
    },
  );

  it('answers the admin app’s HTML at every path below it (its sections’ deep links), the handler’s page at its folder only', async () => {
    for (const url of [
      `${PAGES_PREFIX}admin/konten`,
      `${PAGES_PREFIX}admin/import?x=1`,
      `${PAGES_PREFIX}admin/?suche=Hof`,
      `${PAGES_PREFIX}admin/gibt/es/nicht`,
    ]) {
      const res = await get(url);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
      expect(res.body).toBe(built('admin/index.html').toString('utf8'));
      expect(res.headers['content-security-policy']).toBe(pagesContentSecurityPolicy());
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    expect((await get(`${PAGES_PREFIX}mein-eintrag/konten`)).statusCode).toBe(404);
  });

  it('tells the pages there are no tiles when MAP_TILE_URL is none (as in every test)', async () => {
    const res = await get(`${PAGES_PREFIX}karte.json`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual({ tiles: null });
  });

  it('allows the tile host for images only, and tells the pages its URL and attribution', async () => {
    const mapTiles = {
      url: 'https://tiles.example.org/osm/{z}/{x}/{y}.png',
      attribution: '© OpenStreetMap-Mitwirkende',
    };
    const withTiles = await createTestApp({ mapTiles });
    try {
      const settings = await withTiles.request({ method: 'GET', url: `${PAGES_PREFIX}karte.json` });
      expect(settings.json()).toEqual({ tiles: mapTiles });
      const page = await withTiles.request({ method: 'GET', url: `${PAGES_PREFIX}admin/` });
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toBe(pagesContentSecurityPolicy(['https://tiles.example.org']));
      expect(csp).toContain("img-src 'self' https://tiles.example.org;");
      expect(csp).toContain("connect-src 'self';");
      expect(csp).toContain("script-src 'self';");
    } finally {
      await withTiles.close();
    }
  });
});
