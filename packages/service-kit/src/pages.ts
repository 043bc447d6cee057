// The services' pages (the directory's finder, handler page and admin app; the shop's admin app):
// a Vite build served from memory under one prefix, with the headers a document needs. Both
// services serve their pages through this, each with its own prefix, build folder and settings.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  RouteShorthandOptions,
} from 'fastify';
import type { CommonConfig } from './config.js';
import { ifNoneMatchMatches, strongEtag } from './http-cache.js';
import { HttpError } from './http-error.js';
import { named } from './plugin-name.js';
import type { ServicePlugin } from './service.js';

/**
 * The pages' Content-Security-Policy, the one place it is written: scripts, styles and requests
 * from the page's own origin only (no inline script or style, no eval), nothing framed or
 * framing, forms posting to the origin only. `imageOrigins` (a map's tile host) may serve images
 * only, never scripts or requests.
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

export interface PagesOptions<C extends CommonConfig> {
  /** Where the pages live, with both slashes (`/verzeichnis/`, `/app/`): the build's Vite `base`. */
  prefix: string;
  /** The build's folder (Vite's `outDir`). */
  root: string;
  /**
   * Folders below the prefix (`admin/`; `''` for the prefix itself) whose page routes in the
   * browser: every path below such a folder answers its `index.html`, so a deep link and a
   * reload work.
   */
  apps?: readonly string[];
  /** The one-line 404 message while the pages are not built, naming the command that builds them. */
  notBuilt: string;
  /** Origins the pages may show images from besides their own (a map's tiles), by config. */
  imageOrigins?: (config: C) => readonly string[];
  /** The pages' Permissions-Policy (default: none of the powerful features). */
  permissionsPolicy?: string;
  /**
   * A JSON file of settings the pages read at start (`karte.json`): a file, not inline script,
   * so the CSP needs no exception. Its name below the prefix and its content by config.
   */
  settings?: { file: string; content: (config: C) => unknown };
}

const DEFAULT_PERMISSIONS = 'geolocation=(), camera=(), microphone=(), payment=(), usb=()';

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
 * Public, unauthenticated routes, absent from the OpenAPI document (they are no part of the API),
 * and outside the rate limit: sending a small file from memory costs less than counting it, and a
 * page load's four requests would otherwise eat into the API allowance of its address.
 */
const ROUTE_OPTIONS = {
  schema: { hide: true },
  config: { auth: 'none', rateLimit: false },
  // `hide` and `rateLimit` are declared by the swagger and rate-limit plugins, whose types a
  // build of a service (against this package's dist) does not load.
} as unknown as RouteShorthandOptions;

/** One way a file is sent: its bytes and their strong ETag. */
interface Representation {
  body: Buffer;
  etag: string;
}

/** A built file with its precompressed twins (web-kit's `precompress` writes `.br` and `.gz`). */
interface BuiltFile {
  contentType: string;
  cacheControl: string;
  identity: Representation;
  br?: Representation | undefined;
  gzip?: Representation | undefined;
}

type Coding = 'br' | 'gzip';

/**
 * Serves the built pages of `root` under `prefix`, read once at start-up into memory: one route
 * per built file, so no path below the prefix reaches anything else; `index.html` at its
 * folder's URL (and the folder without its slash redirected there), an app's (`apps`) also at
 * every path below it; the smallest encoding the browser takes; a strong ETag per encoding, and
 * 304 on `If-None-Match`. Not built (development without `pnpm build`): one warning line, and
 * the prefix answers 404 in the service's envelope (not 503, which the gateway would count
 * against the replica).
 *
 * Every page answer carries, besides the headers of every answer (the security plugin: HSTS,
 * nosniff, no framing, no referrer, same-origin resources), its CSP, its own browsing context
 * group (no window of another origin can reach it) and its Permissions-Policy.
 *
 * Not @fastify/static: its version 10 requires `content-disposition` 3, an ES module, which Jest
 * cannot load from CommonJS before Node 24.9, so no test of the app could run on Node 20 and 22;
 * and a few small files read once need neither its file system lookups nor its streams.
 */
export function servePages<C extends CommonConfig>(options: PagesOptions<C>): ServicePlugin<C> {
  const { prefix, root } = options;
  const apps = new Set(options.apps ?? []);
  // Not wrapped in fastify-plugin: the page headers hook stays with the page routes.
  return named(async (app: FastifyInstance, { config }) => {
    const files = readBuild(root);
    if (!files.has(INDEX)) {
      app.log.warn(`pages not built: ${root} has no ${INDEX}, ${prefix} answers 404`);
      const notBuilt = async () => {
        throw new HttpError(404, options.notBuilt);
      };
      app.get(prefix.slice(0, -1), ROUTE_OPTIONS, notBuilt);
      app.get(`${prefix}*`, ROUTE_OPTIONS, notBuilt);
      return;
    }

    const headers = Object.entries({
      'content-security-policy': pagesContentSecurityPolicy(options.imageOrigins?.(config)),
      'cross-origin-opener-policy': 'same-origin',
      'permissions-policy': options.permissionsPolicy ?? DEFAULT_PERMISSIONS,
    });
    app.addHook(
      'onRequest',
      (_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
        for (const [name, value] of headers) reply.header(name, value);
        done();
      },
    );
    if (options.settings) {
      const settings = JSON.stringify(options.settings.content(config));
      app.get(prefix + options.settings.file, ROUTE_OPTIONS, (_request, reply) =>
        reply
          .header('content-type', CONTENT_TYPES['.json'])
          .header('cache-control', CACHE_REVALIDATE)
          .send(settings),
      );
    }
    for (const [name, file] of files) {
      const serve = (request: FastifyRequest, reply: FastifyReply) => send(request, reply, file);
      if (path.posix.basename(name) !== INDEX) {
        app.get(prefix + name, ROUTE_OPTIONS, serve);
        continue;
      }
      // A page at its folder's URL; without the slash, a redirect there (its relative URLs
      // need the slash).
      const page = name.slice(0, -INDEX.length);
      const folder = prefix + page;
      app.get(folder, ROUTE_OPTIONS, serve);
      app.get(folder.slice(0, -1), ROUTE_OPTIONS, (_request, reply) => reply.redirect(folder, 301));
      if (apps.has(page)) app.get(`${folder}*`, ROUTE_OPTIONS, serve);
    }
  }, 'pages');
}

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
