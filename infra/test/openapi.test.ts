// The OpenAPI documents for integrators (openapi/*.json): they are what the code generates, valid
// OpenAPI 3.1, lint-clean, and every operation is documented completely. The gateway's docs page
// (infra/gateway/docs/) loads Swagger UI from the shop and the combined document from the gateway.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import {
  DOCUMENT_NAMES,
  HTTP_METHODS,
  LOCAL_GATEWAY_URL,
  PUBLIC_GATEWAY_URL,
  REPO_ROOT,
  buildThrowawayShopApp,
  clientTypes,
  documentPath,
  generateDocuments,
  readCommittedClientTypes,
  readCommittedDocument,
  serializeDocument,
  type DocumentName,
  type JsonObject,
  type OpenApiDocument,
} from '../scripts/openapi-documents.js';

let generated: Record<DocumentName, OpenApiDocument>;
beforeAll(async () => {
  generated = await generateDocuments();
});

interface Operation {
  route: string;
  method: string;
  operation: JsonObject;
}

function operationsOf(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([route, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({ route, method, operation: operation as JsonObject })),
  );
}

/** Operations that need no credentials (the rest must declare a security scheme). */
const PUBLIC_OPERATIONS = [
  'get /gateway/health',
  'get /health',
  'get /ready',
  'get /api/public/users',
  'post /api/auth/login',
  // The one-time token in the body is the credential.
  'post /api/auth/set-password',
  'post /admin/auth/login',
  'post /admin/auth/set-password',
];

type Media = { example?: unknown; examples?: Record<string, unknown>; schema?: JsonObject };
/** A download of bytes (an XLSX workbook): no example text can show it. */
const isBinary = (media: Media) => media.schema?.format === 'binary';
const hasExample = (media: Media | undefined) =>
  media !== undefined &&
  (isBinary(media) ||
    media.example !== undefined ||
    Object.keys(media.examples ?? {}).length > 0 ||
    Array.isArray(media.schema?.examples));
const contentOf = (holder: JsonObject | undefined) =>
  Object.values((holder?.content ?? {}) as Record<string, Media>);

/** Everything an operation lacks, as readable lines (empty when complete). */
function completenessProblems(doc: OpenApiDocument, { route, method, operation }: Operation) {
  const problems: string[] = [];
  const text = (key: string) =>
    typeof operation[key] === 'string' && operation[key].trim().length > 0;
  if (!text('operationId')) problems.push('no operationId');
  if (!text('summary')) problems.push('no summary');
  if (!text('description')) problems.push('no description');
  const declaredTags = new Set(((doc.tags ?? []) as JsonObject[]).map((t) => t.name));
  const tags = (operation.tags ?? []) as string[];
  if (tags.length === 0) problems.push('no tags');
  for (const tag of tags) if (!declaredTags.has(tag)) problems.push(`tag "${tag}" not declared`);

  // Request examples: the body and every parameter.
  const body = operation.requestBody as JsonObject | undefined;
  if (body) {
    const media = contentOf(body);
    if (media.length === 0 || !media.every(hasExample)) problems.push('request body: no example');
  }
  for (const parameter of (operation.parameters ?? []) as JsonObject[]) {
    const schema = parameter.schema as JsonObject | undefined;
    if (
      parameter.example === undefined &&
      parameter.examples === undefined &&
      !Array.isArray(schema?.examples)
    )
      problems.push(`parameter ${JSON.stringify(parameter.name)}: no example`);
    if (typeof parameter.description !== 'string' && parameter.in !== 'path')
      problems.push(`parameter ${JSON.stringify(parameter.name)}: no description`);
  }

  // Responses: a documented success with an example; every error described, with an example.
  const responses = (operation.responses ?? {}) as Record<string, JsonObject>;
  const statuses = Object.keys(responses);
  const successes = statuses.filter((s) => s.startsWith('2'));
  if (!successes.some((s) => contentOf(responses[s]).some(hasExample)))
    problems.push('no 2xx response with an example');
  for (const status of statuses) {
    const description = responses[status]?.description;
    if (
      typeof description !== 'string' ||
      !description.trim() ||
      description === 'Default Response'
    )
      problems.push(`response ${status}: no description`);
    if (!contentOf(responses[status]).every(hasExample))
      problems.push(`response ${status}: no example`);
  }

  // Security: declared for every operation that needs credentials, with a 401 answer.
  const security = (operation.security ?? doc.security ?? []) as JsonObject[];
  const schemes = ((doc.components as JsonObject | undefined)?.securitySchemes ?? {}) as JsonObject;
  const isPublic = PUBLIC_OPERATIONS.includes(`${method} ${route}`);
  if (isPublic && security.length > 0) problems.push('public operation declares security');
  if (!isPublic) {
    if (security.length === 0) problems.push('no security declared');
    if (!statuses.includes('401')) problems.push('no 401 response');
  }
  for (const requirement of security)
    for (const name of Object.keys(requirement))
      if (!(name in schemes)) problems.push(`security scheme ${name} not defined`);
  return problems;
}

