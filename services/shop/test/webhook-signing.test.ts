// The shop signs deliveries with node:crypto (signing.ts); receivers verify them with any
// Standard Webhooks library. Here the `standardwebhooks` library itself verifies what the shop
// signs, and makes the same signature, for random secrets, ids and bodies (non-ASCII included);
// a changed body, id or timestamp, or another secret, is refused. No database, network or timers.
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { sign, signedHeaders, signingKey } from '../src/modules/webhooks/signing.js';

const secret = () => `whsec_${randomBytes(24 + Math.floor(Math.random() * 40)).toString('base64')}`;
const bodies = [
  '{}',
  JSON.stringify({ type: 'order.created', data: { name: 'Straße, café — 犬', total: '12.50' } }),
  JSON.stringify({ type: 'x', data: { blob: randomBytes(3000).toString('base64'), e: '😀' } }),
];

/** The flat header list as a record (what a receiver's framework hands the library). */
const record = (headers: string[]) =>
  Object.fromEntries(
    Array.from({ length: headers.length / 2 }, (_, i) => [headers[2 * i]!, headers[2 * i + 1]!]),
  );

describe('signatures by node:crypto, checked by the standardwebhooks library', () => {
  it('are the library’s own signatures, and verify, for random secrets, ids and bodies', () => {
    for (let i = 0; i < 200; i++) {
      const current = secret();
      const id = randomUUID();
      const text = bodies[i % bodies.length]!;
      const body = Buffer.from(text);
      const now = new Date();
      const headers = record(signedHeaders(id, body, [signingKey(current)], now));
      expect(headers['webhook-signature']).toBe(new Webhook(current).sign(id, now, text));
      expect(new Webhook(current).verify(text, headers)).toEqual(JSON.parse(text));
      expect(headers['content-length']).toBe(String(body.length));
      expect(headers['webhook-id']).toBe(id);
    }
  });

  it('with two secrets (a rotation), each verifies; a change or another secret is refused', () => {
    const [current, previous, other] = [secret(), secret(), secret()];
    const id = randomUUID();
    const text = bodies[1]!;
    const headers = record(
      signedHeaders(id, Buffer.from(text), [signingKey(current), signingKey(previous)], new Date()),
    );
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(current).verify(text, headers)).not.toThrow();
    expect(() => new Webhook(previous).verify(text, headers)).not.toThrow();
    expect(() => new Webhook(other).verify(text, headers)).toThrow();
    expect(() => new Webhook(current).verify(text.replace('café', 'cafe'), headers)).toThrow();
    expect(() =>
      new Webhook(current).verify(text, { ...headers, 'webhook-id': randomUUID() }),
    ).toThrow();
    const ts = String(Number(headers['webhook-timestamp']) - 1);
    expect(() =>
      new Webhook(current).verify(text, { ...headers, 'webhook-timestamp': ts }),
    ).toThrow();
  });

  it('the key is the base64 after whsec_, as the library reads it; an empty one is refused', () => {
    const raw = randomBytes(32);
    const at = new Date(1_700_000_000_000);
    const body = Buffer.from('{"a":1}');
    expect(sign(signingKey(`whsec_${raw.toString('base64')}`), 'msg_1', 1_700_000_000, body)).toBe(
      new Webhook(raw.toString('base64')).sign('msg_1', at, '{"a":1}'),
    );
    expect(() => signingKey('whsec_')).toThrow();
  });
});
