// What a soak run found: the figures, the faults and shutdowns as observed, every invariant.
import type { Outcome, ServiceName } from './traffic.js';

export interface Invariant {
  name: string;
  ok: boolean;
  detail: string;
}

export interface FaultReport {
  database: 'postgres' | 'mongo';
  service: ServiceName;
  stoppedAtMs: number;
  startedAtMs: number;
  /** From the stop until /ready first answered 503. */
  readyDownAfterMs: number | null;
  /** From the start until /ready first answered 200 again. */
  readyUpAfterMs: number | null;
  /** Answers of the service's requests that overlapped the outage, by status or error. */
  during: Record<string, number>;
  /** The slowest of those requests (a hang would show here). */
  slowestMs: number;
  /** The service process kept running through the fault (it recovered without a restart). */
  sameProcess?: boolean;
}

export interface ShutdownReport {
  service: ServiceName;
  signalAtMs: number;
  exitCode: number | null;
  /** Requests the test made sure were in flight at the signal, and how they answered. */
  inFlight: Record<string, number>;
}

export interface SoakReport {
  durationMs: number;
  ratePerSecond: number;
  requests: number;
  skipped: number;
  byService: Record<ServiceName, Record<string, number>>;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  faults: FaultReport[];
  shutdowns: ShutdownReport[];
  invariants: Invariant[];
  /** Answers outside an operation's expected statuses that no fault or shutdown explains. */
  unexpected: Array<{ service: ServiceName; op: string; answer: string; atMs: number }>;
  /**
   * The last lines each service printed (warnings and errors), and PostgreSQL's own log (which
   * names both sides of a deadlock), to explain a failure.
   */
  logs: Record<ServiceName | 'postgres', string>;
}

export function tally(items: Array<{ status?: number; error?: string }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) {
    const key = item.error ?? String(item.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

export function countByService(outcomes: Outcome[]): SoakReport['byService'] {
  return {
    shop: tally(outcomes.filter((o) => o.service === 'shop')),
    'handler-directory': tally(outcomes.filter((o) => o.service === 'handler-directory')),
  };
}

export function latency(outcomes: Outcome[]): SoakReport['latencyMs'] {
  const ms = outcomes.map((o) => o.endedAt - o.startedAt).sort((a, b) => a - b);
  const at = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0);
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: Math.round(ms.at(-1) ?? 0) };
}

/** The report as text: figures first, then every invariant with its result. */
export function formatReport(report: SoakReport): string {
  const line = (counts: Record<string, number>) =>
    Object.entries(counts)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => `${k}×${n}`)
      .join('  ');
  const out = [
    `duration            ${(report.durationMs / 1000).toFixed(1)} s at ${report.ratePerSecond} requests/s`,
    `requests            ${report.requests} (${report.skipped} starts skipped at the in-flight cap)`,
    `shop                ${line(report.byService.shop)}`,
    `handler directory   ${line(report.byService['handler-directory'])}`,
    `latency             p50 ${report.latencyMs.p50} ms, p95 ${report.latencyMs.p95} ms, p99 ${report.latencyMs.p99} ms, max ${report.latencyMs.max} ms`,
    ...report.faults.map(
      (f) =>
        `fault               ${f.database} down ${((f.startedAtMs - f.stoppedAtMs) / 1000).toFixed(1)} s at ${(f.stoppedAtMs / 1000).toFixed(1)} s: /ready 503 after ${f.readyDownAfterMs} ms, 200 again ${f.readyUpAfterMs} ms after the start; answers ${line(f.during)}`,
    ),
    ...report.shutdowns.map(
      (s) =>
        `SIGTERM             ${s.service} at ${(s.signalAtMs / 1000).toFixed(1)} s: exit ${s.exitCode}, in flight ${line(s.inFlight)}`,
    ),
    `unexpected answers  ${
      report.unexpected.length === 0
        ? 'none'
        : report.unexpected
            .slice(0, 10)
            .map((u) => `${u.service} ${u.op} ${u.answer} at ${u.atMs} ms`)
            .join('; ')
    }`,
    'invariants:',
    ...report.invariants.map((i) => `  ${i.ok ? 'PASS' : 'FAIL'}  ${i.name} — ${i.detail}`),
  ];
  return out.join('\n');
}
