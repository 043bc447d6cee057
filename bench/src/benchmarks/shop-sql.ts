// Captured SQL → pgbench scripts, and EXPLAIN ANALYZE of it (the profile side of a figure).
import pg from 'pg';
import type { Context } from '../context.js';
import type { HttpRequestSpec } from '../infra/load.js';
import {
  captureStatements,
  toPgbenchScript,
  type CapturedStatement,
  type PgbenchScript,
  type ScriptOptions,
} from '../infra/query-capture.js';
import { SHOP_API_KEY } from '../infra/services.js';

export const shopHeaders = (body?: string): Record<string, string> => ({
  'x-api-key': SHOP_API_KEY,
  ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
});

export interface CapturedRequest {
  request: HttpRequestSpec;
  statements: CapturedStatement[];
  status: number;
  body: string;
}

/** Sends each request once, alone, with statement logging on, and keeps what the shop sent. */
export async function captureRequests(
  ctx: Context,
  baseUrl: string,
  database: string,
  requests: HttpRequestSpec[],
): Promise<CapturedRequest[]> {
  const captured: CapturedRequest[] = [];
  await ctx.pg.logStatements(true);
  try {
    for (const request of requests) {
      let status = 0;
      let body = '';
      const statements = await captureStatements(ctx.pg, database, async () => {
        const res = await fetch(baseUrl + request.path, {
          method: request.method ?? 'GET',
          headers: { ...shopHeaders(request.body), ...request.headers },
          ...(request.body !== undefined ? { body: request.body } : {}),
        });
        status = res.status;
        body = await res.text();
      });
      if (status >= 300) {
        throw new Error(
          `capture: ${request.method ?? 'GET'} ${request.path} answered ${status}: ${body}`,
        );
      }
      captured.push({ request, statements, status, body });
    }
  } finally {
    await ctx.pg.logStatements(false);
  }
  return captured;
}

export function scriptsOf(
  captured: CapturedRequest[],
  opts: (c: CapturedRequest, i: number) => Omit<ScriptOptions, 'prefix'> = () => ({}),
): PgbenchScript[] {
  return captured.map((c, i) => toPgbenchScript(c.statements, { prefix: `r${i}`, ...opts(c, i) }));
}

/** The statement shapes, with how often each occurs per request (for the report). */
export function statementSummary(statements: CapturedStatement[]): string[] {
  return statements.map((s) => {
    const text = s.sql.replace(/\s+/g, ' ');
    return text.length > 140 ? `${text.slice(0, 137)}…` : text;
  });
}

export interface ExplainResult {
  executionMs: number;
  planningMs: number;
  /** Each read statement's execution time, in the order the request sent them. */
  statements: Array<{ sql: string; ms: number }>;
  /** Text plan of the costliest statement. */
  slowestPlan: string;
  slowestSql: string;
}

/** EXPLAIN (ANALYZE, BUFFERS) of every read statement of one captured request. */
export async function explainRequest(
  databaseUrl: string,
  statements: CapturedStatement[],
): Promise<ExplainResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let executionMs = 0;
    let planningMs = 0;
    let slowest = { ms: -1, plan: '', sql: '' };
    const timed: Array<{ sql: string; ms: number }> = [];
    for (const s of statements) {
      if (!/^\s*SELECT/i.test(s.sql)) continue;
      const params = s.params.map((p) => p ?? null);
      // The fastest of three runs: the statement's cost, not the noise of the moment.
      let plan = { 'Execution Time': Infinity, 'Planning Time': Infinity };
      for (let run = 0; run < 3; run += 1) {
        const json = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${s.sql}`, params);
        const [one] = (json.rows[0] as { 'QUERY PLAN': Array<typeof plan> })['QUERY PLAN'];
        if (one && one['Execution Time'] < plan['Execution Time']) plan = one;
      }
      executionMs += plan['Execution Time'];
      timed.push({ sql: statementSummary([s])[0]!, ms: plan['Execution Time'] });
      planningMs += plan['Planning Time'];
      if (plan['Execution Time'] > slowest.ms) {
        const text = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${s.sql}`, params);
        slowest = {
          ms: plan['Execution Time'],
          plan: text.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'),
          sql: s.sql,
        };
      }
    }
    return {
      executionMs,
      planningMs,
      statements: timed,
      slowestPlan: slowest.plan,
      slowestSql: slowest.sql,
    };
  } finally {
    await client.end();
  }
}
