import {
  importProductsOperation,
  PRODUCT_IMPORT_MAX_BYTES,
  PRODUCT_IMPORT_MAX_ROWS,
} from '@dogshop/contracts/shop';
import { HttpError, badRequest } from '@dogshop/service-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError } from 'fastify';
import { importProducts } from '../../modules/product-admin/import.js';
import { actorOf } from '../../plugins/auth.js';

/** The uploaded file's bytes, as the body parser hands them on. */
class UploadedCsv {
  constructor(readonly bytes: Buffer) {}
}

const TOO_LARGE = `the file is larger than ${PRODUCT_IMPORT_MAX_BYTES / 1024 / 1024} MB or has more than ${PRODUCT_IMPORT_MAX_ROWS.toLocaleString('en')} rows`;

/**
 * POST /admin/products/import: the CSV file is the body. A plugin of its own, so its body parser
 * (text/csv only, up to PRODUCT_IMPORT_MAX_BYTES) and its 413 and 415 texts apply to this route
 * only.
 */
export const productImportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'text/csv',
    { parseAs: 'buffer', bodyLimit: PRODUCT_IMPORT_MAX_BYTES },
    (_request, body, done) => done(null, new UploadedCsv(body as Buffer)),
  );
  // The framework's refusals in this route's words; everything else goes on to the service's
  // error envelope (a throwing error handler hands the error to its parent's).
  app.setErrorHandler((error: FastifyError) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new HttpError(413, TOO_LARGE);
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      throw new HttpError(415, 'Unsupported Media Type: send the CSV file as text/csv');
    }
    throw error;
  });

  app.post(
    '/admin/products/import',
    {
      schema: importProductsOperation,
      bodyLimit: PRODUCT_IMPORT_MAX_BYTES,
      config: { auth: 'scoped', scope: 'catalogue:write' },
    },
    async (request, reply) => {
      const file = request.body;
      if (!(file instanceof UploadedCsv)) throw badRequest('send the CSV file as the body');
      const report = await importProducts(
        app.db,
        actorOf(request),
        file.bytes,
        request.query.dry_run,
      );
      if (!report.dry_run && !report.applied) {
        const invalid = new Set(report.problems.map((p) => p.row)).size;
        reply.code(422);
        return {
          success: false as const,
          error: `import not applied: ${invalid} ${invalid === 1 ? 'row has' : 'rows have'} problems`,
          status_code: 422 as const,
          data: report,
        };
      }
      return { success: true as const, data: report };
    },
  );
};
