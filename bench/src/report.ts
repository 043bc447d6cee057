// Renders a run's results as Markdown (the JSON twin is the Report object itself).
import { backOfficeNotes } from './benchmarks/back-office-benchmarks.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import type { Comparison, LoadTestRun, PagesRun, Report, Timing, WebhookRun } from './results.js';
import type { Figure } from './stats.js';

const fmt = (value: number, digits = 0) =>
  Number.isFinite(value)
    ? value.toLocaleString('en-US', {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      })
    : 'n/a';

/** "1,234 [1,200–1,260]" */
export function showFigure(f: Figure, digits = 0): string {
  return `${fmt(f.median, digits)} [${fmt(f.min, digits)}–${fmt(f.max, digits)}]`;
}

const digitsFor = (value: number) => (value >= 100 ? 0 : value >= 10 ? 1 : 2);
const showAuto = (f: Figure) => showFigure(f, digitsFor(f.median));
const verdict = (pass: boolean) => (pass ? '**pass**' : '**MISS**');
const cell = (text: string) => text.replaceAll('|', '\\|');

function resultsTable(report: Report): string[] {
  const rows = [
    '| # | A ÷ B | A (median [min–max]) | B (median [min–max]) | ratio [spread] | target | result |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const c of report.comparisons) {
    rows.push(
      `| ${c.id} | ${cell(c.title)} | ${showAuto(c.a.figure)} ${c.a.unit} | ${showAuto(c.b.figure)} ${c.b.unit} | ${showFigure(c.ratio, 2)} | ${c.target.op} ${c.target.value} | ${verdict(c.pass)} |`,
    );
    if (c.id === 'B4' && report.hotProduct) {
      const h = report.hotProduct;
      rows.push(
        `| B4 hot | ${h.clients} clients order product ${h.productId} (stock ${h.initialStock}) | ${fmt(h.successes)} orders placed | ${fmt(h.refusedInsufficientStock)} refused (409) | final stock ${h.finalStock} = ${h.initialStock} − ${h.successes} ${h.exact ? '✓' : '✗'} | zero oversell, exact stock | ${verdict(!h.oversold && h.exact)} |`,
      );
    }
    if (c.id === 'W1' && report.webhooks) {
      rows.push(...webhookRows(report.webhooks));
    }
    if (c.id === 'B5' && report.health) {
      const h = report.health;
      rows.push(
        `| B5 health | /health p99 during the login load ÷ idle p99 | ${showFigure(h.loadedP99, 2)} ms | ${showFigure(h.idleP99, 2)} ms | ${showFigure(h.ratio, 2)} | ${h.target.op} ${h.target.value}× | ${verdict(h.pass)} |`,
      );
    }
  }
  for (const e of report.exports ?? []) {
    rows.push(
      `| B7 ${fmt(e.handlers)} | CSV export of ${fmt(e.handlers)} handlers (B: the native driver reading the same cursor) | ${showFigure(e.rowsPerSecond)} rows/s, peak RSS growth ${showFigure(e.peakRssGrowthMb, 1)} MB | ${showFigure(e.floorRowsPerSecond)} rows/s | ${showFigure(e.ratio, 2)} | ≥ 0.90 of the driver, ≥ 100,000 rows/s; < 100 MB | ${verdict(e.pass)} |`,
    );
  }
  if (report.exportTarget) {
    const t = report.exportTarget;
    rows.push(
      `| B7 flat | RSS growth does not grow with row count (largest export: peak in its first half vs second half) | ${showFigure(report.exports!.at(-1)!.firstHalfRssGrowthMb, 1)} MB | ${showFigure(report.exports!.at(-1)!.secondHalfRssGrowthMb, 1)} MB | ${t.flat ? 'flat' : 'grows'} | not growing | ${verdict(t.flat)} |`,
    );
  }
  return rows;
}

