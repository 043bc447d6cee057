// Reads config, starts tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set, opens the database
// (embedded when DATABASE_URL is unset), builds the app and listens until SIGTERM/SIGINT. Any
// start-up failure ends in one line (service-kit's startup.ts).
import {
  assertPortFree,
  exitOnStartupFailure,
  runServer,
  startTracing,
} from '@dogshop/service-kit';
import { readConfig } from './config.js';

/** pg's query spans (Prisma's queries run through pg's Pool), only inside a traced request. */
async function instrumentations() {
  const { PgInstrumentation } = await import('@opentelemetry/instrumentation-pg');
  return [new PgInstrumentation({ requireParentSpan: true })];
}

async function main(): Promise<void> {
  const config = readConfig();
  await assertPortFree({ port: config.port, host: config.host, variable: 'PORT' });
  // Tracing starts before pg is loaded (its instrumentation patches pg as pg loads), so the
  // modules that load pg, the database's and the app's, are imported only after it.
  const tracing =
    config.otel &&
    (await startTracing({ serviceName: config.otel.serviceName ?? 'shop', instrumentations }));
  const [{ openDatabase }, { buildApp }, { prepareFirstStart }] = await Promise.all([
    import('./db/open-database.js'),
    import('./app.js'),
    import('./first-start.js'),
  ]);
  const database = await openDatabase(config, { log: (line) => console.error(line) });
  try {
    const app = await buildApp({ ...config, databaseUrl: database.url }, { tracing });
    app.log.info(`using ${database.description}`);
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

main().catch((error: unknown) => exitOnStartupFailure('shop', error));
