// A tiny run of the whole harness (a few hundred requests: B1, B2, B6, B7, W1 on small data sets),
// asserting only that it produces a well-formed report. It measures nothing worth keeping.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from '@jest/globals';
import type { Report } from '../src/results.js';

const root = path.resolve(
  import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname),
  '..',
);
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-smoke-'));
// Run as root, the embedded PostgreSQL server runs as a `postgres` user, who must reach its data.
chmodSync(work, 0o755);
afterAll(() => rmSync(work, { recursive: true, force: true }));

function runHarness(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/run.ts', '--smoke'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        BENCH_OUT_DIR: path.join(work, 'results'),
        BENCH_DATA_DIR: path.join(work, 'data'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

it('runs end to end and writes a well-formed Markdown report with its JSON twin', async () => {
  const { code, output } = await runHarness();
  expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });

  const files = readdirSync(path.join(work, 'results'));
  const json = files.find((f) => /^\d{4}-\d{2}-\d{2}-smoke\.json$/.test(f));
  const md = files.find((f) => /^\d{4}-\d{2}-\d{2}-smoke\.md$/.test(f));
  expect(json && md).toBeTruthy();
  const report = JSON.parse(readFileSync(path.join(work, 'results', json!), 'utf8')) as Report;
  for (const name of ['Node', 'Prisma', 'Mongoose', 'PostgreSQL']) {
    expect(report.versions[name]).toMatch(/\d/);
  }
  expect(Object.values(report.pools).every((n) => n > 0)).toBe(true);
  expect(report.machine.cpus).toBeGreaterThan(0);
  const ids = report.comparisons.map((c) => c.id);
  expect(ids).toEqual(expect.arrayContaining(['B1', 'B6', 'B7', 'W1']));
  for (const c of report.comparisons) {
    expect(c.a.figure.median).toBeGreaterThan(0);
    expect(c.b.figure.median).toBeGreaterThan(0);
    expect(Number.isFinite(c.ratio.median)).toBe(true);
    expect(c.ratio.min).toBeLessThanOrEqual(c.ratio.max);
    expect(typeof c.pass).toBe('boolean');
  }
  expect(report.exports?.map((e) => e.handlers)).toEqual([300, 600]);
  // W1: every event delivered in each phase, each signature good.
  const webhooks = report.webhooks!;
  expect(webhooks.latency).toHaveLength(2);
  for (const l of webhooks.latency) {
    expect(l.events).toBeGreaterThan(0);
    expect(l.undelivered).toBe(0);
    expect(l.p99Ms.median).toBeGreaterThanOrEqual(l.p50Ms.median);
  }
  expect(webhooks.catchUp!.backlog).toBeGreaterThan(0);
  expect(webhooks.catchUp!.undelivered).toBe(0);
  expect(webhooks.badSignatures).toBe(0);

  const markdown = readFileSync(path.join(work, 'results', md!), 'utf8');
  expect(markdown).toMatch(/^# Benchmark results \d{4}-\d{2}-\d{2}/);
  // Prettier pads the table's cells, so cells are compared trimmed.
  const cells = (line: string) =>
    line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
  const rows = markdown
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map(cells);
  expect(rows).toContainEqual([
    '#',
    'A ÷ B',
    'A (median [min–max])',
    'B (median [min–max])',
    'ratio [spread]',
    'target',
    'result',
  ]);
  for (const id of ids) expect(rows.some((row) => row[0] === id)).toBe(true);
  expect(rows.some((row) => row[0] === 'W1 catch-up')).toBe(true);
}, 240_000);
