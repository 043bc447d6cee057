import { Type } from 'typebox';
import { notBlank } from '../common.js';

/** A positive 32-bit row id (PostgreSQL `integer`); larger values can name nothing. */
export const Id = (description?: string, examples?: number[]) =>
  Type.Integer({
    minimum: 1,
    maximum: 2_147_483_647,
    ...(description ? { description } : {}),
    ...(examples ? { examples } : {}),
  });

export const IdParamsSchema = Type.Object(
  { id: Id('Id of the product, order or customer named by the path', [12]) },
  { additionalProperties: false },
);

/** `page` and `limit` of a listing's query string; listings differ only in their page size. */
export const pageQuery = (limitDescription: string, defaultLimit: number) => ({
  page: Type.Integer({
    minimum: 1,
    maximum: 100_000,
    default: 1,
    description: 'Page number, from 1',
    examples: [1],
  }),
  limit: Type.Integer({
    minimum: 1,
    maximum: 50,
    default: defaultLimit,
    description: limitDescription,
    examples: [defaultLimit],
  }),
});

export const DateTime = () => Type.String({ format: 'date-time' });

/** Money as a JSON number with at most two decimals. */
export const Money = (description?: string, examples?: number[]) =>
  Type.Number({
    minimum: 0,
    maximum: 99_999_999.99,
    ...(description ? { description } : {}),
    ...(examples ? { examples } : {}),
  });

export const Email = () => Type.String({ format: 'email', maxLength: 254 });

/** A required human-entered text: not blank, bounded length (stored trimmed). */
export const Text = (maxLength: number, minLength = 1) =>
  Type.String({ minLength, maxLength, ...notBlank });
