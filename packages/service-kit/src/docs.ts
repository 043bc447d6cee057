import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { OPERATIONS_TAG } from './health.js';
import {
  addComponents,
  liftRequiredHeaders,
  placeBodyExamples,
  refsForDocument,
  withRefs,
} from './openapi-components.js';
import { REQUEST_RULES, writeRequestRules } from './openapi-request-rules.js';
import { standardHeaders, withImpliedResponses, type ErrorResponses } from './openapi-responses.js';

export interface DocsOptions {
  title: string;
  version: string;
  description: string;
  /** Where the interactive docs live (default `/docs`). */
  routePrefix?: string;
  securitySchemes: Record<string, Record<string, unknown>>;
  /** Security applied to operations that declare none. */
  security?: Array<Record<string, string[]>>;
  /** The API's tags (from the contracts): a documented route with any other fails at start-up. */
  tags?: Array<{ name: string; description: string }>;
  /**
   * The service's documented error responses (the contracts' `errorResponseSet`): the statuses
   * every route answers by its declaration (impliedStatuses) are added with them.
   */
  errors?: ErrorResponses;
  /** Schemas to name as components although no route uses them (those routes use are found). */
  schemas?: readonly unknown[];
  /**
   * The requests the API sends to its subscribers, by name (OpenAPI 3.1 `webhooks`): Path Items
   * written as in the document, with TypeBox schemas where a route has them. As for the routes,
   * every `$id` schema in them becomes a component and a `$ref`, and a tag must be the API's.
   */
  webhooks?: Record<string, Record<string, unknown>>;
}

/**
 * OpenAPI 3.1 generated from the route schemas (which come from packages/contracts), served as
 * `/openapi.json`, with the interactive Swagger UI at `/docs` and a pointer to both at `/`.
 * Register before the routes. Every schema with an `$id` a documented route uses becomes a named
 * component (no list to keep); each operation gets the answers its declaration implies (304,
 * 400, 401, 413, 415, 429, 503), `X-Request-Id` and the cache headers, and the request rules
 * (openapi-request-rules.ts).
 */
export const apiDocs = fp<DocsOptions>(
  async (app: FastifyInstance, opts) => {
    const schemas: Record<string, unknown> = {};
    const tags = [
      ...(opts.tags ?? []).filter((tag) => tag.name !== OPERATIONS_TAG.name),
      OPERATIONS_TAG,
    ];
    const declared = new Set(tags.map((tag) => tag.name));
    const checkTags = (where: string, schema: { tags?: unknown } | undefined) => {
      for (const tag of Array.isArray(schema?.tags) ? (schema.tags as unknown[]) : []) {
        if (typeof tag !== 'string' || !declared.has(tag))
          throw new Error(
            `${where}: tag '${String(tag)}' is not one of the API's tags (the contracts')`,
          );
      }
    };
    const webhooks = opts.webhooks && documentedWebhooks(opts.webhooks, checkTags);
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: opts.title,
          version: opts.version,
          description: `${opts.description}\n\n${REQUEST_RULES}`,
        },
        // Filled below while the routes are registered; read when the document is generated.
        components: { securitySchemes: opts.securitySchemes as never, schemas: schemas as never },
        security: opts.security ?? [],
        tags,
        ...(webhooks && { webhooks: webhooks as never }),
      },
      // Components are named by their `$id` (the default would be def-0, def-1, …).
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, index) =>
          typeof json.$id === 'string' ? json.$id : `def-${index}`,
      },
      transform: ({ schema, url, route }) => {
        if (!schema || schema.hide) return { schema, url };
        const response = withImpliedResponses(route, opts.errors);
        return { schema: refsForDocument({ ...schema, response }, standardHeaders(route))!, url };
      },
      transformObject: (document) => {
        const openapi = 'openapiObject' in document ? document.openapiObject : {};
        return writeRequestRules(liftRequiredHeaders(placeBodyExamples(openapi)));
      },
    });

    // The error envelope, which implied responses refer to even where no route names it.
    addComponents(schemas, [
      ...(opts.errors ? [opts.errors(400)] : []),
      ...(opts.schemas ?? []),
      ...Object.values(opts.webhooks ?? {}),
    ]);
    app.addHook('onRoute', (route) => {
      const schema = route.schema as { hide?: boolean; tags?: string[] } | undefined;
      if (!schema || schema.hide) return;
      checkTags(`${[route.method].flat().join(',')} ${route.url}`, schema);
      addComponents(schemas, [schema]);
    });
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

/**
 * The document's `webhooks`: each Path Item with its `$id` schemas as `$ref`s (the components are
 * added with the routes'), its operations' tags checked.
 */
function documentedWebhooks(
  webhooks: Record<string, Record<string, unknown>>,
  checkTags: (where: string, operation: { tags?: unknown }) => void,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(webhooks).map(([name, item]) => {
      for (const [method, operation] of Object.entries(item))
        checkTags(`webhook ${name} ${method}`, operation as { tags?: unknown });
      return [name, withRefs(item)];
    }),
  );
}
