import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import type { ClaimedDelivery } from './repository.js';
import { OpenedSecrets, openSecret } from './secrets.js';

const SECRET_PREFIX = 'whsec_';

/** A Standard Webhooks secret's key: the base64 after `whsec_`. */
export function signingKey(secret: string): KeyObject {
  const base64 = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(base64, 'base64');
  if (key.length === 0) throw new Error("a webhook's signing secret is empty");
  return createSecretKey(key);
}

/**
 * The Standard Webhooks signature `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, by
 * node:crypto (the `standardwebhooks` library's pure-JavaScript SHA-256 cost about 8 % of a
 * delivery's CPU; test/webhook-signing.test.ts checks both agree).
 */
export function sign(key: KeyObject, id: string, timestamp: number, body: Buffer): string {
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body);
  return `v1,${mac.digest('base64')}`;
}

/**
 * The Standard Webhooks headers of one attempt, as the flat list of names and values the sender
 * takes: `webhook-id` (the event id, the same on every attempt), `webhook-timestamp` (now) and
 * `webhook-signature` by each key (the current secret's and, while a rotation's overlap lasts,
 * the previous one's), space-separated.
 */
export function signedHeaders(
  eventId: string,
  body: Buffer,
  keys: KeyObject[],
  now: Date,
): string[] {
  const timestamp = Math.floor(now.getTime() / 1000);
  let signature = '';
  for (const key of keys) {
    signature += (signature ? ' ' : '') + sign(key, eventId, timestamp, body);
  }
  return [
    'content-type',
    'application/json',
    'user-agent',
    'dogshop-webhooks/1',
    'webhook-id',
    eventId,
    'webhook-timestamp',
    String(timestamp),
    'webhook-signature',
    signature,
    'content-length',
    String(body.length),
  ];
}

/**
 * Signs deliveries with their webhook's secrets, each webhook's sealed secrets opened once (again
 * after a rotation) and kept as ready keys.
 */
export class Signer {
  private readonly keys: OpenedSecrets<KeyObject>;

  constructor(secretKey: string) {
    this.keys = new OpenedSecrets((sealed) => signingKey(openSecret(secretKey, sealed)));
  }

  /** The headers of an attempt made at `at`, `body` being the delivery's payload as sent. */
  headers(delivery: ClaimedDelivery, body: Buffer, at: Date): string[] {
    const keys = [this.keys.get(delivery.webhookId, 'current', delivery.secret)];
    if (
      delivery.previousSecret &&
      delivery.previousSecretUntil &&
      delivery.previousSecretUntil > at
    ) {
      keys.push(this.keys.get(delivery.webhookId, 'previous', delivery.previousSecret));
    }
    return signedHeaders(delivery.eventId, body, keys, at);
  }
}
