// Database faults as the services showed them: /ready sampled throughout, each fault's window
// (stop → /ready 200 again, plus a grace), and which answers a fault or a shutdown explains.
import { call } from './http-call.js';
import type { Platform, Service } from './platform.js';
import type { FaultReport, ShutdownReport } from './report.js';
import { tally } from './report.js';
import { sleep } from './sleep.js';
import type { Outcome, ServiceName } from './traffic.js';

/** A fault's window reaches this far past /ready answering 200 again. */
const RECOVERY_GRACE_MS = 2_000;
/** Requests this close before a SIGTERM may race the closing of idle connections. */
const SHUTDOWN_RACE_MS = 250;

export interface ReadySample {
  service: ServiceName;
  atMs: number;
  status: number | string;
}

export function startReadyMonitor(platform: Platform, now: () => number) {
  const samples: ReadySample[] = [];
  let running = true;
  const watch = async (service: Service) => {
    while (running && service.process.child.exitCode === null) {
      const atMs = now();
      const res = await call(service.url, 'GET', '/ready');
      samples.push({ service: service.name, atMs, status: res.status ?? res.error ?? 'none' });
      await sleep(100);
    }
  };
  const watching = Promise.all([watch(platform.shop), watch(platform.handlerDirectory)]);
  return {
    samples,
    stop: () => {
      running = false;
      return watching;
    },
  };
}

const serviceOf = (database: 'postgres' | 'mongo'): ServiceName =>
  database === 'postgres' ? 'shop' : 'handler-directory';

export function faultReport(
  fault: { database: 'postgres' | 'mongo'; stoppedAtMs: number; startedAtMs: number },
  outcomes: Outcome[],
  samples: ReadySample[],
): FaultReport {
  const service = serviceOf(fault.database);
  const mine = samples.filter((s) => s.service === service);
  const down = mine.find((s) => s.atMs >= fault.stoppedAtMs && s.status === 503);
  const up = mine.find((s) => s.atMs >= fault.startedAtMs && s.status === 200);
  const end = (up?.atMs ?? fault.startedAtMs) + RECOVERY_GRACE_MS;
  const during = outcomes.filter(
    (o) => o.service === service && o.startedAt <= end && o.endedAt >= fault.stoppedAtMs,
  );
  return {
    database: fault.database,
    service,
    stoppedAtMs: Math.round(fault.stoppedAtMs),
    startedAtMs: Math.round(fault.startedAtMs),
    readyDownAfterMs: down ? Math.round(down.atMs - fault.stoppedAtMs) : null,
    readyUpAfterMs: up ? Math.round(up.atMs - fault.startedAtMs) : null,
    during: tally(during),
    slowestMs: Math.round(Math.max(0, ...during.map((o) => o.endedAt - o.startedAt))),
  };
}

export interface Allowance {
  /** Per service: windows in which 503 is the right answer. */
  unavailable: Record<ServiceName, Array<[number, number]>>;
  /** Per service: from when on the service is shutting down. */
  shutdownFrom: Record<ServiceName, number>;
}

export function allowance(
  faults: Array<{ database: 'postgres' | 'mongo'; stoppedAtMs: number; startedAtMs: number }>,
  samples: ReadySample[],
  shutdowns: ShutdownReport[],
): Allowance {
  const unavailable: Allowance['unavailable'] = { shop: [], 'handler-directory': [] };
  for (const fault of faults) {
    const service = serviceOf(fault.database);
    const up = samples.find(
      (s) => s.service === service && s.atMs >= fault.startedAtMs && s.status === 200,
    );
    unavailable[service].push([fault.stoppedAtMs, (up?.atMs ?? Infinity) + RECOVERY_GRACE_MS]);
  }
  const shutdownFrom = {
    shop: Infinity,
    'handler-directory': Infinity,
  } as Allowance['shutdownFrom'];
  for (const s of shutdowns) shutdownFrom[s.service] = s.signalAtMs - SHUTDOWN_RACE_MS;
  return { unavailable, shutdownFrom };
}

/** True when a fault or a shutdown explains the answer (503, or no answer after the SIGTERM). */
export function explained(o: Outcome, allowed: Allowance): boolean {
  if (o.endedAt >= allowed.shutdownFrom[o.service])
    return o.status === undefined || o.status === 503;
  const inOutage = allowed.unavailable[o.service].some(
    ([from, to]) => o.startedAt <= to && o.endedAt >= from,
  );
  return inOutage && o.status === 503;
}
