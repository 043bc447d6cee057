// Reads config, opens MongoDB (MONGODB_URI, else an embedded one in the data folder), builds the
// app and listens until SIGTERM/SIGINT.
import { ConfigError, runServer } from '@dogshop/service-kit';
import { buildApp } from './app.js';
import { readConfig } from './config.js';
import { EmbeddedDatabaseInUseError, openMongoTarget } from './db/mongo-target.js';
import { prepareFirstStart } from './first-start.js';

async function main(): Promise<void> {
  const config = readConfig();
  const mongo = await openMongoTarget({
    uri: config.mongodbUri,
    dataDir: config.dataDir,
    log: (line) => console.error(line),
  });
  try {
    const app = await buildApp({ ...config, mongodbUri: mongo.uri });
    app.log.info({ mongodb: mongo.kind }, `using ${mongo.description}`);
    await prepareFirstStart(app, config);
    await runServer(app, { port: config.port, host: config.host, onClosed: mongo.close });
  } catch (error) {
    await mongo.close();
    throw error;
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`configuration error: ${error.message}`);
  } else if (error instanceof EmbeddedDatabaseInUseError) {
    console.error(`cannot start: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
