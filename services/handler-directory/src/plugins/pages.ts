import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  HttpError,
  ifNoneMatchMatches,
  strongEtag,
  type ServicePlugin,
} from '@dogshop/service-kit';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  RouteShorthandOptions,
} from 'fastify';
import type { DirectoryConfig } from '../config.js';

/**
 * Where the pages live: the finder at /verzeichnis/, the handler's page and the admin app later
 * below it (/verzeichnis/mein-eintrag/, /verzeichnis/admin/). Outside /api/, which the gateway
 * sends to the directory (everything else goes to the shop): the gateway has a location for this
 * prefix, so the same URLs work on the directory's own port and through the gateway.
 */
export const PAGES_PREFIX = '/verzeichnis/';

/** The build of web/ (vite.config.ts): the package's dist/web, from src/plugins and dist/plugins alike. */
export const PAGES_DIR = fileURLToPath(new URL('../../dist/web/', import.meta.url));

/**
 * The pages' Content-Security-Policy, the one place it is written: scripts, styles and requests
 * from the page's own origin only (no inline script or style, no eval), nothing framed or
 * framing, forms posting to the origin only. `imageOrigins` are the map's tile host (the admin
 * app's, `MAP_TILE_URL`): images only, never scripts or requests.
 */
export function pagesContentSecurityPolicy(imageOrigins: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    ["img-src 'self'", ...imageOrigins].join(' '),
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/**
 * Headers of every page answer, besides those of every answer (service-kit's security plugin:
 * HSTS, nosniff, no framing, no referrer, same-origin resources). Those are the set for an API;
 * a document also gets its CSP, its own browsing context group (no window of another origin can
 * reach it) and a Permissions-Policy that lets it ask for the position and nothing else.
 */
function pageHeaders(config: DirectoryConfig): [string, string][] {
  const tiles = config.mapTiles ? [tileOrigin(config.mapTiles.url)] : [];
  return Object.entries({
    'content-security-policy': pagesContentSecurityPolicy(tiles),
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'geolocation=(self), camera=(), microphone=(), payment=(), usb=()',
  });
}

/** `https://tile.openstreetmap.org` of `https://tile.openstreetmap.org/{z}/{x}/{y}.png`. */
export function tileOrigin(template: string): string {
  return new URL(template.replace(/[{}]/g, '')).origin;
}

/**
 * The pages' settings (`karte.json` below the prefix): the map's tile URL template and its
 * attribution, or `tiles: null` (no tiles: the map still takes a click). A file, not inline
 * script, so the CSP needs no exception.
 */
export const PAGES_SETTINGS = 'karte.json';

/** Vite names what it emits into assets/ by its content: a changed file has a new name. */
const HASHED_ASSETS = 'assets/';
const CACHE_HASHED = 'public, max-age=31536000, immutable';
/** HTML and the other unhashed files (the icon): kept, but checked on every use (ETag → 304). */
const CACHE_REVALIDATE = 'no-cache';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

const INDEX = 'index.html';

/**
 * Pages whose sections are URLs below their folder (web-kit's router: `/verzeichnis/admin/konten`,
 * `/verzeichnis/admin/?suche=…`): every path below the folder answers the page's HTML, whose
 * router shows the section the path names (or says there is none), so a deep link and a reload
 * work. Only the HTML: the page's assets live under `assets/`, one route each as before.
 */
const APP_PAGES: ReadonlySet<string> = new Set(['admin/']);
const NOT_BUILT =
  'Die Seiten des Verzeichnisses sind nicht gebaut (pnpm build in services/handler-directory)';

/**
 * Public, unauthenticated routes, absent from the OpenAPI document (they are no part of the API),
 * and outside the rate limit: sending a small file from memory costs less than counting it, and a
 * page load's four requests would otherwise eat into the API allowance of its address.
 */
const ROUTE_OPTIONS = {
  schema: { hide: true },
  config: { auth: 'none', rateLimit: false },
  // `hide` and `rateLimit` are declared by service-kit's swagger and rate-limit plugins, whose
  // types a build of this package (against service-kit's dist) does not load.
} as unknown as RouteShorthandOptions;

/** One way a file is sent: its bytes and their strong ETag. */
interface Representation {
  body: Buffer;
  etag: string;
}

/** A built file with its precompressed twins (vite.config.ts writes `.br` and `.gz`). */
interface BuiltFile {
  contentType: string;
  cacheControl: string;
  identity: Representation;
  br?: Representation | undefined;
  gzip?: Representation | undefined;
}

type Coding = 'br' | 'gzip';

/**
 * Serves the built pages of `root` under PAGES_PREFIX, read once at start-up into memory (the
 * finder is about 30 kB, each file with its brotli and gzip twins): one route per built file, so
 * no path below the prefix reaches anything else; `index.html` at its folder's URL (and the
 * folder without its slash redirected there), an app's (APP_PAGES) also at every path below it;
 * the smallest encoding the browser takes; a strong ETag per encoding, and 304 on
 * `If-None-Match`. Not built (development without `pnpm build`):
 * one warning line, and the prefix answers 404 in the service's envelope (not 503, which the
 * gateway would count against the replica).
 *
 * Not @fastify/static: its version 10 requires `content-disposition` 3, an ES module, which Jest
 * cannot load from CommonJS before Node 24.9, so no test of the app could run on Node 20 and 22;
 * and a few small files read once need neither its file system lookups nor its streams.
 */
export function servePages(root: string): ServicePlugin<DirectoryConfig> {
  // Not wrapped in fastify-plugin: the page headers hook stays with the page routes.
  return async (app: FastifyInstance, { config }) => {
    const files = readBuild(root);
    if (!files.has(INDEX)) {
      app.log.warn(`pages not built: ${root} has no ${INDEX}, ${PAGES_PREFIX} answers 404`);
      const notBuilt = async () => {
        throw new HttpError(404, NOT_BUILT);
      };
      app.get(PAGES_PREFIX.slice(0, -1), ROUTE_OPTIONS, notBuilt);
      app.get(`${PAGES_PREFIX}*`, ROUTE_OPTIONS, notBuilt);
      return;
    }

    const headers = pageHeaders(config);
    app.addHook(
      'onRequest',
      (_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
        for (const [name, value] of headers) reply.header(name, value);
        done();
      },
    );
    const settings = JSON.stringify({ tiles: config.mapTiles ?? null });
    app.get(PAGES_PREFIX + PAGES_SETTINGS, ROUTE_OPTIONS, (_request, reply) =>
      reply
        .header('content-type', CONTENT_TYPES['.json'])
        .header('cache-control', CACHE_REVALIDATE)
        .send(settings),
    );
    for (const [name, file] of files) {
      const serve = (request: FastifyRequest, reply: FastifyReply) => send(request, reply, file);
      if (path.posix.basename(name) !== INDEX) {
        app.get(PAGES_PREFIX + name, ROUTE_OPTIONS, serve);
        continue;
      }
      // A page at its folder's URL; without the slash, a redirect there (its relative URLs
      // need the slash).
      const page = name.slice(0, -INDEX.length);
      const folder = PAGES_PREFIX + page;
      app.get(folder, ROUTE_OPTIONS, serve);
      app.get(folder.slice(0, -1), ROUTE_OPTIONS, (_request, reply) => reply.redirect(folder, 301));
      if (APP_PAGES.has(page)) app.get(`${folder}*`, ROUTE_OPTIONS, serve);
    }
  };
}

/** The pages of this package's build (dist/web). */
export const pages: ServicePlugin<DirectoryConfig> = servePages(PAGES_DIR);

function send(request: FastifyRequest, reply: FastifyReply, file: BuiltFile) {
  const coding = chooseCoding(request.headers['accept-encoding'], file);
  const chosen = (coding && file[coding]) || file.identity;
  reply
    .header('content-type', file.contentType)
    .header('cache-control', file.cacheControl)
    .header('etag', chosen.etag);
  if (file.br || file.gzip) reply.header('vary', 'accept-encoding');
  if (coding) reply.header('content-encoding', coding);
  if (ifNoneMatchMatches(request.headers['if-none-match'], chosen.etag)) {
    return reply.code(304).removeHeader('content-type').send();
  }
  return reply.send(chosen.body);
}

/**
 * The coding to send (RFC 9110 §12.5.3): of the twins the file has, those `Accept-Encoding`
 * gives a weight above 0 (by name or through `*`), the heaviest; on a tie brotli, the smaller.
 * None: the file as it is.
 */
function chooseCoding(field: string | undefined, file: BuiltFile): Coding | undefined {
  if (!field) return undefined;
  const weights = new Map<string, number>();
  for (const part of field.split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (name !== '') weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  let best: Coding | undefined;
  let bestWeight = 0;
  for (const coding of ['br', 'gzip'] as const) {
    const weight = weights.get(coding) ?? weights.get('*') ?? 0;
    if (file[coding] && weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}

/** Every file of the build by its path below `root` (with `/`), with its precompressed twins. */
function readBuild(root: string): Map<string, BuiltFile> {
  let entries;
  try {
    entries = readdirSync(root, { recursive: true, withFileTypes: true });
  } catch {
    return new Map();
  }
  const names = entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .map((name) => name.split(path.sep).join('/'));
  const present = new Set(names);
  const read = (name: string): Representation | undefined => {
    if (!present.has(name)) return undefined;
    const body = readFileSync(path.join(root, name));
    return { body, etag: strongEtag(body) };
  };
  const files = new Map<string, BuiltFile>();
  for (const name of names.filter((n) => !/\.(?:br|gz)$/.test(n)).sort()) {
    files.set(name, {
      contentType: CONTENT_TYPES[path.posix.extname(name)] ?? 'application/octet-stream',
      cacheControl: name.startsWith(HASHED_ASSETS) ? CACHE_HASHED : CACHE_REVALIDATE,
      identity: read(name)!,
      br: read(`${name}.br`),
      gzip: read(`${name}.gz`),
    });
  }
  return files;
}
