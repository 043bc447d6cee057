import type { FastifyRequest } from 'fastify';

/** Fields the service owns; clients that send a record back unchanged are not refused for them. */
const READ_ONLY_FIELDS = ['_id', 'createdAt', 'updatedAt', '__v'];
const TRIMMED_FIELDS = ['name', 'phone', 'address', 'type'];

/**
 * preValidation hook of the handler-record bodies: drops read-only fields, then trims the text
 * fields, so length rules apply to the trimmed text ("   " is an empty name). Every other key
 * stays, so the strict schema still refuses unknown, `$`-prefixed and dotted keys.
 */
export async function prepareHandlerBody(request: FastifyRequest): Promise<void> {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const record = body as Record<string, unknown>;
  for (const field of READ_ONLY_FIELDS) delete record[field];
  for (const field of TRIMMED_FIELDS) {
    const value = record[field];
    if (typeof value === 'string') record[field] = value.trim();
  }
}
