// Invariants of the answers: no unexplained 5xx or hang, logins as deserved, faults and
// shutdowns handled as promised.
import { explained, type Allowance } from './faults.js';
import { REQUEST_TIMEOUT_MS } from './http-call.js';
import type { FaultReport, Invariant, ShutdownReport } from './report.js';
import type { Outcome } from './traffic.js';

export function answerInvariants(outcomes: Outcome[], allowed: Allowance): Invariant[] {
  const serverErrors = outcomes.filter(
    (o) => o.status !== undefined && o.status >= 500 && !explained(o, allowed),
  );
  const noAnswer = outcomes.filter((o) => o.status === undefined && !explained(o, allowed));
  const mismatches = outcomes.filter((o) => o.mismatch);
  return [
    {
      name: 'no 5xx except 503 during injected faults and shutdowns',
      ok: serverErrors.length === 0,
      detail:
        serverErrors.length === 0
          ? `${outcomes.filter((o) => o.status === 503).length} × 503, all explained`
          : describe(serverErrors),
    },
    {
      name: `every request answered within ${REQUEST_TIMEOUT_MS / 1000} s (no hang, no dropped connection) before shutdown`,
      ok: noAnswer.length === 0,
      detail: noAnswer.length === 0 ? 'all answered' : describe(noAnswer),
    },
    {
      name: 'logins answered as the credentials deserve',
      ok: mismatches.length === 0,
      detail:
        mismatches.length === 0
          ? 'right passwords accepted, wrong ones refused'
          : describe(mismatches),
    },
  ];
}

function describe(outcomes: Outcome[]): string {
  return (
    outcomes
      .slice(0, 5)
      .map(
        (o) =>
          `${o.service} ${o.op} → ${o.error ?? o.status} at ${(o.startedAt / 1000).toFixed(2)} s`,
      )
      .join('; ') + (outcomes.length > 5 ? ` … (${outcomes.length} in all)` : '')
  );
}

export function faultInvariants(faults: FaultReport[]): Invariant[] {
  return faults.flatMap((f) => [
    {
      name: `${f.database} stopped: /ready of the ${f.service} turned 503 within 5 s`,
      ok: f.readyDownAfterMs !== null && f.readyDownAfterMs <= 5_000,
      detail: `after ${f.readyDownAfterMs ?? '—'} ms`,
    },
    {
      name: `${f.database} started: the ${f.service} recovered by itself (/ready 200) within 10 s`,
      ok: f.readyUpAfterMs !== null && f.readyUpAfterMs <= 10_000 && f.sameProcess === true,
      detail: `after ${f.readyUpAfterMs ?? '—'} ms, ${f.sameProcess ? 'same process' : 'the process had died'}`,
    },
    {
      name: `${f.database} outage: the ${f.service} answered 503, never 500 or a hang`,
      ok:
        Object.keys(f.during).every((k) => Number(k) < 500 || k === '503') &&
        f.slowestMs < REQUEST_TIMEOUT_MS,
      detail: `${Object.entries(f.during)
        .map(([k, n]) => `${k}×${n}`)
        .join(' ')}; slowest ${f.slowestMs} ms`,
    },
  ]);
}

export function shutdownInvariants(shutdowns: ShutdownReport[]): Invariant[] {
  return shutdowns.map((s) => {
    const inFlight = Object.entries(s.inFlight);
    const finished = inFlight.every(([k]) => k.startsWith('2'));
    return {
      name: `SIGTERM to the ${s.service} mid-load: in-flight requests finished, exit 0`,
      ok: s.exitCode === 0 && finished,
      detail: `exit ${s.exitCode}; in flight: ${inFlight.map(([k, n]) => `${k}×${n}`).join(' ') || 'none held'}`,
    };
  });
}
