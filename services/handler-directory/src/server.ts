// Reads config, starts tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set, opens MongoDB
// (MONGODB_URI, else an embedded one in the data folder), builds the app and listens until
// SIGTERM/SIGINT. Any start-up failure ends in one line (startup.ts).
import {
  assertPortFree,
  exitOnStartupFailure,
  runServer,
  startTracing,
} from '@dogshop/service-kit';
import { readConfig } from './config.js';

/** The MongoDB driver's command spans (Mongoose runs on it), only inside a traced request. */
async function instrumentations() {
  const { MongoDBInstrumentation } = await import('@opentelemetry/instrumentation-mongodb');
  return [new MongoDBInstrumentation({ requireParentSpan: true })];
}

async function main(): Promise<void> {
  const config = readConfig();
  await assertPortFree({ port: config.port, host: config.host, variable: 'PORT' });
  // Tracing starts before the driver is loaded (its instrumentation patches mongodb as it
  // loads), so the modules that load Mongoose, the database's and the app's, come after it.
  const tracing =
    config.otel &&
    (await startTracing({
      serviceName: config.otel.serviceName ?? 'handler-directory',
      instrumentations,
    }));
  const [{ openDatabase }, { buildApp }, { prepareFirstStart }] = await Promise.all([
    import('./db/open-database.js'),
    import('./app.js'),
    import('./first-start.js'),
  ]);
  const database = await openDatabase({
    uri: config.mongodbUri,
    waitMs: config.databaseWaitMs,
    dataDir: config.dataDir,
    log: (line) => console.error(line),
  });
  try {
    const app = await buildApp({ ...config, mongodbUri: database.url }, { tracing });
    app.log.info({ embedded: database.embedded }, `using ${database.description}`);
    await prepareFirstStart(app, config);
    await runServer(app, {
      port: config.port,
      host: config.host,
      onClosed: async () => {
        await database.close();
        await tracing?.shutdown(); // the spans still queued
      },
    });
  } catch (error) {
    await database.close();
    throw error;
  }
}

main().catch((error: unknown) => exitOnStartupFailure('handler-directory', error));
