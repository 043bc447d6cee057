import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const TEMPLATE_DATABASE = 'shop_test_template';

function serverUrl(): string {
  const url = process.env.TEST_PG_SERVER_URL;
  if (!url)
    throw new Error('TEST_PG_SERVER_URL is unset: run the tests through jest (global setup)');
  return url;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: `${serverUrl()}/postgres` });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A fresh, migrated database cloned from the template; drop it when done. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `shop_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`));
  return {
    url: `${serverUrl()}/${name}`,
    drop: () =>
      admin(async (c) => {
        await untilDisconnected(c, name);
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }),
  };
}

/**
 * Waits (up to two seconds) for the database's sessions to go. `pool.end()` resolves before its
 * sockets close, and FORCE would terminate a closing session: its idle pool then emits an error
 * that nobody listens to any more, which fails whichever test happens to be running.
 */
async function untilDisconnected(c: pg.Client, name: string): Promise<void> {
  for (let waited = 0; waited < 2_000; waited += 20) {
    const { rows } = await c.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
      [name],
    );
    if (rows[0]?.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
