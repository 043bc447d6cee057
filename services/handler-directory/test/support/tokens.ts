import { createHmac } from 'node:crypto';
import { JWT_AUDIENCE, JWT_ISSUER } from '../../src/plugins/auth.js';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT built by hand, so tests can forge what the service must refuse. */
export function forgeToken(
  secret: string,
  payload: Record<string, unknown>,
  header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' },
): string {
  const unsigned = `${base64url(header)}.${base64url(payload)}`;
  if (header.alg === 'none') return `${unsigned}.`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

/** Claims as the service issues them, valid for an hour unless overridden. */
export function claims(
  sub: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub,
    username: 'someone',
    role: 'admin',
    iss: JWT_ISSUER,
    aud: JWT_AUDIENCE,
    iat: now,
    exp: now + 3600,
    ...overrides,
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
