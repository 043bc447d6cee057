import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export type ClientErrorStatus = 400 | 408 | 413 | 414 | 431;

export interface ClientErrorOptions {
  /** The service's error body, as for the error envelope. */
  body: (statusCode: number, message: string) => Record<string, unknown>;
  /** Texts per status (English defaults). */
  messages?: Partial<Record<ClientErrorStatus, string>>;
}

const ENGLISH: Record<ClientErrorStatus, string> = {
  400: 'Bad request: the request could not be parsed',
  408: 'Request timeout: the request did not arrive completely in time',
  413: 'Request too large',
  414: 'URI too long',
  431: 'Request header fields too large (URL or headers too long)',
};

/** Node's parser and timeout error codes → status, as Node's own fallback answers them. */
function statusOf(code: string | undefined): ClientErrorStatus {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 408;
    case 'HPE_HEADER_OVERFLOW':
      return 431;
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return 413;
    case 'HPE_URI_TOO_LONG': // llhttp does not raise it today (a long URL is a header overflow)
      return 414;
    default:
      return 400;
  }
}

/**
 * Fastify `clientErrorHandler`: errors Node raises before a request reaches Fastify (unparsable
 * request line or headers, header overflow, request timeout) answered in the service's envelope
 * instead of Fastify's `{"error":"Bad Request","message":"Client Error"}`. Runs bound to the
 * Fastify instance.
 */
export function clientErrorHandler(opts: ClientErrorOptions) {
  return function handleClientError(
    this: FastifyInstance,
    error: Error & { code?: string },
    socket: Socket,
  ): void {
    // A reset or already closed connection has nobody left to answer.
    if (error.code === 'ECONNRESET' || !socket || socket.destroyed) return;
    const status = statusOf(error.code);
    this.log.debug({ err: error, status }, 'client error');
    // A response already under way (headers sent) must not be corrupted by a second one.
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const payload = JSON.stringify(opts.body(status, opts.messages?.[status] ?? ENGLISH[status]));
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
          'Connection: close\r\n' +
          'Content-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`,
      );
    }
    socket.destroy(error);
  };
}
