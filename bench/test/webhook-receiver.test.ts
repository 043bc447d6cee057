// W1's receiver without the shop: its signature check against the Standard Webhooks test vector
// (the one the reference libraries test with), what it records, and going down and coming back
// on the same port.
import { afterAll, describe, expect, it } from '@jest/globals';
import { quantile, verifySignature, WebhookReceiver } from '../src/infra/webhook-receiver.js';

const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: '1614265330',
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('verifySignature', () => {
  const headers = { id: VECTOR.id, timestamp: VECTOR.timestamp, signature: VECTOR.signature };

  it('accepts the Standard Webhooks test vector, also beside another signature', () => {
    expect(verifySignature(VECTOR.secret, headers, VECTOR.body)).toBe(true);
    const rotated = `v1,${Buffer.alloc(32).toString('base64')} ${VECTOR.signature}`;
    expect(verifySignature(VECTOR.secret, { ...headers, signature: rotated }, VECTOR.body)).toBe(
      true,
    );
  });

  it('refuses a changed body, id or timestamp, another version and another secret', () => {
    expect(verifySignature(VECTOR.secret, headers, '{"test": 2432232315}')).toBe(false);
    expect(verifySignature(VECTOR.secret, { ...headers, id: 'msg_other' }, VECTOR.body)).toBe(
      false,
    );
    expect(
      verifySignature(VECTOR.secret, { ...headers, timestamp: '1614265331' }, VECTOR.body),
    ).toBe(false);
    expect(
      verifySignature(
        VECTOR.secret,
        { ...headers, signature: VECTOR.signature.replace('v1,', 'v2,') },
        VECTOR.body,
      ),
    ).toBe(false);
    expect(verifySignature('whsec_' + 'A'.repeat(32), headers, VECTOR.body)).toBe(false);
  });
});

it('quantile takes the nearest rank', () => {
  const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
  expect(quantile(sorted, 0.5)).toBe(50);
  expect(quantile(sorted, 0.99)).toBe(99);
  expect(quantile(sorted, 1)).toBe(100);
  expect(quantile([7], 0.99)).toBe(7);
  expect(quantile([], 0.5)).toBeNaN();
});

describe('the receiver', () => {
  const receiver = new WebhookReceiver();
  afterAll(() => receiver.close());

  const send = (body: string, signature = VECTOR.signature) =>
    fetch(receiver.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': VECTOR.id,
        'webhook-timestamp': VECTOR.timestamp,
        'webhook-signature': signature,
      },
      body,
    });

  it('records the first arrival of each webhook-id with its latency, counts repeats and bad signatures', async () => {
    await receiver.listen(0);
    receiver.reset(VECTOR.secret);
    // The vector's body has no type or timestamp: the latency is then NaN, but it is recorded.
    expect((await send(VECTOR.body)).status).toBe(200);
    expect((await send(VECTOR.body)).status).toBe(200);
    expect((await send('{"test": 1}')).status).toBe(400);
    expect(receiver.delivered.size).toBe(1);
    expect(receiver.duplicates).toBe(1);
    expect(receiver.badSignatures).toBe(1);
    expect(receiver.delivered.get(VECTOR.id)!.arrivedAt).toBeGreaterThan(Date.now() - 5_000);
  });

  it('refuses connections while down, and answers on the same port when back', async () => {
    const port = receiver.port;
    await receiver.close();
    await expect(send(VECTOR.body)).rejects.toThrow();
    await receiver.listen();
    expect(receiver.port).toBe(port);
    receiver.reset(VECTOR.secret);
    expect((await send(VECTOR.body)).status).toBe(200);
    expect(receiver.delivered.size).toBe(1);
  });
});
