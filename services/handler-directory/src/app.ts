import { buildService, type RuntimeOptions } from '@dogshop/service-kit';
import { directoryApi } from '@dogshop/contracts/handler-directory';
import type { FastifyInstance } from 'fastify';
import type { DirectoryConfig } from './config.js';
import { isDatabaseUnavailable } from './db/unavailable.js';
import { GERMAN } from './messages.js';
import { auth, JWT_AUDIENCE, JWT_ISSUER } from './plugins/auth.js';
import { database } from './plugins/database.js';
import { handlerChanges } from './plugins/handler-changes.js';
import { pages } from './plugins/pages.js';
import { routes } from './routes/index.js';

// The service's programmatic entry (tests, infra, bench): its configuration and its app.
export { readConfig, type DirectoryConfig } from './config.js';
export const directoryErrorBody = (_statusCode: number, message: string) => ({
  success: false,
  message,
});

/**
 * Builds the handler-directory app without listening; tests inject requests into it. The shared
 * plugin stack is service-kit's `buildService`, answering in German.
 */
export async function buildApp(
  config: DirectoryConfig,
  runtime: RuntimeOptions = {},
): Promise<FastifyInstance> {
  return buildService(
    config,
    {
      name: 'handler-directory',
      api: directoryApi,
      errorBody: directoryErrorBody,
      messages: GERMAN,
      tokens: { issuer: JWT_ISSUER, audience: JWT_AUDIENCE },
      database,
      isDatabaseUnavailable,
      auth,
      // Writes to the handlers announce themselves to every replica; the public list is kept until then.
      plugins: [handlerChanges, pages], // pages: the finder and the other pages at /verzeichnis/
      routes,
    },
    runtime,
  );
}
