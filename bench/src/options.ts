import path from 'node:path';
import type { Options } from './context.js';

export const BENCH_ROOT = path.resolve(import.meta.dirname, '..');

/** "10s", "1.5s", "500ms" or a plain number of seconds. */
export function parseDuration(text: string, name = 'BENCH_DURATION'): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!match) throw new Error(`${name}: not a duration: "${text}" (e.g. 10s, 500ms)`);
  const value = Number(match[1]);
  return match[2] === 'ms' ? value / 1000 : match[2] === 'm' ? value * 60 : value;
}

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): Options {
  let only: Set<string> | null = null;
  let smoke = env.BENCH_SMOKE === '1';
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--only') only = new Set(list(argv[++i] ?? '').map((s) => s.toUpperCase()));
    else if (arg.startsWith('--only='))
      only = new Set(list(arg.slice(7)).map((s) => s.toUpperCase()));
    else if (arg === '--smoke') smoke = true;
    else if (arg === '--') continue;
    else throw new Error(`unknown argument "${arg}" (use --only B2,B3 or --smoke)`);
  }
  const number = (name: string, fallback: number) => {
    const value = env[name];
    if (value === undefined || value === '') return fallback;
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed <= 0)
      throw new Error(`${name}: not a positive number: "${value}"`);
    return parsed;
  };
  // The smoke run (a few hundred requests, well under a minute) proves the harness end to end:
  // databases, data sets, services, capture, pgbench, load, report. One route of B2 (B2b runs
  // the same code on another URL) at one connection count (run.ts).
  if (smoke && only === null) only = new Set(['B1', 'B2a', 'B6', 'B7', 'W1']);
  const products = number('BENCH_PRODUCTS', smoke ? 300 : 10_000);
  const defaultScales = smoke ? '' : '1000,100000,1000000';
  return {
    durationSeconds: parseDuration(env.BENCH_DURATION || (smoke ? '300ms' : '10s')),
    rounds: Math.max(2, Math.round(number('BENCH_ROUNDS', smoke ? 2 : 3))),
    only,
    scales: list(env.BENCH_SCALES ?? defaultScales)
      .map(Number)
      .filter((n) => n > 0 && n !== products),
    products,
    handlers: number('BENCH_HANDLERS', smoke ? 300 : 10_000),
    exportSizes: list(env.BENCH_EXPORT_SIZES ?? (smoke ? '300,600' : '10000,100000')).map(Number),
    variants: Math.min(100, Math.round(number('BENCH_VARIANTS', smoke ? 4 : 50))),
    outDir: path.resolve(env.BENCH_OUT_DIR || path.join(BENCH_ROOT, 'results')),
    dataDir: path.resolve(env.BENCH_DATA_DIR || path.join(BENCH_ROOT, '.data')),
    smoke,
    webhook: {
      outageSeconds: parseDuration(
        env.BENCH_W1_OUTAGE || (smoke ? '1s' : '60s'),
        'BENCH_W1_OUTAGE',
      ),
      outageRate: number('BENCH_W1_OUTAGE_RATE', 10),
      steadyRate: number('BENCH_W1_STEADY_RATE', 10),
      drainSeconds: parseDuration(env.BENCH_W1_DRAIN || (smoke ? '60s' : '300s'), 'BENCH_W1_DRAIN'),
    },
  };
}
