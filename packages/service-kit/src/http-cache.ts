import { hash } from 'node:crypto';
import type { FastifyInstance, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';

/**
 * How an answer may be kept and reused, declared on the route (`config: { cache: … }`):
 *
 * - `'private'`: only the client's own cache may keep it, and it must ask the service before
 *   every use (a `304` without a body when nothing changed). For answers behind a key or a
 *   login: a shared cache does not know that `X-API-Key` gates them and would hand one caller's
 *   answer to the next caller without a key.
 * - `'public'`: any cache may keep it for a few seconds (the same answer for everyone, no key).
 *   Only for routes with `auth: 'none'`.
 *
 * Answers carrying a token or personal data declare `personal: true` instead (never stored);
 * declaring both fails at start-up.
 */
export type CachePolicy = 'private' | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The answer may be cached this way: strong ETag, `304` on `If-None-Match`, Cache-Control. */
    cache?: CachePolicy;
  }
}

/** The `Cache-Control` of each policy's successful answers (and of their 304s). */
export const CACHE_CONTROL: Readonly<Record<CachePolicy, string>> = {
  // no-cache: stored, but revalidated before every use; must-revalidate with max-age=0 would say
  // the same less directly. No max-age: a client sees a change (a new review, a stock change
  // through an order) at once, through any replica.
  private: 'private, no-cache',
  // Browsers and other caches outside the platform may show a list up to 5 s old, and up to
  // 30 s more while they fetch the new one in the background.
  public: 'public, max-age=5, stale-while-revalidate=30',
};

/**
 * For the gateway (nginx, infra/gateway): keep a public answer, but as already expired, so that
 * every use is revalidated with the service (`If-None-Match` → `304`, nginx serves its stored
 * body) and a write through any replica is visible through the gateway at once. nginx gives
 * X-Accel-Expires precedence over Cache-Control and never passes it on to clients.
 */
export const GATEWAY_REVALIDATE_ALWAYS = '@1';

/**
 * Strong ETags and conditional GETs on the routes that declare `config.cache`, nowhere else.
 *
 * The ETag is a SHA-256 of the exact bytes of the answer, so it is correct across replicas by
 * construction: every replica renders the same bytes for the same data, and any change of the
 * data changes the bytes. No replica keeps a version counter that another could miss. The cost is
 * one hash per answer (about 2 µs for 2 kB, 16 µs for 20 kB, 2 ms for 2 MB), unless the route
 * sets the `etag` header itself (strongEtag of a serialised answer it keeps).
 *
 * `If-None-Match` is evaluated as RFC 9110 §13.1.2 says: `*`, or a list of entity tags compared
 * weakly (a `W/` tag, as a gzipping proxy makes of ours, matches). Only a `200` is turned into a
 * `304`: errors keep their status (§13.2.1). The `304` has no body and keeps ETag, Cache-Control
 * and Vary, without Content-Type or Content-Length (§15.4.5).
 *
 * Declared on GET routes only (Fastify's HEAD twin follows its GET), never with `personal`, and
 * `'public'` only with `auth: 'none'`; anything else fails at start-up.
 */
export const httpCache = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      const config = route.config ?? {};
      const policy = config.cache;
      if (policy === undefined) return;
      const methods = [route.method].flat();
      const where = `${methods.join(',')} ${route.url}`;
      if (!Object.hasOwn(CACHE_CONTROL, policy)) {
        throw new Error(`${where}: unknown cache policy '${String(policy)}' (private or public)`);
      }
      if (config.personal) {
        throw new Error(
          `${where}: declares both personal and cache; a personal answer is never cached (private, no-store)`,
        );
      }
      if (methods.some((method) => method !== 'GET' && method !== 'HEAD')) {
        throw new Error(`${where}: only GET answers are cached`);
      }
      if (policy === 'public' && config.auth !== 'none') {
        throw new Error(
          `${where}: cache 'public' needs auth 'none' (a shared cache would serve the answer without the check); use 'private'`,
        );
      }
      // First of the route's own onSend hooks: Fastify's HEAD twin of a GET route ends its list
      // with a hook that drops the payload, and the HEAD answer needs the GET's ETag.
      const hook = conditionalGet(CACHE_CONTROL[policy], policy === 'public');
      route.onSend = [hook, ...toArray(route.onSend)];
    });
  },
  { name: 'http-cache' },
);

function conditionalGet(cacheControl: string, shared: boolean): onSendHookHandler {
  return (request, reply, payload, done) => {
    if (reply.statusCode !== 200) {
      done(null, payload);
      return;
    }
    reply.header('cache-control', cacheControl);
    if (shared) reply.header('x-accel-expires', GATEWAY_REVALIDATE_ALWAYS);
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) {
      done(null, payload); // a stream: no bytes to hash, no validator
      return;
    }
    // A route that keeps its serialised answer knows the answer's ETag already (strongEtag of
    // the same bytes) and sets it: not hashed again.
    const known = reply.getHeader('etag');
    const etag = typeof known === 'string' ? known : strongEtag(payload);
    reply.header('etag', etag);
    if (!ifNoneMatchMatches(request.headers['if-none-match'], etag)) {
      done(null, payload);
      return;
    }
    reply.code(304).removeHeader('content-type').removeHeader('content-length');
    // A HEAD keeps its payload for Fastify's HEAD hook, which drops it and sends the 200's length
    // (allowed on a 304, §8.6); a GET's 304 has neither body nor length.
    done(null, request.method === 'HEAD' ? payload : null);
  };
}

/**
 * The strong ETag of an answer's exact bytes: SHA-256, base64url, quoted. The same on every
 * replica for the same bytes. A route that keeps a serialised answer computes it once with this
 * and sets it as the `etag` header; httpCache then uses it as it is.
 */
export const strongEtag = (bytes: string | Buffer): string =>
  `"${hash('sha256', bytes, 'base64url')}"`;

/**
 * Whether an `If-None-Match` field value matches the current strong `etag` (RFC 9110 §13.1.2:
 * `*` matches any current representation; otherwise weak comparison against each listed tag).
 * Several header lines arrive joined with commas, which is the same list.
 */
export function ifNoneMatchMatches(field: string | undefined, etag: string): boolean {
  if (field === undefined) return false;
  if (field.trim() === '*') return true;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const [, tag] of field.matchAll(/(?:W\/)?("[^"]*")/g)) {
    if (tag === opaque) return true;
  }
  return false;
}

const toArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
