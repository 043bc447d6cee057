import { createHash, randomBytes } from 'node:crypto';

/** How long a set-password link works in both services: 72 hours. */
export const SET_PASSWORD_TOKEN_TTL_MS = 72 * 60 * 60 * 1000;

/** A one-time token as shown once to its owner. */
export interface OneTimeToken {
  token: string;
  expiresAt: Date;
}

/** What an account stores of a one-time token: its SHA-256, never the token, and its end. */
export interface StoredOneTimeToken {
  tokenHash: string;
  expiresAt: Date;
}

/**
 * The stored form of a token. Tokens carry 256 random bits, so a fast hash is safe, and the
 * lookup by hash makes its time independent of how much of a guessed token was right.
 */
export const hashOneTimeToken = (token: string) =>
  createHash('sha256').update(token).digest('base64url');

/** A new random token (256 bits) working for `ttlMs`, and what the account stores of it. */
export function newOneTimeToken(
  now = new Date(),
  ttlMs = SET_PASSWORD_TOKEN_TTL_MS,
): { shown: OneTimeToken; stored: StoredOneTimeToken } {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + ttlMs);
  return { shown: { token, expiresAt }, stored: { tokenHash: hashOneTimeToken(token), expiresAt } };
}
