import pg from 'pg';

/** In the text of every statement sent from here, so that statement counts can leave them out. */
export const HOLDER_MARK = '/* lock holder */';

/**
 * Locks products rows (FOR UPDATE) in a transaction on a connection of its own, as a concurrent
 * writer would, until `release`: orders naming them wait meanwhile.
 */
export async function holdProducts(
  databaseUrl: string,
  ids: number[],
): Promise<{ release: () => Promise<void> }> {
  const holder = new pg.Client({ connectionString: databaseUrl });
  await holder.connect();
  await holder.query(`BEGIN ${HOLDER_MARK}`);
  await holder.query(`SELECT id FROM products WHERE id = ANY($1) FOR UPDATE ${HOLDER_MARK}`, [ids]);
  return {
    release: async () => {
      try {
        await holder.query(`COMMIT ${HOLDER_MARK}`);
      } finally {
        await holder.end();
      }
    },
  };
}

/**
 * Resolves once `n` statements of the database wait for a lock, so that a test knows its
 * requests are queued behind a lock it holds.
 */
export async function lockWaiters(databaseUrl: string, n: number): Promise<void> {
  const watcher = new pg.Client({ connectionString: databaseUrl });
  await watcher.connect();
  try {
    for (let polls = 0; ; polls++) {
      const { rows } = await watcher.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' ${HOLDER_MARK}`,
      );
      const waiting = rows[0]?.waiting ?? 0;
      if (waiting >= n) return;
      if (polls >= 1000) throw new Error(`${waiting} statements wait for a lock, not ${n}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    await watcher.end();
  }
}
