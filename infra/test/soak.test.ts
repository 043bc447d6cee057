// The short soak (the long one is `pnpm soak`, infra/soak/run.ts): both services as real
// processes under mixed traffic for a few seconds, PostgreSQL stopped and started once and the
// MongoDB stand-in stopped and started once while the traffic runs, then SIGTERM to both with
// requests in flight. Every invariant of infra/soak/soak.ts must hold.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { formatReport, runSoak, type SoakReport } from '../soak/soak.js';

let report: SoakReport;

beforeAll(async () => {
  report = await runSoak({
    durationMs: 16_000,
    ratePerSecond: 40,
    seed: 7,
    faults: [
      { database: 'postgres', atMs: 2_000, downMs: 2_000 },
      // Three times the directory's 1 s server selection (SERVER_SELECTION_TIMEOUT_MS), so that
      // waiting requests answer 503; the 6 s left before the SIGTERM leave a loaded machine room
      // to show the recovery (with 6 s down and 3 s left, a full test run once ended first).
      { database: 'mongo', atMs: 6_000, downMs: 3_000 },
    ],
  });
}, 110_000);

afterAll(() => {
  if (!report) return;
  console.log(`soak (CI version):\n${formatReport(report)}`);
  // A failure is read from the services' own words (a 500 is logged with its error).
  if (report.invariants.some((i) => !i.ok) || report.unexpected.length > 0) {
    for (const [service, text] of Object.entries(report.logs)) {
      console.log(`last output of the ${service}:\n${text || '(nothing)'}`);
    }
  }
});

describe('soak: mixed traffic, a database fault per service, SIGTERM mid-load', () => {
  it('sent traffic to both services and injected every fault', () => {
    expect(report.requests).toBeGreaterThan(250);
    expect(report.skipped).toBe(0);
    expect(report.faults.map((f) => f.database)).toEqual(['postgres', 'mongo']);
    for (const fault of report.faults) {
      // Requests arrived during each outage and were answered 503.
      expect(fault.during['503'] ?? 0).toBeGreaterThan(0);
    }
    expect(report.shutdowns.map((s) => s.service)).toEqual(['shop', 'handler-directory']);
  });

  it('holds every invariant', () => {
    expect(report.invariants.filter((i) => !i.ok)).toEqual([]);
    expect(report.invariants.length).toBeGreaterThanOrEqual(17);
  });

  it('got no answer outside what each operation, a fault or the shutdown explains', () => {
    expect(report.unexpected).toEqual([]);
  });
});
