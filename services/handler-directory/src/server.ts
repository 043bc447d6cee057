// The handler directory's process: service-kit's startService with the directory's parts.
// Mongoose (the database's and the app's modules) is imported only after tracing has started,
// so that the MongoDB driver's instrumentation patches the driver as it loads.
import { startService } from '@dogshop/service-kit';
import { readConfig, type DirectoryConfig } from './config.js';

startService<DirectoryConfig>({
  name: 'handler-directory',
  readConfig,
  // The driver's command spans (Mongoose runs on it), only inside a traced request.
  instrumentations: async () => {
    const { MongoDBInstrumentation } = await import('@opentelemetry/instrumentation-mongodb');
    return [new MongoDBInstrumentation({ requireParentSpan: true })];
  },
  load: async () => {
    const [{ openDatabase }, { buildApp }, { prepareFirstStart }] = await Promise.all([
      import('./db/open-database.js'),
      import('./app.js'),
      import('./first-start.js'),
    ]);
    return {
      openDatabase: (config) =>
        openDatabase({
          uri: config.mongodbUri,
          waitMs: config.databaseWaitMs,
          dataDir: config.dataDir,
          log: (line) => console.error(line),
        }),
      buildApp,
      prepareFirstStart,
    };
  },
  withDatabase: (config, url) => ({ ...config, mongodbUri: url }),
});
