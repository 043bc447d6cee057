import {
  EXPORT_CSV_COLUMNS,
  ExportJsonResponseSchema,
  ExportQuerySchema,
  handlerExample,
  type ExportJsonResponse,
} from '@dogshop/contracts/handler-directory';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { exportCsv, exportJson } from '../../services/handler-export.js';
import { exportXlsx, XLSX_CONTENT_TYPE } from '../../services/xlsx-export.js';
import { MESSAGES } from '../../messages.js';
import { bearerSecurity, errorResponses } from '../responses.js';

/** Export of every handler: any logged-in account (admin or viewer). */
const JSON_EXAMPLE: ExportJsonResponse = {
  success: true,
  exportedAt: '2026-03-20T12:00:00.000Z',
  data: [handlerExample],
  count: 1,
};
const CSV_EXAMPLE =
  '\ufeffid,name,address,phone,type,available,lat,lng,createdAt,updatedAt\r\n' +
  '665f1c2ab4d3e8a1c2f0b123,Anna Bergmann,"Am Forsthaus 5, 29614 Soltau",+49 5191 987654,SW,true,52.9866,9.8429,2026-02-11T07:45:00.000Z,2026-03-02T16:10:27.000Z\r\n';

export const userExportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users/export',
    {
      schema: {
        tags: ['Export'],
        operationId: 'exportHandlers',
        summary: 'All handlers as JSON, or as a CSV or XLSX download',
        description:
          `\`format=json\` (default): \`{success, exportedAt, count, data}\`. \`format=csv\`: UTF-8 with byte-order mark, columns \`${EXPORT_CSV_COLUMNS.join(',')}\`, RFC 4180 quoting, ` +
          "`delimiter=semicolon` optional; text cells starting with `=`, `+`, `-`, `@`, tab or CR are prefixed with `'` against formula injection. " +
          '`format=xlsx`: an Excel workbook with the same columns and header row, typed cells (text as text, never a formula, so no prefix; coordinates as numbers; `available` as a boolean; timestamps as UTC date-times; missing values empty); `delimiter` is ignored. ' +
          'All formats stream: memory stays flat for any directory size.',
        security: bearerSecurity,
        querystring: ExportQuerySchema,
        response: {
          200: {
            description:
              'The export: JSON, or with `format=csv` / `format=xlsx` a download (`Content-Disposition: attachment; filename="handlers-YYYY-MM-DD.csv"` or `.xlsx`)',
            content: {
              'application/json': {
                schema: ExportJsonResponseSchema,
                example: JSON_EXAMPLE,
              },
              'text/csv': { schema: { type: 'string' }, example: CSV_EXAMPLE },
              [XLSX_CONTENT_TYPE]: {
                schema: {
                  type: 'string',
                  format: 'binary',
                  description:
                    'Office Open XML workbook, sheet "Hundeführer" (beyond Excel\'s 1,048,575 rows a sheet, continued on "Hundeführer 2", …)',
                },
              },
            },
          },
          ...errorResponses(
            [
              400,
              `${MESSAGES.invalidRequest}querystring.format must be equal to one of the allowed values`,
            ],
            401,
            429,
          ),
        },
      },
    },
    async (request, reply) => {
      const exportedAt = new Date();
      // Streams bypass response serialization; the type provider only knows the JSON schema.
      const send = (stream: Readable) => reply.send(stream as never);
      reply.header('cache-control', 'no-store');
      const day = exportedAt.toISOString().slice(0, 10);
      if (request.query.format === 'csv') {
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="handlers-${day}.csv"`);
        return send(exportCsv(app.db, request.query.delimiter ?? 'comma'));
      }
      if (request.query.format === 'xlsx') {
        reply
          .type(XLSX_CONTENT_TYPE)
          .header('content-disposition', `attachment; filename="handlers-${day}.xlsx"`);
        return send(exportXlsx(app.db));
      }
      reply.type('application/json; charset=utf-8');
      return send(exportJson(app.db, exportedAt));
    },
  );
};
