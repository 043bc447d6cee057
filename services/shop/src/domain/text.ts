import { badRequest } from '@dogshop/service-kit';

/**
 * A human-entered value as stored: surrounding whitespace removed. `field` names it in the 400
 * when a required value is only whitespace (the schema's minLength cannot see that).
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
