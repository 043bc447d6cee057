// Captures the exact SQL a service request issues, from PostgreSQL's own statement log
// (log_statement=all, JSON log), and turns it into pgbench scripts.
import type { BenchPostgres, LogEntry } from './postgres.js';
import { sleep } from '@dogshop/child-processes';

export interface CapturedStatement {
  /** The statement text as the server received it ($1, $2 … for bound parameters). */
  sql: string;
  /** Bound parameter values as text (null for SQL NULL), by position. */
  params: Array<string | null>;
  session: string;
  /** Simple-protocol statement (e.g. BEGIN) rather than an extended-protocol execute. */
  simple: boolean;
  /** Executed as a named (prepared, kept per connection) statement rather than the unnamed one. */
  prepared: boolean;
}

const STATEMENT = /^(?:statement|execute [^:]*): ([\s\S]*)$/;
const PARAMETER = /\$(\d+) = (NULL|'(?:[^']|'')*')/g;

export function parseEntry(entry: LogEntry): CapturedStatement | undefined {
  const match = entry.message?.match(STATEMENT);
  if (!match) return undefined;
  const params: Array<string | null> = [];
  if (entry.detail?.startsWith('Parameters: ')) {
    for (const p of entry.detail.matchAll(PARAMETER)) {
      params[Number(p[1]) - 1] = p[2] === 'NULL' ? null : p[2]!.slice(1, -1).replaceAll("''", "'");
    }
  }
  return {
    sql: match[1]!.trim(),
    params,
    session: entry.session_id ?? '',
    simple: entry.message!.startsWith('statement:'),
    prepared:
      entry.message!.startsWith('execute ') && !entry.message!.startsWith('execute <unnamed>'),
  };
}

/**
 * Runs `issue` (one request to a service, nothing else running) with statement logging on and
 * returns what the service sent to `database`, in the order the server logged it.
 */
export async function captureStatements(
  pg: BenchPostgres,
  database: string,
  issue: () => Promise<void>,
): Promise<CapturedStatement[]> {
  const start = await pg.logSize();
  await issue();
  const marker = await pg.logMarker();
  const entries: LogEntry[] = [];
  let offset = start;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const read = await pg.readLog(offset);
    entries.push(...read.entries);
    offset = read.offset;
    if (entries.some((e) => e.message?.includes(marker))) break;
    await sleep(50);
  }
  return entries
    .filter((e) => e.dbname === database)
    .map(parseEntry)
    .filter((s): s is CapturedStatement => s !== undefined);
}

export interface PgbenchScript {
  /** Script text: one command per statement, parameters as pgbench variables. */
  text: string;
  /** The variables' values (pgbench `-D name=value`). */
  variables: Record<string, string>;
  /** The service sent these statements prepared (named), so pgbench should too (-M prepared). */
  prepared: boolean;
}

export interface ScriptOptions {
  /** Variable-name prefix, unique per script of one pgbench run. */
  prefix: string;
  /**
   * Replaces a parameter by an expression (e.g. a `\gset` variable); return undefined to keep
   * the captured value.
   */
  rewrite?: (statement: CapturedStatement, index: number, position: number) => string | undefined;
  /** Extra meta-commands after statement `index` (e.g. `\gset ord_`). */
  after?: (statement: CapturedStatement, index: number) => string | undefined;
}

/**
 * A pgbench script that sends the captured statements, in order, over one connection, with each
 * bound parameter sent again as a bound parameter: untyped text parameters, as node-postgres
 * sends them, in statements prepared per connection when the service sent them prepared.
 */
export function toPgbenchScript(
  statements: CapturedStatement[],
  opts: ScriptOptions,
): PgbenchScript {
  const variables: Record<string, string> = {};
  const lines: string[] = [];
  statements.forEach((statement, index) => {
    const sql = statement.sql.replace(/\$(\d+)/g, (_, n: string) => {
      const position = Number(n);
      const replaced = opts.rewrite?.(statement, index, position);
      if (replaced !== undefined) return replaced;
      const value = statement.params[position - 1];
      if (value === null || value === undefined) return 'NULL';
      const name = `${opts.prefix}_${index}_${position}`;
      variables[name] = value;
      return `:${name}`;
    });
    // pgbench ends a command at the first unquoted semicolon; Prisma's SQL carries none.
    const extra = opts.after?.(statement, index);
    lines.push(extra ? `${sql} ${extra}` : `${sql};`);
  });
  const prepared =
    statements.some((s) => s.prepared) && statements.every((s) => s.prepared || s.simple);
  return { text: `${lines.join('\n')}\n`, variables, prepared };
}