const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
const timingMs = (t: Timing, digits = 0) =>
  `median ${fmt(t.median, digits)} ms, p95 ${fmt(t.p95, digits)} ms [${fmt(t.min, digits)}–${fmt(t.max, digits)}]`;

/** PAGES: the finder's size and first result on Slow 3G, the admin list's search. */
/** L: the load-sized runs of the test suites, each through its Jest file at full size. */
function loadTestsSection(runs: LoadTestRun[]): string[] {
  return [
    '## Load-sized test runs',
    '',
    "The test suites' runs too large for `pnpm test`, at full size through their own Jest files (the tests run a smaller version of each). A run passes when every test of its file passed.",
    '',
    '| # | run | command | seconds | load before / after (1 min) | tests | result |',
    '| --- | --- | --- | ---: | --- | --- | --- |',
    ...runs.map(
      (r) =>
        `| ${r.id} | ${cell(r.what)} | \`${cell(r.command)}\` | ${fmt(r.seconds)} | ${r.loadAverageBefore[0]?.toFixed(2)} / ${r.loadAverageAfter[0]?.toFixed(2)} | ${cell(r.tests)} | ${verdict(r.pass)} |`,
    ),
    '',
  ];
}

function pagesSection(p: PagesRun): string[] {
  const { finderSize: size, firstResult: first, adminSearch: admin } = p;
  const kB = (bytes: number) => `${fmt(bytes / 1000, 1)} kB`;
  const net = first.network;
  return [
    '## Pages',
    '',
    `The handler directory's pages in Debian's Chromium (playwright-core), against the built service on loopback; load average (1 / 5 / 15 min) ${load(p.loadAverageBefore)} before, ${load(p.loadAverageAfter)} after. Times pass when their p95 is within the target.`,
    '',
    '| figure | measured | target | result |',
    '| --- | --- | --- | --- |',
    `| finder size: index.html and the ${size.files.length - 1} files it references, compressed | brotli ${kB(size.brotli)}, gzip ${kB(size.gzip)} (raw ${kB(size.raw)}) | ≤ ${kB(size.targetBytes)} each | ${verdict(size.pass)} |`,
    `| finder on Slow 3G: navigation start to the first result card (${first.runs} fresh contexts at 360×740, position granted) | ${timingMs(first.ms)}; ${kB(first.bytes.median)} in ${fmt(first.requests.median)} requests | ≤ ${fmt(first.targetMs)} ms | ${verdict(first.pass)} |`,
    ...(first.warm
      ? [
          `| finder on Slow 3G, return visit: the same context again, the service worker controlling (${first.warm.controlled} of ${first.warm.runs}) | ${timingMs(first.warm.ms)}; ${kB(first.warm.bytes.median)} in ${fmt(first.warm.requests.median)} requests | ≤ ${fmt(first.targetMs)} ms | ${verdict(first.warm.ms.p95 <= first.targetMs)} |`,
        ]
      : []),
    `| admin list: a search over ${fmt(admin.handlers)} handlers, answer's responseEnd to the rows painted (${admin.searches} searches) | ${timingMs(admin.paintedMs, 1)}; ${fmt(admin.rows.median)} rows, answer ${kB(admin.encodedBytes.median)} (${kB(admin.decodedBytes.median)} decoded) | ≤ ${fmt(admin.targetMs)} ms | ${verdict(admin.pass)} |`,
    '',
    `- Finder size per file (raw / gzip / brotli bytes, the twins in dist/web as served): ${size.files.map((f) => `${f.file} ${f.raw} / ${f.gzip} / ${f.brotli}`).join('; ')}.`,
    `- Slow 3G is Chrome DevTools' preset (CDP \`Network.emulateNetworkConditions\`: latency ${fmt(net.latency)} ms, ${fmt(net.downloadThroughput)} B/s down, ${fmt(net.uploadThroughput)} B/s up), cache disabled. DevTools applies the latency to every request, so each request that can only start after another has answered adds ${fmt(net.latency / 1000, 1)} s: the page (answered at median ${fmt(first.documentMs.median)} ms), its script and styles, then the handler search (sent at ${fmt(first.apiStartMs.median)} ms, answered at ${fmt(first.apiEndMs.median)} ms): three such steps make a floor of ${fmt((3 * net.latency) / 1000, 1)} s however small the page. The first card is noted by a MutationObserver installed before any page script (performance.now(), from navigation start).`,
    ...(first.warm
      ? [
          `- Return visit: after each cold load the bench waits until the finder's service worker (sw.js, registered after the load event) controls the page, closes it and opens the finder again in the same context, on Slow 3G with the browser's HTTP cache as a return visit has it. The page, its script, styles and icon come from the worker's cache (page answered at median ${fmt(first.warm.documentMs.median)} ms); only the handler search goes to the network (sent at ${fmt(first.warm.apiStartMs.median)} ms, answered at ${fmt(first.warm.apiEndMs.median)} ms): one step of ${fmt(net.latency / 1000, 1)} s.`,
        ]
      : []),
    `- Admin list: a desktop context (1280×800) signed in as the bench's admin; each search types a first or last name not searched before (${admin.terms.join(', ')}), so no answer comes from a cache; one more search before them is a warm-up. In the page: from the answer's Resource Timing \`responseEnd\` to the list's DOM showing it (MutationObserver: ${timingMs(admin.domMs, 1)}), to the next frame's start (requestAnimationFrame: ${timingMs(admin.frameMs, 1)}) and to that frame rendered (a message posted from the requestAnimationFrame callback, which runs after the frame's style, layout and paint). The 300 ms typing pause before the request is not counted.`,
    '',
  ];
}

