// The directory closing (SIGTERM runs app.close()): a request already under way is answered, one
// that arrives on the same connection meanwhile gets 503 in the directory's German envelope.
import { connect, type AddressInfo } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { buildApp } from '../src/app.js';
import { MESSAGES } from '../src/messages.js';
import { testConfig } from './support/app.js';

describe('shutdown', () => {
  it('answers a request arriving while it closes with 503 in the envelope, the one in flight first', async () => {
    const app = await buildApp(testConfig());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));

    // A login whose body has not arrived yet: under way when the shutdown begins.
    const body = JSON.stringify({ username: 'niemand', password: 'falsch' });
    socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = app.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.write(`${body}GET /api/public/users HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    await ended;
    await closed;

    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([401, 503]);
    const last = received.slice(received.lastIndexOf('HTTP/1.1 503'));
    expect(last).toMatch(/\r\nconnection: close\r\n/i);
    expect(last).toMatch(/\r\ncontent-type: application\/json/i);
    // The headers of every answer.
    expect(last).toMatch(/\r\nx-content-type-options: nosniff\r\n/i);
    expect(last).toMatch(/\r\nx-request-id: [\w-]+\r\n/i);
    expect(JSON.parse(last.slice(last.indexOf('\r\n\r\n') + 4))).toEqual({
      success: false,
      message: MESSAGES.unavailable,
    });
  });
});
