// `pnpm soak [--duration <seconds>] [--rate <requests per second>] [--seed <n>]`: the long soak.
// Starts both services on databases of their own, sends mixed traffic for the duration (default
// 60 s), stops and restarts PostgreSQL at a quarter of it (down 5 s) and the MongoDB stand-in at
// half of it (down 7.5 s), sends SIGTERM to both services near the end (with requests held in
// flight), then prints the figures and every invariant.
// Exits 1 when an invariant fails, printing the services' last output (SOAK_LOG_LEVEL sets
// their log level, default warn).
import { formatReport, runSoak } from './soak.js';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const raw = index >= 0 ? process.argv[index + 1] : process.env[`SOAK_${name.toUpperCase()}`];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`--${name} must be a positive number (got "${raw}")`);
    process.exit(2);
  }
  return value;
}

const durationS = option('duration', 60);
const rate = option('rate', 50);
const seed = option('seed', 1);
if (durationS < 10) {
  console.error('--duration must be at least 10 seconds (two faults and a shutdown need room)');
  process.exit(2);
}
const durationMs = durationS * 1000;
const downMs = Math.min(5_000, durationMs / 10);
// The directory's MongoDB driver waits up to 1 s for a server before it gives up: a longer
// outage shows both the waiting and the 503s.
const mongoDownMs = Math.min(8_000, durationMs / 8);

const report = await runSoak({
  durationMs,
  ratePerSecond: rate,
  seed,
  faults: [
    { database: 'postgres', atMs: durationMs / 4, downMs },
    { database: 'mongo', atMs: durationMs / 2, downMs: mongoDownMs },
  ],
  log: (line) => console.log(`[soak] ${line}`),
});
console.log(`\n${formatReport(report)}`);
const failed = report.invariants.filter((i) => !i.ok).length;
if (failed > 0 || report.unexpected.length > 0) {
  for (const [service, text] of Object.entries(report.logs)) {
    console.log(`\nlast output of the ${service}:\n${text || '(nothing)'}`);
  }
}
console.log(
  `\n${report.invariants.length - failed} passed, ${failed} failed` +
    (report.unexpected.length > 0 ? ` (and ${report.unexpected.length} unexpected answers)` : ''),
);
process.exit(failed > 0 || report.unexpected.length > 0 ? 1 : 0);
