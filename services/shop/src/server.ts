// Reads config, opens the database (embedded when DATABASE_URL is unset), builds the app and
// listens until SIGTERM/SIGINT.
import { ConfigError, runServer } from '@dogshop/service-kit';
import { buildApp } from './app.js';
import { readConfig } from './config.js';
import { openDatabase } from './db/open-database.js';
import { prepareFirstStart } from './first-start.js';

async function main(): Promise<void> {
  const config = readConfig();
  const database = await openDatabase(config, { log: (line) => console.error(line) });
  const app = await buildApp({ ...config, databaseUrl: database.url });
  if (database.embedded) {
    app.log.info({ dataDir: config.dataDir }, 'using the embedded PostgreSQL (DATABASE_URL unset)');
  }
  await prepareFirstStart(app, config);
  await runServer(app, { port: config.port, host: config.host, onClosed: database.close });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`configuration error: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
