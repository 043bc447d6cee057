import { hash } from 'node:crypto';
import { Prisma } from '../generated/prisma/client.js';

/**
 * Ends a statement whose plan depends on its parameter values (a price range within a category):
 * it stays unnamed, so PostgreSQL plans it for the values of each call. (A statement can instead
 * keep its values from the planner, as the search does, and be named: products/repository.ts.)
 */
export const PLAN_PER_CALL = Prisma.raw('/* plan per call */');
const PLAN_PER_CALL_TEXT = PLAN_PER_CALL.sql;

/**
 * The name under which a connection keeps a statement prepared (`statementNameGenerator` of the
 * Prisma pg adapter): the same text, the same name (its command and a SHA-1 of the text). A
 * connection then parses each statement once, and after five calls PostgreSQL plans it once,
 * when its generic plan is no dearer than the per-call ones; planning is about as costly as
 * running the shop's hot statements. Statements ending in PLAN_PER_CALL get '' (the protocol's
 * unnamed statement, parsed and planned per call):
 * a generic plan cannot see how many rows a range or pattern matches, and would keep the plan of
 * a narrow range for a wide one.
 */
export function preparedStatementName(query: { sql: string }): string {
  const { sql } = query;
  let name = names.get(sql);
  if (name === undefined) {
    name = sql.endsWith(PLAN_PER_CALL_TEXT)
      ? ''
      : `${command(sql)}_${hash('sha1', sql, 'base64url')}`;
    // The shop's statement texts are a few hundred; the bound only guards against a surprise.
    if (names.size >= 10_000) names.clear();
    names.set(sql, name);
  }
  return name;
}

/**
 * The statement's first word, upper-cased: the name then reads `SELECT_…`, and so does the span
 * the pg instrumentation names after it (`pg.query:SELECT_… shop`), as it would without a name.
 */
const command = (sql: string) => (/^\s*(\w+)/.exec(sql)?.[1] ?? 'QUERY').toUpperCase();

/** Names by statement text: a lookup per call instead of a hash of the whole text. */
const names = new Map<string, string>();
