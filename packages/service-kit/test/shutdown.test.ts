// A request that arrives on an open connection while the server closes: 503 in the service's own
// envelope and language, with `Connection: close`, after the request in flight is answered.
import { connect, type AddressInfo } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import Fastify from 'fastify';
import { errorEnvelope, type ErrorEnvelopeOptions } from '../src/error-envelope.js';
import { serverOptions } from '../src/server-options.js';

/** Sends `first`, then (once `between` resolves) `second` on the same connection; all it read. */
async function twoOnOneConnection(
  port: number,
  first: string,
  between: () => Promise<void>,
  second: string,
): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  const ended = new Promise<void>((resolve, reject) => {
    socket.on('close', () => resolve()).on('error', reject);
  });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(first);
  await between();
  socket.write(second);
  await ended;
  return received;
}

/** The answers of a connection, each with its status, headers (lower-cased) and body. */
function answers(raw: string) {
  const found: Array<{ status: number; headers: Record<string, string>; body: string }> = [];
  let rest = raw;
  while (rest.startsWith('HTTP/1.1 ')) {
    const headEnd = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, headEnd).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => {
        const at = line.indexOf(':');
        return [line.slice(0, at).toLowerCase(), line.slice(at + 1).trim()];
      }),
    );
    const length = Number(headers['content-length'] ?? 0);
    const body = rest.slice(headEnd + 4, headEnd + 4 + length);
    found.push({ status: Number(statusLine!.split(' ')[1]), headers, body });
    rest = rest.slice(headEnd + 4 + length);
  }
  return found;
}

const SERVICES: Array<[string, ErrorEnvelopeOptions, Record<string, unknown>]> = [
  [
    'the shop',
    { body: (status_code, error) => ({ success: false, error, status_code }) },
    { success: false, error: 'Service temporarily unavailable', status_code: 503 },
  ],
  [
    'the directory',
    {
      body: (_status, message) => ({ success: false, message }),
      messages: { byStatus: { 503: 'Dienst vorübergehend nicht verfügbar' } },
    },
    { success: false, message: 'Dienst vorübergehend nicht verfügbar' },
  ],
];

describe('a request arriving during shutdown', () => {
  it.each(SERVICES)(
    'is answered 503 in %s’s envelope, the one in flight first',
    async (_, envelope, expected) => {
      const app = Fastify(serverOptions({ logLevel: 'silent' }));
      await app.register(errorEnvelope, envelope);
      let entered!: () => void;
      const inFlight = new Promise<void>((resolve) => (entered = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      app.get('/slow', async () => {
        entered();
        await released;
        return { done: true };
      });
      app.get('/other', async () => ({ reached: true }));
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      let closed: Promise<void> | undefined;

      const raw = await twoOnOneConnection(
        port,
        'GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n',
        async () => {
          await inFlight;
          closed = app.close();
          // close() marks the app closing before it stops listening (its preClose hooks).
          await new Promise((resolve) => setTimeout(resolve, 50));
          setTimeout(release, 50);
        },
        'GET /other HTTP/1.1\r\nHost: localhost\r\n\r\n',
      );
      await closed;

      const [slow, other] = answers(raw);
      expect(slow).toMatchObject({ status: 200, body: '{"done":true}' });
      expect(other?.status).toBe(503);
      expect(other?.headers.connection).toBe('close');
      expect(other?.headers['content-type']).toMatch(/^application\/json/);
      expect(other?.headers).toMatchObject({ 'x-content-type-options': 'nosniff' });
      expect(other?.headers['x-request-id']).toBeTruthy();
      expect(JSON.parse(other!.body)).toEqual(expected);
    },
  );
});
