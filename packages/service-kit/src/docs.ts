import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { componentSchemas, refsForDocument } from './openapi-components.js';

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
  /**
   * Contract schemas with an `$id` (and those nested in them): each becomes a named entry of
   * `components.schemas`, and bodies and responses refer to it by `$ref`.
   */
  schemas?: readonly unknown[];
}

/**
 * OpenAPI 3.1 generated from the route schemas (which come from packages/contracts), served as
 * `/openapi.json`, with the interactive Swagger UI at `/docs` and a pointer to both at `/`.
 * Register before the routes.
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
      // Components are named by their `$id` (the default would be def-0, def-1, …).
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, index) =>
          typeof json.$id === 'string' ? json.$id : `def-${index}`,
      },
      transform: ({ schema, url }) => ({ schema: refsForDocument(schema)!, url }),
    });
    for (const schema of componentSchemas(opts.schemas ?? [])) app.addSchema(schema);
    await app.register(swaggerUi, {
      routePrefix: opts.routePrefix ?? '/docs',
      staticCSP: true,
      // The plugin's CSP asks browsers to upgrade to https, which breaks the docs served over
      // plain http (a gateway on a LAN host, compose on a VM); TLS is the gateway's concern.
      transformStaticCSP: (header: string) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
    });
    app.get(
      '/openapi.json',
      { schema: { hide: true }, config: { rateLimit: false, auth: 'none' } },
      async () => app.swagger(),
    );
    // Someone opening the bare address learns where the documentation is.
    const pointer = {
      name: opts.title,
      version: opts.version,
      docs: opts.routePrefix ?? '/docs',
      openapi: '/openapi.json',
      health: '/health',
    };
    app.get(
      '/',
      { schema: { hide: true }, config: { rateLimit: false, auth: 'none' } },
      async () => pointer,
    );
  },
  { name: 'api-docs' },
);
