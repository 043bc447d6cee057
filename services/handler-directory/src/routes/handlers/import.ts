import {
  IMPORT_MAX_BYTES,
  XLSX_CONTENT_TYPE,
  importHandlersOperation,
} from '@dogshop/contracts/handler-directory';
import { HttpError, badRequest } from '@dogshop/service-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyRequest } from 'fastify';
import { importHandlers } from '../../modules/handlers/import.js';
import { IMPORT_MESSAGES } from '../../messages.js';
import type { ImportFormat } from '../../modules/handlers/import-parse.js';
import type { HandlerWriter } from '../../modules/handlers/service.js';

/**
 * An uploaded file. Its bytes are behind a getter, not an own property, so the input checks every
 * body passes (reject-nul walks objects) do not visit them one by one.
 */
class UploadedFile {
  readonly #bytes: Buffer;
  constructor(
    bytes: Buffer,
    readonly format: ImportFormat,
  ) {
    this.#bytes = bytes;
  }
  get bytes(): Buffer {
    return this.#bytes;
  }
}

const FORMATS: ReadonlyArray<[string, ImportFormat]> = [
  ['text/csv', 'csv'],
  [XLSX_CONTENT_TYPE, 'xlsx'],
];

/**
 * POST /users/import (admin): the file is the body. Registered as a plugin of its own, so its
 * body parsers (CSV and XLSX, up to IMPORT_MAX_BYTES; no JSON) and its 413 and 415 texts apply to
 * this route only.
 */
export const importRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.removeAllContentTypeParsers();
  for (const [type, format] of FORMATS) {
    app.addContentTypeParser(
      type,
      { parseAs: 'buffer', bodyLimit: IMPORT_MAX_BYTES },
      (_request, body, done) => done(null, new UploadedFile(body as Buffer, format)),
    );
  }
  // The framework's refusals in this route's words; everything else goes on to the service's
  // error envelope (a throwing error handler hands the error to its parent's).
  app.setErrorHandler((error: FastifyError) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      throw new HttpError(413, IMPORT_MESSAGES.tooLarge);
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      throw new HttpError(415, IMPORT_MESSAGES.unsupportedMediaType);
    }
    throw error;
  });

  /** The request's writer: its account is the history's actor. */
  const writer = (request: FastifyRequest): HandlerWriter => {
    const { id, username, role } = request.account!;
    return { db: app.db, changed: app.handlersChanged, actor: { id, username, role } };
  };

  app.post(
    '/users/import',
    {
      schema: importHandlersOperation,
      bodyLimit: IMPORT_MAX_BYTES,
      config: { auth: 'admin', personal: true },
    },
    async (request, reply) => {
      const file = request.body;
      // No body at all (no Content-Type, nothing sent): there is no file to read.
      if (!(file instanceof UploadedFile)) throw badRequest(IMPORT_MESSAGES.noFile);
      const result = await importHandlers(writer(request), file, request.query.dryRun ?? true);
      if (!result.dryRun && !result.applied) {
        return reply.code(422).send({
          success: false as const,
          message: IMPORT_MESSAGES.refused(result.summary.invalid),
          ...result,
        });
      }
      return { success: true as const, ...result };
    },
  );
};
