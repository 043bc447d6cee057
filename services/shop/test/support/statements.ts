import pg from 'pg';

/**
 * Every statement a test's app sends to its database, as the `pg` driver under Prisma's adapter
 * sends it: one entry per round trip, BEGIN and COMMIT included. Patches `pg.Client` of this
 * module registry (a test file's, or its batch's: jest.batches.js); only the statements sent to
 * `database` are recorded.
 */
export function recordStatements(database: string): {
  /** The statements sent while `fn` ran. */
  during: (fn: () => Promise<unknown>) => Promise<string[]>;
  /** The same, each with the name it was prepared under ('' or absent: unnamed). */
  namedDuring: (fn: () => Promise<unknown>) => Promise<Array<{ text: string; name?: string }>>;
  restore: () => void;
} {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  let sink: Array<{ text: string; name?: string }> | null = null;
  proto.query = function (this: pg.Client, ...args: unknown[]) {
    const [first] = args;
    const config = typeof first === 'string' ? { text: first } : (first as pg.QueryConfig | null);
    if (sink && config?.text !== undefined && this.database === database) {
      sink.push({ text: config.text.replace(/\s+/g, ' ').trim(), name: config.name });
    }
    return original.apply(this, args);
  };
  const namedDuring = async (fn: () => Promise<unknown>) => {
    const statements: Array<{ text: string; name?: string }> = [];
    sink = statements;
    try {
      await fn();
    } finally {
      sink = null;
    }
    return statements;
  };
  return {
    during: async (fn) => (await namedDuring(fn)).map((s) => s.text),
    namedDuring,
    restore: () => {
      proto.query = original;
    },
  };
}
