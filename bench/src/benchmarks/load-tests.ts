// L: the load-sized runs of the test suites, moved here from `pnpm test` (issue 32), each run at
// full size through its own Jest file, which runs a smaller functional version of it in `pnpm
// test`: the fuzzing of every operation at its full count (FUZZ_SCALE=1: thousands of requests per
// service), the export of 10,000 handlers with its heap bound, and the webhook burst of 1,000
// orders through two shop replicas. Each row passes when every test of its file passed.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { Context } from '../context.js';
import type { LoadTestRun } from '../results.js';

const REPO = path.resolve(import.meta.dirname, '..', '..', '..');

export interface LoadTest {
  /** `--only` picks it by this id, or by `L` for all. */
  id: string;
  what: string;
  /** The package folder, from the repository root. */
  dir: string;
  file: string;
  env: Record<string, string>;
  /** More Jest arguments (a test name pattern). */
  args?: string[];
}

export const LOAD_TESTS: LoadTest[] = [
  {
    id: 'L-FUZZ',
    what: 'shop: fuzzing every operation of openapi/shop.json at full runs (2,000+ requests)',
    dir: 'services/shop',
    file: 'test/fuzz.test.ts',
    env: { FUZZ_SCALE: '1' },
  },
  {
    id: 'L-FUZZ',
    what: 'handler directory: fuzzing every operation at full runs (4,000+ requests)',
    dir: 'services/handler-directory',
    file: 'test/fuzz.test.ts',
    env: { FUZZ_SCALE: '1' },
  },
  {
    id: 'L-EXPORT',
    what: 'handler directory: JSON, CSV and XLSX export of 10,000 handlers, heap growth < 5 MB',
    dir: 'services/handler-directory',
    file: 'test/export.test.ts',
    env: { EXPORT_MEMORY_HANDLERS: '10000' },
    args: ['-t', 'handlers'],
  },
  {
    id: 'L-WEBHOOKS',
    what: 'two shop replicas deliver a burst of 1,000 orders, none by both at once',
    dir: 'infra',
    file: 'test/webhook-replicas.test.ts',
    env: { WEBHOOK_BURST_ORDERS: '1000' },
  },
];

export const wantsLoadTest = (only: Set<string> | null, test: LoadTest) =>
  only === null || only.has('L') || only.has(test.id);

/** Runs one through the package's own `pnpm test` (its tools, its Jest settings). */
export async function runLoadTest(ctx: Context, test: LoadTest): Promise<LoadTestRun> {
  const pnpm = process.env.npm_execpath;
  // No `--`: pnpm would hand it to Jest, which then takes the file for no pattern at all.
  const jestArgs = [test.file, ...(test.args ?? [])];
  const [command, args] = pnpm
    ? [process.execPath, [pnpm, 'test', ...jestArgs]]
    : ['pnpm', ['test', ...jestArgs]];
  const loadAverageBefore = os.loadavg();
  const started = performance.now();
  let output = '';
  const exitCode = await new Promise<number>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: path.join(REPO, test.dir),
      env: { ...process.env, ...test.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
  const seconds = (performance.now() - started) / 1000;
  const tests = /Tests:\s+(.*)/.exec(output)?.[1]?.trim() ?? 'no summary';
  ctx.log(
    `${test.id} ${test.dir}: ${exitCode === 0 ? 'pass' : 'FAIL'} in ${seconds.toFixed(0)} s (${tests})`,
  );
  if (exitCode !== 0) ctx.log(output.slice(-4_000));
  return {
    id: test.id,
    what: test.what,
    command: `cd ${test.dir} && ${Object.entries(test.env)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')} pnpm test ${jestArgs.join(' ')}`,
    seconds: +seconds.toFixed(1),
    tests,
    pass: exitCode === 0,
    loadAverageBefore,
    loadAverageAfter: os.loadavg(),
  };
}
