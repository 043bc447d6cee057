import type { Operation } from '@dogshop/api-fuzz';
import { TEST_API_KEY } from './app.js';
import { bearer } from './customers.js';

/**
 * What to send to pass an operation's documented security: the test API key where a key opens
 * it (a secret key with every scope), else the customer's or the staff member's token.
 */
export function credentialsFor(
  op: Operation,
  tokens: { customer: string; staff: string },
): Record<string, string> {
  if (op.public) return {};
  if (op.schemes.includes('ApiKeyAuth')) return { 'x-api-key': TEST_API_KEY };
  if (op.schemes.includes('BearerAuth')) return bearer(tokens.customer);
  return bearer(tokens.staff);
}