const ms = (f: Figure) => `${showFigure(f, 0)} ms`;

function webhookRows(w: WebhookRun): string[] {
  const [atRate, steady] = w.latency;
  const rows: string[] = [];
  if (atRate) {
    const bound = atRate.undelivered > 0 ? ' (lower bounds: some not delivered)' : '';
    rows.push(
      `| W1 latency | commit-to-delivery at A's rate (${showAuto(atRate.ordersPerSecond)} orders/s, ${fmt(atRate.events)} events a round) | p50 ${ms(atRate.p50Ms)} | p99 ${ms(atRate.p99Ms)}${bound} | the last ${showFigure(atRate.drainSeconds, 1)} s after the load | p99 ≤ ${fmt(w.targetP99Ms)} ms | ${verdict(w.pass)} |`,
    );
  }
  if (steady) {
    rows.push(
      `| W1 latency | the same ${cell(steady.label)} | p50 ${ms(steady.p50Ms)} | p99 ${ms(steady.p99Ms)} | max ${ms(steady.maxMs)} | (below the worker's ceiling; no target) | — |`,
    );
  }
  const c = w.catchUp;
  if (c) {
    rows.push(
      `| W1 catch-up | ${fmt(c.backlog)} events queued during a ${fmt(c.outageSeconds)} s receiver outage, made due at once | ${fmt(c.eventsPerSecond, 1)} events/s (steady part ${fmt(c.steadyEventsPerSecond, 1)}) | emptied in ${fmt(c.seconds, 1)} s | by the schedule alone the last would be due after ${fmt(c.lastDueInSeconds)} s | reported | — |`,
    );
  }
  return rows;
}

