import pg from 'pg';

/**
 * Every statement a test's app sends to its database, as the `pg` driver under Prisma's adapter
 * sends it: one entry per round trip, BEGIN and COMMIT included. Patches `pg.Client` for the
 * current test file's process only (jest runs each file in its own worker).
 */
export function recordStatements(database: string): {
  /** The statements sent while `fn` ran. */
  during: (fn: () => Promise<unknown>) => Promise<string[]>;
  restore: () => void;
} {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  let sink: string[] | null = null;
  proto.query = function (this: pg.Client, ...args: unknown[]) {
    const [first] = args;
    const text = typeof first === 'string' ? first : (first as { text?: string } | null)?.text;
    if (sink && text !== undefined && this.database === database) {
      sink.push(text.replace(/\s+/g, ' ').trim());
    }
    return original.apply(this, args);
  };
  return {
    during: async (fn) => {
      const statements: string[] = [];
      sink = statements;
      try {
        await fn();
      } finally {
        sink = null;
      }
      return statements;
    },
    restore: () => {
      proto.query = original;
    },
  };
}
