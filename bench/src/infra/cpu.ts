// Where the CPU went during a run: the service process, PostgreSQL (postmaster, its live backends
// and the ones that exited), the harness with its load generator and the children it waited for
// (pgbench, the floor scripts), and the whole machine (so that other work shows up as noise).
import { readFileSync, readdirSync } from 'node:fs';
import type { CpuRow } from '../results.js';
import { median } from '../stats.js';

const TICKS_PER_SECOND = 100;

function statFields(pid: number | 'self'): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces; fields start after its closing parenthesis.
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** utime+stime (and, with `children`, cutime+cstime of reaped children), in ticks. */
function processTicks(pid: number | 'self', children: boolean): number {
  const f = statFields(pid);
  if (!f) return 0;
  // After the name: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
  const own = Number(f[11]) + Number(f[12]);
  return children ? own + Number(f[13]) + Number(f[14]) : own;
}

function childrenOf(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(Number(entry));
    if (f && Number(f[1]) === parent) pids.push(Number(entry));
  }
  return pids;
}

function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = v[3]! + (v[4] ?? 0);
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

export interface CpuTargets {
  service?: number;
  /** PostgreSQL: the postmaster, counted with all its backends. */
  postmaster?: number;
  /** Another database server process (the MongoDB stand-in). */
  database?: number;
}

interface Snapshot {
  at: number;
  machine: { busy: number; total: number };
  service: number;
  database: number;
  harness: number;
}

export function cpuSnapshot(targets: CpuTargets): Snapshot {
  const postgres =
    (targets.postmaster === undefined
      ? 0
      : processTicks(targets.postmaster, true) +
        childrenOf(targets.postmaster).reduce((sum, pid) => sum + processTicks(pid, false), 0)) +
    (targets.database === undefined ? 0 : processTicks(targets.database, false));
  return {
    at: performance.now(),
    machine: machineTicks(),
    service: targets.service === undefined ? 0 : processTicks(targets.service, false),
    database: postgres,
    harness: processTicks('self', true),
  };
}

/** CPU cores used on average during the interval, per component. */
export interface CpuUse {
  seconds: number;
  service: number;
  /** PostgreSQL or the MongoDB stand-in. */
  database: number;
  /** The harness (autocannon runs in it) plus the children it ran (pgbench, floor scripts). */
  loadGenerator: number;
  /** Everything else on the machine (other processes: noise). */
  other: number;
  machine: number;
}

export function cpuUse(before: Snapshot, after: Snapshot): CpuUse {
  const seconds = (after.at - before.at) / 1000;
  const cores = (ticks: number) => ticks / TICKS_PER_SECOND / seconds;
  const service = cores(after.service - before.service);
  const database = cores(after.database - before.database);
  const loadGenerator = cores(after.harness - before.harness);
  const machine = cores(after.machine.busy - before.machine.busy);
  return {
    seconds,
    service,
    database,
    loadGenerator,
    other: Math.max(0, machine - service - database - loadGenerator),
    machine,
  };
}

export async function withCpu<T>(
  targets: CpuTargets,
  fn: () => Promise<T>,
): Promise<T & { cpu: CpuUse }> {
  const before = cpuSnapshot(targets);
  const result = await fn();
  return { ...result, cpu: cpuUse(before, cpuSnapshot(targets)) };
}

/** The postmaster's pid, from the cluster's postmaster.pid. */
export function postmasterPid(clusterDir: string): number | undefined {
  try {
    return Number(readFileSync(`${clusterDir}/postmaster.pid`, 'utf8').split('\n')[0]) || undefined;
  } catch {
    return undefined;
  }
}

/** The median CPU use of a side's kept rounds, with its median rate. */
export function cpuRow(
  side: string,
  runs: Array<{ cpu: CpuUse }>,
  rate: (r: never) => number,
): CpuRow {
  const m = (pick: (c: CpuUse) => number) => median(runs.map((r) => pick(r.cpu)));
  return {
    side,
    rate: median(runs.map((r) => rate(r as never))),
    service: m((c) => c.service),
    database: m((c) => c.database),
    loadGenerator: m((c) => c.loadGenerator),
    other: m((c) => c.other),
    machine: m((c) => c.machine),
  };
}
