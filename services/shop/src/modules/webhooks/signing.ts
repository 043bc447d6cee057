import { Webhook } from 'standardwebhooks';
import type { ClaimedDelivery } from './repository.js';
import { OpenedSecrets, openSecret } from './secrets.js';

/**
 * The Standard Webhooks headers for one attempt: `webhook-id` (the event id, the same on every
 * attempt), `webhook-timestamp` (now) and `webhook-signature` (`v1,<base64 HMAC-SHA256>`), by the
 * current secret and, while a rotation's overlap lasts, by the previous one too.
 */
export function signedHeaders(
  delivery: Pick<ClaimedDelivery, 'eventId' | 'payload'>,
  signers: Array<Pick<Webhook, 'sign'>>,
  now: Date,
): Record<string, string> {
  const signatures = signers.map((signer) => signer.sign(delivery.eventId, now, delivery.payload));
  return {
    'content-type': 'application/json',
    'user-agent': 'dogshop-webhooks/1',
    'webhook-id': delivery.eventId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
    'content-length': String(Buffer.byteLength(delivery.payload)),
  };
}

/**
 * Signs deliveries with their webhook's secrets (the `standardwebhooks` library), each webhook's
 * sealed secrets opened once (again after a rotation) and kept ready to sign with.
 */
export class Signer {
  private readonly signers: OpenedSecrets<Webhook>;

  constructor(secretKey: string) {
    this.signers = new OpenedSecrets((sealed) => new Webhook(openSecret(secretKey, sealed)));
  }

  /** The headers of an attempt made at `at`. */
  headers(delivery: ClaimedDelivery, at: Date): Record<string, string> {
    const signers = [this.signers.get(delivery.webhookId, 'current', delivery.secret)];
    if (
      delivery.previousSecret &&
      delivery.previousSecretUntil &&
      delivery.previousSecretUntil > at
    ) {
      signers.push(this.signers.get(delivery.webhookId, 'previous', delivery.previousSecret));
    }
    return signedHeaders(delivery, signers, at);
  }
}
