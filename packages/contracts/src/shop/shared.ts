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

/** The query parameters every CSV export takes besides its list's filters. */
export const csvExportQuery = () => ({
  format: Type.Literal('csv', {
    default: 'csv',
    description: 'The file format: CSV',
    examples: ['csv'],
  }),
  delimiter: Type.Enum(['comma', 'semicolon'], {
    default: 'comma',
    description: 'semicolon for spreadsheet locales that expect it',
    examples: ['semicolon'],
  }),
});

/** What a CSV export's description says of its file (the filter's rows, in `order`). */
export const csvExportDescription = (what: string, order: string, columns: readonly string[]) =>
  [
    `Every ${what} of the filter (the list’s filters), ${order}, streamed: \`text/csv\` with a`,
    'UTF-8 byte-order mark, RFC 4180 quoting, and text cells starting with `=`, `+`, `-`, `@`, tab',
    `or carriage return neutralised against formula injection. Columns: ${columns.join(', ')}.`,
  ].join('\n');

/** A CSV export's 200: the download, its file name (`name-YYYY-MM-DD.csv`) and an example. */
export const csvDownload = (
  file: string,
  what: string,
  columns: readonly string[],
  row: string,
) => ({
  description: 'The CSV file, a download',
  headers: {
    'content-disposition': {
      type: 'string',
      description: `\`attachment; filename="${file}-YYYY-MM-DD.csv"\``,
    },
  },
  content: {
    'text/csv': {
      schema: {
        type: 'string',
        contentMediaType: 'text/csv',
        description: `UTF-8 with a byte-order mark, a header row \`${columns.join(',')}\` and a row per ${what}, CRLF line ends`,
      },
      example: `\ufeff${columns.join(',')}\r\n${row}\r\n`,
    },
  },
});
