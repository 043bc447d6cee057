// The shop's process: service-kit's startService with the shop's parts. The modules that load pg
// (the database's and the app's) are imported only after tracing has started, so that pg's
// instrumentation patches pg as it loads.
import { startService } from '@dogshop/service-kit';
import { readConfig, type ShopConfig } from './config.js';

startService<ShopConfig>({
  name: 'shop',
  readConfig,
  // pg's query spans (Prisma's queries run through pg's Pool), only inside a traced request.
  instrumentations: async () => {
    const { PgInstrumentation } = await import('@opentelemetry/instrumentation-pg');
    return [new PgInstrumentation({ requireParentSpan: true })];
  },
  load: async () => {
    const [{ openDatabase }, { buildApp }, { prepareFirstStart }] = await Promise.all([
      import('./db/open-database.js'),
      import('./app.js'),
      import('./first-start.js'),
    ]);
    return {
      openDatabase: (config) => openDatabase(config, { log: (line) => console.error(line) }),
      buildApp,
      prepareFirstStart,
    };
  },
  withDatabase: (config, url) => ({ ...config, databaseUrl: url }),
});
