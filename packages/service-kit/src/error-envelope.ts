import type { ErrorObject } from 'ajv';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from './http-error.js';
import { helmetHeaders } from './security.js';

export interface ErrorEnvelopeOptions {
  /** Renders a service's error body, e.g. `{success:false, error, status_code}`. */
  body: (statusCode: number, message: string) => Record<string, unknown>;
  /** Message texts for the errors the framework raises (services may translate them). */
  messages?: Partial<Record<'notFound' | 'internal' | 'validation' | 'unknownField', string>> & {
    /**
     * Replaces the framework's own English text for errors it raises with this status (malformed
     * JSON 400, 413, 415, 503 …); a service's own HttpErrors keep their message.
     */
    byStatus?: Partial<Record<number, string>>;
    /** Like `byStatus`, for one framework error code (e.g. `FST_ERR_BAD_URL`); checked first. */
    byCode?: Partial<Record<string, string>>;
  };
  /**
   * True for failures that mean the database cannot be reached right now (connection refused,
   * closed or timed out, server shutting down): answered 503 instead of 500.
   */
  isUnavailable?: (error: unknown) => boolean;
  /**
   * Rewrites the messages of schema validation errors in place before they are described, e.g.
   * `germanValidation(...)` for `muss sein: number` instead of `must be number`.
   */
  localize?: (errors: ErrorObject[]) => void;
}

/** English texts of framework errors whose own message would echo the request's URL. */
const FRAMEWORK_MESSAGES: Partial<Record<string, string>> = {
  FST_ERR_BAD_URL: 'Malformed URL: a path segment is not valid percent-encoding',
  FST_ERR_MAX_PARAM_LENGTH: 'URI too long: a path segment is too long',
};

/**
 * One place that turns every failure into the service's error envelope: domain HttpErrors,
 * schema validation (400 naming the field and rule), framework errors that carry a 4xx status
 * (malformed JSON, 413, 415, 429 from the rate limiter), unknown routes (404), an unreachable
 * database (503, when the service says how to recognise it) and anything unexpected (500 with a
 * generic message; the details go to the log only).
 */
export const errorEnvelope = fp<ErrorEnvelopeOptions>(
  async (app: FastifyInstance, opts) => {
    const internal = opts.messages?.internal ?? 'Internal server error';
    app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
      if (error instanceof HttpError) {
        for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
        return reply.code(error.statusCode).send(opts.body(error.statusCode, error.message));
      }
      if (error.validation) {
        if (opts.localize) opts.localize(error.validation as ErrorObject[]);
        const message = describeValidation(error, opts.messages);
        return reply.code(400).send(opts.body(400, message));
      }
      if (opts.isUnavailable?.(error)) {
        request.log.warn({ err: error }, 'database unavailable');
        const message = opts.messages?.byStatus?.[503] ?? 'Service temporarily unavailable';
        return reply.code(503).send(opts.body(503, message));
      }
      const status = error.statusCode ?? 500;
      const translated =
        (error.code ? opts.messages?.byCode?.[error.code] : undefined) ??
        opts.messages?.byStatus?.[status] ??
        (error.code ? FRAMEWORK_MESSAGES[error.code] : undefined);
      if (status >= 400 && status < 500) {
        return reply.code(status).send(opts.body(status, translated ?? error.message));
      }
      if (status === 503) {
        return reply
          .code(503)
          .send(opts.body(503, translated ?? 'Service temporarily unavailable'));
      }
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send(opts.body(500, internal));
    });
    // While the server closes, Fastify lets a request that arrives on an open connection through
    // (return503OnClosing is off, serverOptions) with `Connection: close` set; it is answered
    // 503 here, in the service's envelope, before any other work (so with the headers every
    // answer carries, which the later hooks would have set).
    const securityHeaders = helmetHeaders();
    let closing = false;
    app.addHook('preClose', (done) => {
      closing = true;
      done();
    });
    // Callback style: an async hook costs every request a promise and a microtask.
    app.addHook('onRequest', (request, reply, done) => {
      if (!closing) {
        done();
        return;
      }
      reply.headers({ ...securityHeaders, 'x-request-id': request.id, connection: 'close' });
      done(new HttpError(503, opts.messages?.byStatus?.[503] ?? 'Service temporarily unavailable'));
    });
    app.setNotFoundHandler((request, reply) => {
      const message = opts.messages?.notFound ?? `Route ${request.method} ${request.url} not found`;
      return reply.code(404).send(opts.body(404, message));
    });
  },
  { name: 'error-envelope' },
);

/** "body/title must NOT have fewer than 3 characters" → names the field and the broken rule. */
function describeValidation(
  error: FastifyError,
  messages: ErrorEnvelopeOptions['messages'],
): string {
  const prefix = messages?.validation ?? '';
  const first = error.validation?.[0];
  if (!first) return error.message;
  const where = error.validationContext ?? 'request';
  const params = first.params;
  let field = first.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (typeof params.missingProperty === 'string') {
    field = field ? `${field}.${params.missingProperty}` : params.missingProperty;
  } else if (typeof params.additionalProperty === 'string') {
    const unknown = field ? `${field}.${params.additionalProperty}` : params.additionalProperty;
    return `${prefix}${where}: ${messages?.unknownField ?? 'unknown field'} '${unknown}'`;
  }
  const subject = field ? `${where}.${field}` : where;
  return `${prefix}${subject} ${first.message ?? 'is invalid'}`;
}
