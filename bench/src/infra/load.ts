// HTTP load from autocannon, run in the harness process (the services run in their own).
import http from 'node:http';
import autocannon from 'autocannon';

export interface HttpRequestSpec {
  method?: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

export interface LoadResult {
  /** Successful (2xx) responses per second. */
  rps: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latency: { p50: number; p90: number; p99: number; max: number };
  seconds: number;
  statusCodes: Record<string, number>;
}

/** Each side's runs that got an answer other than 2xx, an error or a time-out, a line each. */
export function failedRuns(sides: Record<string, readonly LoadResult[]>): string[] {
  return Object.entries(sides).flatMap(([side, runs]) =>
    runs
      .filter((r) => r.non2xx + r.errors + r.timeouts > 0)
      .map(
        (r) =>
          `${side}: ${JSON.stringify(r.statusCodes)}, ${r.errors} errors, ${r.timeouts} timeouts`,
      ),
  );
}

export interface LoadOptions {
  url: string;
  /** Requests each connection cycles through, in order (pre-built, so the load costs little). */
  requests: HttpRequestSpec[];
  connections: number;
  pipelining?: number;
  /** Seconds; ignored when `amount` is given. */
  duration?: number;
  amount?: number;
  /** Requests per second over all connections (default: as fast as they answer). */
  overallRate?: number;
  headers?: Record<string, string>;
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections,
    pipelining: opts.pipelining ?? 1,
    ...(opts.amount ? { amount: opts.amount } : { duration: opts.duration ?? 10 }),
    ...(opts.overallRate ? { overallRate: opts.overallRate } : {}),
    headers: opts.headers ?? {},
    requests: opts.requests.map((r) => ({
      method: r.method ?? 'GET',
      path: r.path,
      ...(r.body !== undefined ? { body: r.body } : {}),
      ...(r.headers ? { headers: r.headers } : {}),
    })),
    timeout: 30,
  });
  const ok = result['2xx'];
  // autocannon's duration is the wall time of the run in seconds.
  const seconds = result.duration;
  const statusCodes: Record<string, number> = {};
  const stats = (result as unknown as { statusCodeStats?: Record<string, { count: number }> })
    .statusCodeStats;
  for (const [code, { count }] of Object.entries(stats ?? {})) statusCodes[code] = count;
  return {
    rps: ok / seconds,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    latency: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    seconds,
    statusCodes,
  };
}

/**
 * A light latency probe: one keep-alive connection, one request every `intervalMs`, latencies
 * measured with a microsecond clock (autocannon's histogram counts whole milliseconds, too coarse
 * for an idle /health).
 */
export async function probeLatency(opts: {
  url: string;
  seconds: number;
  intervalMs?: number;
}): Promise<{ p50: number; p99: number; max: number; samples: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  const deadline = Date.now() + opts.seconds * 1000;
  const interval = opts.intervalMs ?? 5;
  try {
    while (Date.now() < deadline) {
      const started = process.hrtime.bigint();
      await new Promise<void>((resolve, reject) => {
        const req = http.get(opts.url, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve());
          res.on('error', reject);
        });
        req.on('error', reject);
      });
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      const wait = interval - latencies[latencies.length - 1]!;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  } finally {
    agent.destroy();
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    p50: at(0.5),
    p99: at(0.99),
    max: latencies[latencies.length - 1] ?? 0,
    samples: latencies.length,
  };
}
