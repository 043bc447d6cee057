// Import of handlers from a file the export wrote (CSV or XLSX): a dry run by default, then
// applied all or nothing.
import { Type, type Static } from 'typebox';
import { documented } from '../common.js';
import { directoryErrors } from './errors.js';
import { EXPORT_CSV_COLUMNS, XLSX_CONTENT_TYPE } from './handlers.js';
import { ObjectIdString } from './shared.js';
import { directoryTag } from './tags.js';

/** The largest import file, in bytes, and the most rows one may have. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 50_000;

export const ImportQuerySchema = Type.Object(
  {
    dryRun: Type.Optional(
      Type.Boolean({
        default: true,
        description:
          'true (default): only report what would happen; false: apply every row, or none when any row has a problem',
        examples: [false],
      }),
    ),
  },
  { additionalProperties: false },
);
export type ImportQuery = Static<typeof ImportQuerySchema>;

export const ImportRowSchema = Type.Object(
  {
    row: Type.Integer({ minimum: 2, description: 'Row number in the file (1 is the header row)' }),
    action: Type.Union(
      [
        Type.Literal('create'),
        Type.Literal('update'),
        Type.Literal('unchanged'),
        Type.Literal('invalid'),
      ],
      {
        description:
          '`create` (no id), `update` (an id whose handler differs), `unchanged` (the same as stored), `invalid` (see `problems`)',
      },
    ),
    id: Type.Optional(ObjectIdString('The handler updated, unchanged, or (once applied) created')),
  },
  { $id: 'ImportRow', title: 'ImportRow', additionalProperties: false },
);

export const ImportProblemSchema = Type.Object(
  {
    row: Type.Integer({ minimum: 1 }),
    column: Type.String({ description: 'The column header, as in the export' }),
    message: Type.String({ description: 'German' }),
  },
  { $id: 'ImportProblem', title: 'ImportProblem', additionalProperties: false },
);
export type ImportProblem = Static<typeof ImportProblemSchema>;

const importReportFields = {
  dryRun: Type.Boolean(),
  applied: Type.Boolean({ description: 'Whether the rows were written' }),
  summary: Type.Object(
    {
      rows: Type.Integer({ minimum: 0 }),
      create: Type.Integer({ minimum: 0 }),
      update: Type.Integer({ minimum: 0 }),
      unchanged: Type.Integer({ minimum: 0 }),
      invalid: Type.Integer({ minimum: 0 }),
    },
    { additionalProperties: false },
  ),
  rows: Type.Array(ImportRowSchema),
  problems: Type.Array(ImportProblemSchema),
};

export const ImportReportSchema = Type.Object(
  { success: Type.Literal(true), ...importReportFields },
  { $id: 'ImportReport', title: 'ImportReport', additionalProperties: false },
);
export type ImportReport = Static<typeof ImportReportSchema>;

export const ImportRefusedSchema = Type.Object(
  { success: Type.Literal(false), message: Type.String(), ...importReportFields },
  { $id: 'ImportRefused', title: 'ImportRefused', additionalProperties: false },
);
export type ImportRefused = Static<typeof ImportRefusedSchema>;

/** The media types an import file may have. */
export const IMPORT_CONTENT_TYPES = ['text/csv', XLSX_CONTENT_TYPE] as const;

const reportExample: ImportReport = {
  success: true,
  dryRun: true,
  applied: false,
  summary: { rows: 3, create: 1, update: 1, unchanged: 0, invalid: 1 },
  rows: [
    { row: 2, action: 'update', id: '665f1c2ab4d3e8a1c2f0b123' },
    { row: 3, action: 'create' },
    { row: 4, action: 'invalid' },
  ],
  problems: [{ row: 4, column: 'lat', message: 'keine Zahl zwischen -90 und 90' }],
};

export const importHandlersOperation = {
  tags: directoryTag('Export'),
  operationId: 'importHandlers',
  summary: 'Import handlers from a CSV or XLSX file (a dry run unless dryRun=false)',
  description:
    `The body is the file itself: \`Content-Type: text/csv\` (the export's columns \`${EXPORT_CSV_COLUMNS.join(',')}\` by header name, comma or semicolon, UTF-8 with or without byte-order mark, the export's formula-guard apostrophes removed) or \`${XLSX_CONTENT_TYPE}\` (the export's first sheet). ` +
    'A row with an `id` updates that handler (only the fields that differ; `unchanged` when none does); a row without one creates a handler; `availabilityConfirmedAt`, `createdAt` and `updatedAt` are ignored; `name` and `phone` are required; empty cells clear optional fields. Cell text is taken as text: no formula is evaluated. ' +
    '`dryRun=true` (default) writes nothing and reports per row what would happen and every problem with its row, column and a German message. `dryRun=false` applies every row in one transaction, each change entering the history as `import`, or, when any row has a problem, none (422 with the same report). A file the service exported, imported unchanged, changes nothing. ' +
    `At most ${IMPORT_MAX_BYTES / 1024 / 1024} MB and ${IMPORT_MAX_ROWS.toLocaleString('en')} rows (413 beyond). Admin only.`,
  querystring: ImportQuerySchema,
  // The file is the body, in one of two media types. Each schema only describes it: no `type`,
  // since what the route validates is the file its body parser made of the bytes (a JSON Schema
  // type would refuse it), and the document then says what a client sends.
  body: {
    content: {
      'text/csv': {
        schema: {
          description: `The CSV file: UTF-8, a header row naming the export's columns (\`${EXPORT_CSV_COLUMNS.join(',')}\`), comma or semicolon`,
          contentMediaType: 'text/csv',
          examples: [
            'name,phone,address,available,lat,lng\r\nJörg Berger,+49 171 2345678,Forsthaus 1,true,52.52,13.405\r\n',
          ],
        },
      },
      [XLSX_CONTENT_TYPE]: {
        schema: {
          description:
            "The XLSX workbook: its sheet named `Hundeführer` (else its first) with a header row naming the export's columns",
          format: 'binary',
          contentMediaType: XLSX_CONTENT_TYPE,
        },
      },
    },
  },
  response: {
    200: documented(ImportReportSchema, {
      description: 'What the import does (dry run) or did (applied)',
      examples: [reportExample],
    }),
    422: documented(ImportRefusedSchema, {
      description: '`dryRun=false` and some rows have problems: nothing was written',
      examples: [
        {
          ...reportExample,
          success: false,
          dryRun: false,
          message: 'Import nicht angewendet: 1 Zeile mit Problemen',
        },
      ],
    }),
    ...directoryErrors(
      [400, 'Ungültige Anfrage: die Datei hat keine Spalte name'],
      401,
      403,
      [413, 'Datei zu groß (höchstens 10 MB und 50.000 Zeilen)', 'More than 10 MB or 50,000 rows'],
      [
        415,
        'Nicht unterstützter Content-Type (erwartet: text/csv oder eine XLSX-Datei)',
        'Neither text/csv nor XLSX',
      ],
      429,
    ),
  },
};
