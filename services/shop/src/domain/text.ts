import { badRequest } from '@dogshop/service-kit';

/**
 * A human-entered value as stored: surrounding whitespace removed. A field the contract marks
 * not-blank arrives trimmed already (service-kit's normalizeInput, before validation, so its
 * minLength refuses a blank one); this keeps the rule for a caller that is not a route.
 */
export function requiredText(value: string, field: string): string {
  const trimmed = value.trim();
  if (trimmed.length === 0) throw badRequest(`${field} must not be blank`);
  return trimmed;
}

export function optionalText(value: string | undefined): string | undefined {
  return value?.trim();
}

/** LIKE's wildcards (and its escape character) escaped, so that a text matches literally. */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, '\\$&');
