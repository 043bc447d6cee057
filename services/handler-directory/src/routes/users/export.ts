import {
  EXPORT_CSV_COLUMNS,
  ExportJsonResponseSchema,
  ExportQuerySchema,
} from '@dogshop/contracts/handler-directory';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { exportCsv, exportJson } from '../../services/handler-export.js';
import { bearerSecurity, errorResponses } from '../responses.js';

/** Export of every handler: any logged-in account (admin or viewer). */
export const userExportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users/export',
    {
      schema: {
        tags: ['Export'],
        operationId: 'exportHandlers',
        summary: 'All handlers as JSON or as a CSV download',
        description:
          `\`format=json\` (default): \`{success, exportedAt, count, data}\`. \`format=csv\`: UTF-8 with byte-order mark, columns \`${EXPORT_CSV_COLUMNS.join(',')}\`, RFC 4180 quoting, ` +
          "`delimiter=semicolon` optional; text cells starting with `=`, `+`, `-`, `@`, tab or CR are prefixed with `'` against formula injection. Both stream: memory stays flat for any directory size.",
        security: bearerSecurity,
        querystring: ExportQuerySchema,
        response: {
          200: {
            description: 'The export',
            content: {
              'application/json': { schema: ExportJsonResponseSchema },
              'text/csv': { schema: { type: 'string' } },
            },
          },
          ...errorResponses(400, 401, 429),
        },
      },
    },
    async (request, reply) => {
      const exportedAt = new Date();
      // Streams bypass response serialization; the type provider only knows the JSON schema.
      const send = (stream: Readable) => reply.send(stream as never);
      reply.header('cache-control', 'no-store');
      if (request.query.format === 'csv') {
        const day = exportedAt.toISOString().slice(0, 10);
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="handlers-${day}.csv"`);
        return send(exportCsv(app.db, request.query.delimiter ?? 'comma'));
      }
      reply.type('application/json; charset=utf-8');
      return send(exportJson(app.db, exportedAt));
    },
  );
};
