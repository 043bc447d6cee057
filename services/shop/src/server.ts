// Reads config, opens the database (embedded when DATABASE_URL is unset), builds the app and
// listens until SIGTERM/SIGINT. Any start-up failure ends in one line (service-kit's startup.ts).
import { assertPortFree, exitOnStartupFailure, runServer } from '@dogshop/service-kit';
import { buildApp } from './app.js';
import { readConfig } from './config.js';
import { openDatabase } from './db/open-database.js';
import { prepareFirstStart } from './first-start.js';

async function main(): Promise<void> {
  const config = readConfig();
  await assertPortFree({ port: config.port, host: config.host, variable: 'PORT' });
  const database = await openDatabase(config, { log: (line) => console.error(line) });
  try {
    const app = await buildApp({ ...config, databaseUrl: database.url });
    app.log.info(`using ${database.description}`);
    await prepareFirstStart(app, config);
    await runServer(app, {
      port: config.port,
      host: config.host,
      onClosed: () => database.close(),
    });
  } catch (error) {
    await database.close();
    throw error;
  }
}

main().catch((error: unknown) => exitOnStartupFailure('shop', error));