function webhookNotes(w: WebhookRun): string[] {
  const lines = ['### W1 — webhook delivery', ''];
  for (const l of w.latency) {
    lines.push(
      `- Latency ${l.label}: ${showAuto(l.ordersPerSecond)} orders/s placed, ${fmt(l.events)} events a round; commit-to-delivery p50 ${ms(l.p50Ms)}, p99 ${ms(l.p99Ms)}, max ${ms(l.maxMs)}; the last arrived ${showFigure(l.drainSeconds, 1)} s after the load ended (${showFigure(l.deliveriesPerSecond, 1)} deliveries/s from the load's start to the last)${l.undelivered > 0 ? `; ${fmt(l.undelivered)} not delivered within the drain limit (their wait so far counted: the percentiles are lower bounds)` : ''}.`,
    );
  }
  lines.push(
    "- Latency is each event's `timestamp` (taken by the shop just before the transaction that writes the order and its event) to the receiver's arrival, on the same clock. Each latency load runs on its own (after the interleaved rounds) with a fresh subscription and waits after it until every event queued for it has arrived (at most BENCH_W1_DRAIN).",
  );
  const c = w.catchUp;
  if (c) {
    lines.push(
      `- Catch-up: the receiver refused connections for ${fmt(c.outageSeconds)} s while orders went on at ${fmt(c.ordersPerSecond, 1)}/s: ${fmt(c.events)} deliveries queued, ${fmt(c.failedAttempts)} failed attempts. When it was back, ${fmt(c.neverAttempted)} had never been attempted (due at once), ${fmt(c.dueWithin10s)} were due within 10 s (a first retry) and ${fmt(c.dueLater)} later: by the retry schedule (5 s, then 5 min ±15 % …) the last would have been due ${fmt(c.lastDueInSeconds)} s later, so without an action catch-up is bounded by the schedule, not by the worker.`,
      `- They were made due by ${c.madeDueBy}; from then ${fmt(c.backlog)} pending arrived in ${fmt(c.seconds, 1)} s: ${fmt(c.eventsPerSecond, 1)} events/s (between the 10th and 90th percentile arrival ${fmt(c.steadyEventsPerSecond, 1)}/s), the first after ${fmt(c.firstArrivalMs)} ms${c.undelivered > 0 ? `; ${fmt(c.undelivered)} not delivered within the drain limit` : ''}.`,
    );
  }
  lines.push(
    `- Requests for an event already delivered (at least once: a second claim or a retry after an answer came too late): ${fmt(w.duplicates)}; bad signatures: ${fmt(w.badSignatures)}.`,
    '',
  );
  return lines;
}

function latencyTable(comparisons: Comparison[]): string[] {
  const rows = [
    '| # | route / floor | connections | throughput | p50 ms | p99 ms |',
    '| --- | --- | ---: | --- | --- | --- |',
  ];
  for (const c of comparisons) {
    for (const l of c.latency ?? []) {
      rows.push(
        `| ${c.id} | ${cell(l.label)} | ${l.connections} | ${showAuto(l.rps)} | ${showFigure(l.p50, 1)} | ${showFigure(l.p99, 1)} |`,
      );
    }
  }
  return rows;
}

/** Issue 12's outcome: these request times grow at most as products^0.1. */
const SCALING_EXPONENT_TARGET = 0.1;
const SCALING_TARGET_IDS = ['B2a', 'B3a', 'B3b', 'B4'];

