import { EventEmitter } from 'node:events';
import { isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { checkedLookup, isPublicAddress, type TargetPolicy } from './targets.js';

/** At most this much of an answer is read; the rest is not waited for. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** How long a connection to a receiver is kept idle for its next request. */
const KEEP_ALIVE_IDLE_MS = 4_000;
/** undici's own time-outs (each set to the exchange's): reported as the exchange's. */
const TIMED_OUT = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
/** Targets by URL, parsed; started over when it holds this many. */
const TARGETS_KEPT = 1_000;

/** What one exchange came to: the answer's status, or why there was none. */
export interface Exchange {
  statusCode: number | null;
  error: string | null;
}

/** What `send` needs of a target URL, parsed once per URL (not per request). */
interface Target {
  https: boolean;
  origin: string;
  path: string;
}

/**
 * The whole exchange's time-out, as the `signal` undici takes (an emitter of 'abort'), its timer
 * cleared when the exchange ends: AbortSignal.timeout cost about 3 % of a delivery's CPU, and its
 * timer stayed until it fired.
 */
class Deadline extends EventEmitter {
  aborted = false;
  private readonly timer: NodeJS.Timeout;

  constructor(ms: number) {
    super();
    this.timer = setTimeout(() => {
      this.aborted = true;
      this.emit('abort');
    }, ms);
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

/**
 * The HTTP side of delivery: POSTs a signed body to a target through one undici Agent (a
 * keep-alive pool per receiver; Node's http client cost twice as much CPU per event). Its
 * connector resolves the host, refuses non-public addresses (unless
 * WEBHOOK_ALLOW_PRIVATE_TARGETS) and connects to the address it checked, whenever it opens a
 * connection (a kept-alive one was checked when it was opened; registration checks too,
 * targets.ts, but a name may resolve elsewhere later).
 */
export class Sender {
  private readonly agent: Agent;
  private readonly targets = new Map<string, Target>();

  constructor(private readonly policy: TargetPolicy & { timeoutMs: number }) {
    const connector = buildConnector({
      timeout: policy.timeoutMs,
      ...(policy.allowPrivateTargets ? {} : { lookup: checkedLookup }),
    });
    this.agent = new Agent({
      // An idle connection is closed after this, before common servers' idle time-outs (Node's
      // 5 s) would close it under a request being sent.
      keepAliveTimeout: KEEP_ALIVE_IDLE_MS,
      keepAliveMaxTimeout: KEEP_ALIVE_IDLE_MS,
      headersTimeout: policy.timeoutMs,
      bodyTimeout: policy.timeoutMs,
      connect: (options, callback) => {
        // A literal address is never looked up: checked here instead.
        const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
        if (!policy.allowPrivateTargets && isIP(host) && !isPublicAddress(host)) {
          callback(new Error(`${host} is not a public address`), null);
          return;
        }
        connector(options, callback);
      },
    });
  }

  /**
   * POSTs `body` to `url` once, with the headers `headers()` makes (a flat list of names and
   * values; only for a target it may send to): no redirect
   * followed (a 3xx is a failure), at most `timeoutMs` for the whole exchange, at most 64 kB of
   * the answer read. A connection whose answer was read to its end is kept for the next request
   * to that receiver (no new TCP or TLS handshake per event); any other is closed. An http URL
   * only with WEBHOOK_ALLOW_HTTP.
   */
  async send(url: string, headers: () => string[], body: Buffer): Promise<Exchange> {
    const target = this.target(url);
    if (!target.https && !this.policy.allowHttp) {
      return { statusCode: null, error: 'http targets are not allowed (WEBHOOK_ALLOW_HTTP)' };
    }
    const deadline = new Deadline(this.policy.timeoutMs);
    const noAnswer = { statusCode: null, error: `no answer within ${this.policy.timeoutMs} ms` };
    try {
      const response = await this.agent.request({
        origin: target.origin,
        path: target.path,
        method: 'POST',
        headers: headers(),
        body,
        signal: deadline,
      });
      // Read to its end (the connection is kept), or cut off past the limit (it is closed).
      await response.body.dump({ limit: MAX_RESPONSE_BYTES });
      return deadline.aborted ? noAnswer : { statusCode: response.statusCode, error: null };
    } catch (error) {
      const e = error as NodeJS.ErrnoException;
      if (deadline.aborted || (e.code !== undefined && TIMED_OUT.has(e.code))) return noAnswer;
      return { statusCode: null, error: e.code ? `${e.code}: ${e.message}` : e.message };
    } finally {
      deadline.clear();
    }
  }

  /** Closes the kept connections. */
  destroy(): void {
    void this.agent.destroy().catch(() => undefined);
  }

  /**
   * The URL as `send` needs it, parsed once. Only the URL's parts are kept: its host is resolved
   * and checked by the connector whenever it opens a connection.
   */
  private target(url: string): Target {
    let target = this.targets.get(url);
    if (!target) {
      const parsed = new URL(url);
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
        throw new Error(`unsupported protocol ${parsed.protocol}`);
      }
      target = {
        https: parsed.protocol === 'https:',
        origin: parsed.origin,
        path: `${parsed.pathname}${parsed.search}`,
      };
      if (this.targets.size >= TARGETS_KEPT) this.targets.clear();
      this.targets.set(url, target);
    }
    return target;
  }
}
