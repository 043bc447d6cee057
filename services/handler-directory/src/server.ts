// Reads config, opens MongoDB (MONGODB_URI, else an embedded one in the data folder), builds the
// app and listens until SIGTERM/SIGINT. Any start-up failure ends in one line (startup.ts).
import { assertPortFree, exitOnStartupFailure, runServer } from '@dogshop/service-kit';
import { buildApp } from './app.js';
import { readConfig } from './config.js';
import { openDatabase } from './db/open-database.js';
import { prepareFirstStart } from './first-start.js';

async function main(): Promise<void> {
  const config = readConfig();
  await assertPortFree({ port: config.port, host: config.host, variable: 'PORT' });
  const database = await openDatabase({
    uri: config.mongodbUri,
    waitMs: config.databaseWaitMs,
    dataDir: config.dataDir,
    log: (line) => console.error(line),
  });
  try {
    const app = await buildApp({ ...config, mongodbUri: database.url });
    app.log.info({ embedded: database.embedded }, `using ${database.description}`);
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

main().catch((error: unknown) => exitOnStartupFailure('handler-directory', error));