function scalingSection(report: Report): string[] {
  if (!report.scaling?.length) return [];
  const sizes = [...new Set(report.scaling.map((r) => r.products))].sort((a, b) => a - b);
  const lines = [
    '## Scaling with catalogue size',
    '',
    `Each figure at ${sizes.map((n) => fmt(n)).join(' / ')} products (10 reviews per product, same generator; how each catalogue was loaded is under Data sets: the million in bulk SQL), at 16 connections. \`SQL ms\` is the EXPLAIN (ANALYZE) execution time of the request's read statements for its first variant; the exponent is the slope of log(time) against log(products) between the smallest and the largest catalogue (0 = flat, 1 = linear; the target for the list, the detail, the reviews page and the order is ≤ ${SCALING_EXPONENT_TARGET}).`,
    '',
    '| # | products | service req/s | pgbench tps | ratio | p50 ms | p99 ms | SQL ms |',
    '| --- | ---: | --- | --- | --- | --- | --- | ---: |',
  ];
  const ids = [...new Set(report.scaling.map((r) => r.id))];
  const exponents: string[] = [];
  for (const id of ids) {
    const rows = report.scaling.filter((r) => r.id === id).sort((a, b) => a.products - b.products);
    for (const r of rows) {
      lines.push(
        `| ${id} | ${fmt(r.products)} | ${showAuto(r.rps)} | ${showAuto(r.tps)} | ${showFigure(r.ratio, 2)} | ${showFigure(r.p50, 1)} | ${showFigure(r.p99, 1)} | ${fmt(r.sqlMs, 2)} |`,
      );
    }
    const first = rows[0];
    const last = rows[rows.length - 1];
    if (first && last && last.products > first.products) {
      const span = Math.log(last.products / first.products);
      const exponent = (from: number, to: number) => (Math.log(to / from) / span).toFixed(2);
      // No completed request in a run (rate 0) gives no time to compare.
      const requestExponent =
        last.rps.median > 0 && first.rps.median > 0
          ? exponent(last.rps.median, first.rps.median)
          : 'n/a (no request completed within a run)';
      const verdictText = SCALING_TARGET_IDS.includes(id)
        ? ` (target ≤ ${SCALING_EXPONENT_TARGET}: ${verdict(Number(requestExponent) <= SCALING_EXPONENT_TARGET)})`
        : '';
      exponents.push(
        `- ${id} (${first.label}): request time ∝ products^${requestExponent}${verdictText}, SQL time ∝ products^${exponent(first.sqlMs, last.sqlMs)}`,
      );
      // Matched by their text: statements sent concurrently reach the log in either order.
      const occurrence = (list: Array<{ sql: string }>, i: number) =>
        list.slice(0, i).filter((x) => x.sql === list[i]!.sql).length;
      first.statements.forEach((statement, i) => {
        const nth = occurrence(first.statements, i);
        const times = rows.map(
          (r) => r.statements.filter((x) => x.sql === statement.sql)[nth]?.ms ?? NaN,
        );
        exponents.push(
          `  - \`${statement.sql}\`: ${times.map((t) => fmt(t, 3)).join(' / ')} ms (∝ products^${exponent(times[0]!, times[times.length - 1]!)})`,
        );
      });
    }
  }
  return [...lines, '', ...exponents, ''];
}

