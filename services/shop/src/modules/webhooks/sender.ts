import http from 'node:http';
import https from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import type { TargetPolicy } from './targets.js';

/** At most this much of an answer is read; the rest is not waited for. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** How long a connection to a receiver is kept idle for its next request. */
const KEEP_ALIVE_IDLE_MS = 4_000;
/** Targets by URL, parsed; started over when it holds this many. */
const TARGETS_KEPT = 1_000;

/** What one exchange came to: the answer's status, or why there was none. */
export interface Exchange {
  statusCode: number | null;
  error: string | null;
}

/** What `post` needs of a target URL, parsed once per URL (not per request). */
interface Target {
  https: boolean;
  options: http.RequestOptions;
}

/**
 * The HTTP side of delivery: POSTs a signed body to a target, through agents that resolve the
 * host, refuse non-public addresses (unless WEBHOOK_ALLOW_PRIVATE_TARGETS) and connect to the
 * address they checked, whenever they open a connection (a kept-alive one was checked when it
 * was opened; registration checks too, targets.ts, but a name may resolve elsewhere later).
 */
export class Sender {
  private readonly agents: { http: http.Agent; https: https.Agent };
  private readonly targets = new Map<string, Target>();

  constructor(private readonly policy: TargetPolicy & { timeoutMs: number }) {
    const options = {
      allowPrivateIPAddress: policy.allowPrivateTargets,
      keepAlive: true,
      // An idle connection is closed after this, before common servers' idle time-outs (Node's
      // 5 s) would close it under a request being sent.
      timeout: KEEP_ALIVE_IDLE_MS,
    };
    this.agents = {
      http: new RequestFilteringHttpAgent(options),
      https: new RequestFilteringHttpsAgent(options),
    };
  }

  /**
   * Sends `body` to `url` once (see post), with the headers `headers()` makes (only for a target
   * it may send to); an http URL only with WEBHOOK_ALLOW_HTTP.
   */
  async send(url: string, headers: () => Record<string, string>, body: string): Promise<Exchange> {
    const target = this.target(url);
    if (!target.https && !this.policy.allowHttp) {
      return { statusCode: null, error: 'http targets are not allowed (WEBHOOK_ALLOW_HTTP)' };
    }
    return post(target, headers(), body, this.policy.timeoutMs, this.agents);
  }

  /** Closes the kept connections. */
  destroy(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /**
   * The URL as `post` needs it, parsed once. Only the URL's parts are kept: its host is resolved
   * and checked by the agent whenever it opens a connection.
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
        options: {
          protocol: parsed.protocol,
          hostname: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: parsed.port || undefined,
          path: `${parsed.pathname}${parsed.search}`,
        },
      };
      if (this.targets.size >= TARGETS_KEPT) this.targets.clear();
      this.targets.set(url, target);
    }
    return target;
  }
}

/**
 * POSTs `body` once: no redirect followed (a 3xx is a failure), at most `timeoutMs` for the whole
 * exchange, at most 64 kB of the answer read. A connection whose answer was read to its end is
 * kept for the next request to that receiver (keep-alive: no new TCP or TLS handshake per event);
 * any other is closed.
 */
function post(
  target: Target,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  agents: { http: http.Agent; https: https.Agent },
): Promise<Exchange> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (statusCode: number | null, error: string | null, reusable = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!reusable) request.destroy();
      resolve({ statusCode, error });
    };
    const request = (target.https ? https : http).request({
      ...target.options,
      method: 'POST',
      headers,
      agent: target.https ? agents.https : agents.http,
    });
    const timer = setTimeout(() => finish(null, `no answer within ${timeoutMs} ms`), timeoutMs);
    request.on('response', (response) => {
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= MAX_RESPONSE_BYTES) finish(response.statusCode ?? null, null);
      });
      response.on('end', () => finish(response.statusCode ?? null, null, true));
      response.on('error', () => finish(response.statusCode ?? null, null));
    });
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish(null, error.code ? `${error.code}: ${error.message}` : error.message),
    );
    request.end(body);
  });
}
