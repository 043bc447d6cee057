import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * An order's access token: 256 random bits, shown once in the create answer; the order keeps its
 * SHA-256 (a token carries enough entropy for a fast hash).
 */
export function newOrderAccessToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashOrderToken(token) };
}

const hashOrderToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Whether `token` is the order's (constant time; false for an order without a token). */
export function isOrderToken(storedHash: string | null, token: string | undefined): boolean {
  if (!storedHash || token === undefined || token.length > 200) return false;
  const sent = Buffer.from(hashOrderToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return sent.length === stored.length && timingSafeEqual(sent, stored);
}