export function renderMarkdown(report: Report): string {
  const lines: string[] = [
    `# Benchmark results ${report.date}`,
    '',
    `Command: \`${report.command}\` — ${report.settings.rounds} interleaved rounds of ${report.settings.durationSeconds} s per side (A and B alternate, the first round is a warm-up and dropped); figures are medians with the [min–max] of the kept rounds. Started ${report.startedAt}, finished ${report.finishedAt}.`,
    '',
    // The machine's load around the run, in the header: a busy machine makes every figure suspect.
    `Machine load average (1 / 5 / 15 min) before the run: ${report.machine.loadAverageBefore.map((l) => l.toFixed(2)).join(' / ')}; after: ${report.machine.loadAverageAfter.map((l) => l.toFixed(2)).join(' / ')} (${report.machine.cpus} cores).`,
    '',
    '## Results',
    '',
    ...resultsTable(report),
    '',
    ...(report.pages ? pagesSection(report.pages) : []),
    ...(report.loadTests?.length ? loadTestsSection(report.loadTests) : []),
    '## Latency',
    '',
    ...latencyTable(report.comparisons),
    '',
    ...scalingSection(report),
    '## Notes per figure',
    '',
  ];
  for (const c of report.comparisons) {
    lines.push(`### ${c.id} — ${c.title}`, '');
    lines.push(`- A: ${c.a.label}; B: ${c.b.label}.`);
    for (const also of c.alsoRatios ?? [])
      lines.push(`- ${also.label}: ${showFigure(also.ratio, 2)}`);
    for (const note of c.notes) lines.push(`- ${note}`);
    lines.push('');
    if (c.cpu?.length) {
      lines.push(
        'CPU during the runs (median of the kept rounds), as cores in use and as milliseconds per request or transaction:',
        '',
        '| side | rate /s | service | database | load generator | other processes | whole machine |',
        '| --- | ---: | --- | --- | --- | --- | --- |',
      );
      const use = (cores: number, rate: number) =>
        `${cores.toFixed(2)} (${rate > 0 ? ((cores * 1000) / rate).toFixed(2) : 'n/a'} ms)`;
      for (const row of c.cpu) {
        lines.push(
          `| ${cell(row.side)} | ${fmt(row.rate, digitsFor(row.rate))} | ${use(row.service, row.rate)} | ${use(row.database, row.rate)} | ${use(row.loadGenerator, row.rate)} | ${row.other.toFixed(2)} | ${row.machine.toFixed(2)} |`,
        );
      }
      lines.push('');
    }
  }
  if (report.webhooks) lines.push(...webhookNotes(report.webhooks));
  if (report.backOffice) lines.push(...backOfficeNotes(report.backOffice));
  if (report.exports?.length) {
    lines.push('### B7 — CSV export', '');
    for (const e of report.exports) {
      lines.push(
        `- ${fmt(e.handlers)} handlers: ${showFigure(e.rowsPerSecond)} rows/s, ${showFigure(e.seconds, 2)} s in all, first byte after ${showFigure(e.firstByteSeconds, 2)} s, peak RSS growth ${showFigure(e.peakRssGrowthMb, 1)} MB over a ${fmt(e.baselineRssMb, 0)} MB baseline; CPU per row: service ${showFigure(e.serviceCpuUsPerRow, 1)} µs, stand-in ${showFigure(e.databaseCpuUsPerRow, 1)} µs (the service alone would manage ${fmt(1e6 / e.serviceCpuUsPerRow.median)} rows per CPU second). The native driver reads the same cursor at ${showFigure(e.floorRowsPerSecond)} rows/s.`,
      );
    }
    lines.push(
      "- Rows/s counts from sending the request to the last byte, so it includes the stand-in computing and sorting the whole result before its first batch (see the first-byte time). RSS is the service process's (`/proc/<pid>/status`, peak from VmHWM after resetting it, and 5 ms samples).",
      '',
    );
  }
  lines.push('## Environment', '');
  const m = report.machine;
  lines.push(
    `- Machine: ${m.cpus} × ${m.cpuModel}, ${fmt(m.memoryGb, 1)} GB memory, ${m.os}; load average before ${m.loadAverageBefore.map((l) => l.toFixed(2)).join(' / ')}, after ${m.loadAverageAfter.map((l) => l.toFixed(2)).join(' / ')}.`,
    `- Versions: ${Object.entries(report.versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    `- Pools: ${Object.entries(report.pools)
      .map(([k, v]) => `${k} = ${v}`)
      .join(', ')}.`,
    `- PostgreSQL settings: ${Object.entries(report.postgres)
      .map(([k, v]) => `${k} = ${v}`)
      .join(', ')}.`,
    `- Connections: ${Object.entries(report.settings.connections)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    '',
    '### Data sets',
    '',
    '```json',
    JSON.stringify(report.datasets, null, 2),
    '```',
    '',
  );
  if (report.noise.length || report.notes.length) {
    lines.push('## Noise and caveats', '');
    for (const n of [...report.noise, ...report.notes]) lines.push(`- ${n}`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/** Writes both files, formatted by the repository's Prettier settings (so `pnpm check` passes). */
export async function writeReport(
  report: Report,
  outDir: string,
  label?: string,
): Promise<{ md: string; json: string }> {
  mkdirSync(outDir, { recursive: true });
  const base = path.join(outDir, label ? `${report.date}-${label}` : report.date);
  const format = async (text: string, file: string) => {
    const options = (await prettier.resolveConfig(file)) ?? {};
    return prettier.format(text, { ...options, filepath: file });
  };
  writeFileSync(`${base}.json`, await format(JSON.stringify(report), `${base}.json`));
  writeFileSync(`${base}.md`, await format(renderMarkdown(report), `${base}.md`));
  return { md: `${base}.md`, json: `${base}.json` };
}
