import jwt from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AccountIdentity, SignedInAccount } from './account.js';
import { unauthorized } from './http-error.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The verified claims of the request's bearer token, or a 401 naming what is wrong (no
     * token; a token that is malformed, expired, tampered, of another issuer or audience, or
     * issued in the future). Whose token it is (does the account exist?) is the service's check.
     */
    verifyBearerToken: (request: FastifyRequest) => Promise<BearerClaims>;
    /** The audience tokens are signed for by default (BearerTokenOptions.audience). */
    bearerAudience: string;
  }
}

/** The claims the services read: whose token it is, and the account's token version then. */
export interface BearerClaims {
  sub: string;
  /** Whom the token is for: the service's `audience`, or one of its `otherAudiences`. */
  aud: string;
  /** The account's `tokenVersion` when the token was signed (absent: 0). */
  ver?: number;
}

export interface BearerTokenOptions {
  secret: string;
  /** Token lifetime: `<n>s|m|h|d`. */
  ttl: string;
  issuer: string;
  /** The audience tokens are signed for, unless `app.jwt.sign` is given another. */
  audience: string;
  /**
   * Further audiences the service signs tokens for (the shop's staff beside its customers): each
   * scheme's check names the one it accepts, so a token for one kind of account opens nothing of
   * another's.
   */
  otherAudiences?: string[];
  messages: { missing: string; invalid: string };
}

/** Clock difference between servers that a token's `iat` may be ahead by. */
const CLOCK_SKEW_S = 60;

/** A token claiming to be issued later than now (plus skew) was not issued by us: refused. */
const issuedInTheFuture = (iat: unknown) =>
  iat !== undefined &&
  !(typeof iat === 'number' && iat <= Math.floor(Date.now() / 1000) + CLOCK_SKEW_S);

/**
 * JWT bearer tokens as both services use them: HS256 only (`none` and every other algorithm are
 * refused), a fixed issuer and audience that must be present and match, `sub` and `exp`
 * required. Sign with `app.jwt.sign(claims)`; the service declares its claims on
 * `@fastify/jwt`'s `FastifyJWT` interface.
 */
export const bearerTokens = fp<BearerTokenOptions>(
  async (app: FastifyInstance, opts) => {
    await app.register(jwt, {
      secret: opts.secret,
      sign: { algorithm: 'HS256', iss: opts.issuer, aud: opts.audience, expiresIn: opts.ttl },
      verify: {
        algorithms: ['HS256'],
        allowedIss: opts.issuer,
        allowedAud: [opts.audience, ...(opts.otherAudiences ?? [])],
        // allowedIss/allowedAud only check claims that are present: require them (and exp).
        requiredClaims: ['iss', 'aud', 'sub', 'exp'],
      },
    });
    app.decorate('bearerAudience', opts.audience);
    app.decorate('verifyBearerToken', async (request: FastifyRequest) => {
      if (!request.headers.authorization) throw unauthorized(opts.messages.missing);
      let claims: { sub?: unknown; aud?: unknown; iat?: unknown; ver?: unknown };
      try {
        claims = await request.jwtVerify<{
          sub?: unknown;
          aud?: unknown;
          iat?: unknown;
          ver?: unknown;
        }>();
      } catch {
        throw unauthorized(opts.messages.invalid);
      }
      if (
        typeof claims.sub !== 'string' ||
        typeof claims.aud !== 'string' ||
        issuedInTheFuture(claims.iat) ||
        (claims.ver !== undefined && !(Number.isSafeInteger(claims.ver) && Number(claims.ver) >= 0))
      ) {
        throw unauthorized(opts.messages.invalid);
      }
      return claims as BearerClaims;
    });
  },
  { name: 'bearer-tokens' },
);

/** Read as the shared identity: a service's own account type may not declare it (none: 0). */
const tokenVersionOf = (account: AccountIdentity) => account.tokenVersion ?? 0;

/**
 * The check of a bearer scheme: a valid token for `audience` (the service's own when absent)
 * whose `sub` names an account `find` still knows (else 401 with `message`), signed at the
 * account's current `tokenVersion` (else 401 with `endedMessage`). The account is looked up on every request, so deleting or disabling it, or
 * raising its token version, ends its tokens at once; its current record, not the token's
 * claims, is `request.account`.
 */
export const signedInAccountCheck =
  (
    app: FastifyInstance,
    find: (id: string) => Promise<SignedInAccount | null>,
    message: string,
    endedMessage = message,
    audience?: string,
  ): ((request: FastifyRequest) => Promise<void>) =>
  async (request) => {
    const claims = await app.verifyBearerToken(request);
    if (claims.aud !== (audience ?? app.bearerAudience)) throw unauthorized(message);
    const account = await find(claims.sub);
    if (!account) throw unauthorized(message);
    if ((claims.ver ?? 0) !== tokenVersionOf(account)) throw unauthorized(endedMessage);
    request.account = account;
  };
