// W1's webhook receiver: a plain node:http server on 127.0.0.1 in the harness process that checks
// each delivery's Standard Webhooks signature (HMAC-SHA256 with node:crypto, as any receiver
// would, cheap beside the load generator) and notes when each webhook-id first arrived. It can be
// taken down (connections refused) and brought back on the same port.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * True when one of the `webhook-signature` entries (`v1,<base64>`, space-separated) is the
 * HMAC-SHA256 of `${id}.${timestamp}.${body}` under the secret (`whsec_<base64 key>`).
 */
export function verifySignature(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${headers.id}.${headers.timestamp}.${body}`)
    .digest();
  return headers.signature.split(' ').some((entry) => {
    const [version, value] = entry.split(',');
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** The first acknowledged arrival of one webhook-id. */
export interface Delivered {
  /** Wall-clock milliseconds (fractional) when the request's body had arrived. */
  arrivedAt: number;
  /** The event's `timestamp` (when the shop's transaction wrote it), in epoch milliseconds. */
  eventAt: number;
  type: string;
}

export class WebhookReceiver {
  /** Keyed by webhook-id: the first arrival. */
  readonly delivered = new Map<string, Delivered>();
  /** Requests for a webhook-id already delivered (at least once: a second claim, or a retry). */
  duplicates = 0;
  /** Requests whose signature did not verify (answered 400). */
  badSignatures = 0;
  secret = '';
  port = 0;
  private server: http.Server | undefined;

  get url(): string {
    return `http://127.0.0.1:${this.port}/webhooks/shop`;
  }

  get listening(): boolean {
    return this.server !== undefined;
  }

  /** Listens on `port` (the previous one when coming back; a free one the first time). */
  async listen(port = this.port): Promise<void> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const arrivedAt = performance.timeOrigin + performance.now();
        const body = Buffer.concat(chunks).toString('utf8');
        const id = String(req.headers['webhook-id']);
        const ok = verifySignature(
          this.secret,
          {
            id,
            timestamp: String(req.headers['webhook-timestamp']),
            signature: String(req.headers['webhook-signature']),
          },
          body,
        );
        if (!ok) {
          this.badSignatures++;
          res.writeHead(400).end();
          return;
        }
        if (this.delivered.has(id)) this.duplicates++;
        else {
          const event = JSON.parse(body) as { type: string; timestamp: string };
          this.delivered.set(id, {
            arrivedAt,
            eventAt: Date.parse(event.timestamp),
            type: event.type,
          });
        }
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  /** Stops listening and drops open connections: the port then refuses connections. */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  /** Forgets what arrived (a new subscription, a new phase). */
  reset(secret: string): void {
    this.delivered.clear();
    this.duplicates = 0;
    this.badSignatures = 0;
    this.secret = secret;
  }

  /** Commit-to-delivery latencies (ms) of what has arrived, ascending. */
  latencies(): number[] {
    return [...this.delivered.values()].map((d) => d.arrivedAt - d.eventAt).sort((a, b) => a - b);
  }
}

/** The q-quantile (0–1) of ascending `sorted` (nearest rank); NaN when empty. */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