/** Rules of Redocly's `recommended-strict` set that are switched off, and why. */
const LINT_EXCEPTIONS: Record<DocumentName, Record<string, 'off'>> = {
  // A service's own document is served by the service itself: no servers means "this origin".
  shop: { 'info-license': 'off', 'no-empty-servers': 'off' },
  'handler-directory': { 'info-license': 'off', 'no-empty-servers': 'off' },
  // The public host is a placeholder until there is a real one; the other server is local.
  gateway: { 'info-license': 'off', 'no-server-example.com': 'off' },
};
// Health and readiness probes have no 4xx answers.
const PROBES_WITHOUT_4XX = [
  '#/paths/~1gateway~1health/get/responses',
  '#/paths/~1health/get/responses',
  '#/paths/~1ready/get/responses',
];

describe.each(DOCUMENT_NAMES)('openapi/%s.json', (name) => {
  it('is what the code generates (run `pnpm openapi` after changing a route schema)', async () => {
    const committed = await readCommittedDocument(name);
    expect(committed).toBeDefined();
    // Compare parsed first for a readable diff, then the exact text (key order, newline).
    expect(JSON.parse(committed ?? '{}')).toEqual(JSON.parse(serializeDocument(generated[name])));
    expect(committed).toBe(serializeDocument(generated[name]));
  });

  it('comes with the client types openapi-typescript makes of it (clients/generated/)', async () => {
    // infra/clients/calls.ts calls both services through them; `pnpm check` type-checks it.
    const committed = (await readCommittedDocument(name)) ?? '';
    expect(await readCommittedClientTypes(name)).toBe(await clientTypes(name, committed));
  });

  it('is valid OpenAPI 3.1 by the official schema', async () => {
    const validator = new Validator();
    const spec = structuredClone(generated[name]) as Parameters<Validator['validate']>[0];
    const result = await validator.validate(spec);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(generated[name].openapi).toBe('3.1.0');
  });

  it("passes Redocly's recommended-strict lint, examples checked against their schemas", async () => {
    const config = await createConfig({
      extends: ['recommended-strict'],
      rules: LINT_EXCEPTIONS[name],
    });
    const problems = await lintFromString({
      source: serializeDocument(generated[name]),
      absoluteRef: documentPath(name),
      config,
    });
    const remaining = problems
      .filter(
        (p) =>
          !(
            p.ruleId === 'operation-4xx-response' &&
            PROBES_WITHOUT_4XX.includes(p.location[0]?.pointer ?? '')
          ),
      )
      .map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`);
    expect(remaining).toEqual([]);
  });

  it('documents every operation completely', () => {
    const doc = generated[name];
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThan(2);
    const incomplete = Object.fromEntries(
      operations
        .map((op): [string, string[]] => [
          `${op.method.toUpperCase()} ${op.route}`,
          completenessProblems(doc, op),
        ])
        .filter(([, problems]) => problems.length > 0),
    );
    expect(incomplete).toEqual({});
  });

  it("names no component as client generators name an operation's own types", () => {
    // @hey-api/openapi-ts names them <OperationId>Data, …Response(s), …Error(s): a component of
    // such a name is renamed (`CreateOrderResponse2`) in the generated client.
    const components = Object.keys(
      ((generated[name].components as JsonObject | undefined)?.schemas ?? {}) as JsonObject,
    );
    const derived = operationsOf(generated[name]).flatMap(({ operation }) => {
      const id = operation.operationId as string;
      const base = id.charAt(0).toUpperCase() + id.slice(1);
      return ['Data', 'Error', 'Errors', 'Response', 'Responses'].map((suffix) => base + suffix);
    });
    expect(components.filter((component) => derived.includes(component))).toEqual([]);
  });

  it('has unique operation ids and no hidden or documentation routes', () => {
    const operations = operationsOf(generated[name]);
    const ids = operations.map((op) => op.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const routes = Object.keys(generated[name].paths);
    expect(routes.filter((r) => r.startsWith('/docs') || r === '/openapi.json')).toEqual([]);
  });
});

describe('per-service documents', () => {
  it('hold each service exactly: the shop outside /api/, the handler directory under /api/', () => {
    const shopRoutes = Object.keys(generated.shop.paths);
    const directoryRoutes = Object.keys(generated['handler-directory'].paths);
    const operational = ['/health', '/ready'];
    expect(shopRoutes).toEqual(expect.arrayContaining([...operational, '/products', '/orders']));
    expect(shopRoutes.filter((r) => r.startsWith('/api/'))).toEqual([]);
    expect(
      directoryRoutes.filter((r) => !operational.includes(r) && !r.startsWith('/api/')),
    ).toEqual([]);
    expect(directoryRoutes).toEqual(expect.arrayContaining(['/api/public/users', '/api/users']));
  });

  it('are what the services serve at /openapi.json', async () => {
    const app = await buildThrowawayShopApp();
    try {
      const res = await app.inject({ method: 'GET', url: '/openapi.json' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(generated.shop);
    } finally {
      await app.close();
    }
  });
});

describe('openapi/gateway.json', () => {
  it('merges both services: every path once, /health and /ready from the shop', () => {
    const gateway = generated.gateway;
    const expected = new Set([
      '/gateway/health',
      ...Object.keys(generated.shop.paths),
      ...Object.keys(generated['handler-directory'].paths),
    ]);
    expect(new Set(Object.keys(gateway.paths))).toEqual(expected);
    for (const source of ['shop', 'handler-directory'] as const) {
      const own = operationsOf(generated[source]).filter(
        (op) => !(source === 'handler-directory' && ['/health', '/ready'].includes(op.route)),
      );
      for (const { route, method, operation } of own) {
        const merged = gateway.paths[route]?.[method] as JsonObject | undefined;
        expect(merged?.operationId).toBe(operation.operationId);
        expect(merged?.responses).toEqual(operation.responses);
        expect(merged?.requestBody).toEqual(operation.requestBody);
      }
    }
    const health = gateway.paths['/health']?.get as JsonObject;
    expect(health.operationId).toBe('getHealth');
    expect(health.description).toMatch(/reaches the shop/);
  });

  it('has one public server and the local gateway', () => {
    expect(generated.gateway.servers).toEqual([
      expect.objectContaining({ url: PUBLIC_GATEWAY_URL }),
      expect.objectContaining({ url: LOCAL_GATEWAY_URL }),
    ]);
  });

  it("keeps both services' security schemes apart and spells out each operation's", () => {
    const components = generated.gateway.components as JsonObject;
    const schemes = components.securitySchemes as Record<string, JsonObject>;
    expect(Object.keys(schemes).sort()).toEqual(
      ['ApiKeyAuth', 'HandlerDirectoryBearerAuth', 'ShopBearerAuth', 'StaffAuth'].sort(),
    );
    for (const scheme of Object.values(schemes))
      expect(scheme.description).toEqual(expect.any(String));
    const securityOf = (route: string, method: string) =>
      (generated.gateway.paths[route]?.[method] as JsonObject).security;
    expect(securityOf('/products', 'get')).toEqual([{ ApiKeyAuth: [] }]);
    expect(securityOf('/customers/{id}/profile', 'get')).toEqual([{ ShopBearerAuth: [] }]);
    expect(securityOf('/api/users', 'get')).toEqual([{ HandlerDirectoryBearerAuth: [] }]);
    expect(securityOf('/admin/orders', 'get')).toEqual([
      { ApiKeyAuth: ['orders:read'] },
      { StaffAuth: ['admin', 'staff', 'viewer'] },
    ]);
    expect(securityOf('/api/public/users', 'get')).toEqual([]);
    for (const { operation } of operationsOf(generated.gateway))
      expect(Array.isArray(operation.security)).toBe(true);
  });

  it("carries the shop's webhooks (the directory sends none), tagged like its operations", () => {
    const shopWebhooks = generated.shop.webhooks as Record<string, JsonObject>;
    const webhooks = generated.gateway.webhooks as Record<string, JsonObject>;
    expect(generated['handler-directory'].webhooks).toBeUndefined();
    expect(Object.keys(webhooks)).toEqual(Object.keys(shopWebhooks));
    expect(Object.keys(webhooks)).toContain('order.created');
    for (const [name, item] of Object.entries(shopWebhooks)) {
      const own = item.post as JsonObject;
      const merged = webhooks[name]?.post as JsonObject;
      expect(merged.requestBody).toEqual(own.requestBody);
      expect(merged.security).toEqual([]);
      expect(merged.tags).toEqual(['Shop: Webhooks']);
    }
  });

  it('prefixes the tags with their service and groups them', () => {
    const tags = (generated.gateway.tags as JsonObject[]).map((t) => t.name);
    expect(tags).toEqual(expect.arrayContaining(['Shop: Products', 'Handler directory: Public']));
    expect(tags.filter((t) => t === 'Operations')).toHaveLength(1);
    const grouped = (generated.gateway['x-tagGroups'] as JsonObject[]).flatMap(
      (g) => g.tags as string[],
    );
    expect(grouped.sort()).toEqual([...tags].sort());
  });
});

describe('gateway docs page (infra/gateway/docs/)', () => {
  const DOCS_DIR = path.join(REPO_ROOT, 'infra/gateway/docs');
  const referenced = (html: string) =>
    [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');

  it('loads only local assets: Swagger UI from the shop, its own script, no inline script', async () => {
    const html = await readFile(path.join(DOCS_DIR, 'index.html'), 'utf8');
    const urls = referenced(html);
    expect(urls).toEqual(
      expect.arrayContaining([
        '/docs/static/swagger-ui-bundle.js',
        '/docs/static/swagger-ui.css',
        '/gateway/docs/docs.js',
      ]),
    );
    for (const url of urls) expect(url).toMatch(/^\/(docs\/static|gateway)\//);
    expect(html).not.toMatch(/<script>(?!\s*<\/script>)/);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('renders the combined document from /gateway/openapi.json, offline', async () => {
    const script = await readFile(path.join(DOCS_DIR, 'docs.js'), 'utf8');
    expect(script).toContain("'/gateway/openapi.json'");
    expect(script).toMatch(/validatorUrl:\s*null/);
    expect(script).not.toMatch(/https?:\/\//);
  });

  it("finds every Swagger UI asset it names at the shop's /docs/static/", async () => {
    const html = await readFile(path.join(DOCS_DIR, 'index.html'), 'utf8');
    const assets = referenced(html).filter((url) => url.startsWith('/docs/static/'));
    const app = await buildThrowawayShopApp();
    try {
      for (const url of assets) {
        const res = await app.inject({ method: 'GET', url });
        expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
      }
    } finally {
      await app.close();
    }
  });
});
