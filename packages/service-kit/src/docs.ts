import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface DocsOptions {
  title: string;
  version: string;
  description: string;
  /** Where the interactive docs live (default `/docs`). */
  routePrefix?: string;
  securitySchemes: Record<string, Record<string, unknown>>;
  /** Security applied to operations that declare none. */
  security?: Array<Record<string, string[]>>;
  tags?: Array<{ name: string; description: string }>;
}

/**
 * OpenAPI 3.1 generated from the route schemas (which come from packages/contracts), served as
 * `/openapi.json`, with the interactive Swagger UI at `/docs`. Register before the routes.
 */
export const apiDocs = fp<DocsOptions>(
  async (app: FastifyInstance, opts) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: opts.title, version: opts.version, description: opts.description },
        components: { securitySchemes: opts.securitySchemes as never },
        security: opts.security ?? [],
        tags: opts.tags ?? [],
      },
    });
    await app.register(swaggerUi, {
      routePrefix: opts.routePrefix ?? '/docs',
      staticCSP: true,
      // The plugin's CSP asks browsers to upgrade to https, which breaks the docs served over
      // plain http (a gateway on a LAN host, compose on a VM); TLS is the gateway's concern.
      transformStaticCSP: (header: string) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
    });
    app.get('/openapi.json', { schema: { hide: true }, config: { rateLimit: false } }, async () =>
      app.swagger(),
    );
  },
  { name: 'api-docs' },
);
