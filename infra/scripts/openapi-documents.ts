// The OpenAPI documents for integrators, generated from the services' own route schemas:
// - openapi/shop.json and openapi/handler-directory.json: what each service serves at
//   /openapi.json (built with the real `buildApp` on a throw-away configuration);
// - openapi/gateway.json: both services as one API behind the gateway (paths under /api/ go to the
//   handler directory, everything else to the shop).
// `pnpm openapi` writes them (scripts/openapi.ts), and the client types openapi-typescript makes
// of each (infra/clients/generated/); test/openapi.test.ts checks that the committed files are
// what this module generates, that they are valid OpenAPI 3.1, and that every operation is
// documented completely.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMongoWireServer } from '@dogshop/mongo-wire-server';
import openapiTS, { astToString } from 'openapi-typescript';
import {
  buildApp as buildDirectoryApp,
  readConfig as readDirectoryConfig,
} from '@dogshop/handler-directory/app';
import { buildApp as buildShopApp, readConfig as readShopConfig } from '@dogshop/shop/app';

/** An OpenAPI object, loosely typed: the generator only moves and renames parts of it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A string field of a document, or '' when it is absent or not a string. */
const text = (value: Json | undefined): string => (typeof value === 'string' ? value : '');
export interface OpenApiDocument extends JsonObject {
  openapi: string;
  info: JsonObject;
  paths: Record<string, Record<string, Json>>;
}

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const OPENAPI_DIR = path.join(REPO_ROOT, 'openapi');
export const DOCUMENT_NAMES = ['shop', 'handler-directory', 'gateway'] as const;
export type DocumentName = (typeof DOCUMENT_NAMES)[number];
export const documentPath = (name: DocumentName) => path.join(OPENAPI_DIR, `${name}.json`);

/** The public address of the gateway (a placeholder: put the real host here when there is one). */
export const PUBLIC_GATEWAY_URL = 'https://api.example.com';
/** The gateway of `docker compose up` (infra/compose.yaml). */
export const LOCAL_GATEWAY_URL = 'http://localhost:8080';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

// A configuration that is never used to serve: secrets and addresses only have to be valid.
const THROWAWAY = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  JWT_SECRET: 'openapi-generation-only-not-a-secret-0123456789',
  // No load shedding: a busy test process must not turn the docs' own assets into 503s.
  PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
  PRESSURE_MAX_POOL_WAITING: '0',
};

/** Both services' `buildApp` return a Fastify instance. */
export type App = Awaited<ReturnType<typeof buildShopApp>>;

async function swaggerOf(app: App): Promise<OpenApiDocument> {
  try {
    await app.ready();
    // A deep copy: the document is reshaped below, never the app's own object.
    // `swagger()` is declared by @fastify/swagger's type augmentation, which this package lacks.
    const swagger = (app as unknown as { swagger: () => unknown }).swagger();
    return JSON.parse(JSON.stringify(swagger)) as OpenApiDocument;
  } finally {
    await app.close();
  }
}

/**
 * The real shop app on a throw-away configuration: its database client connects on the first
 * query, and nothing here queries. Serves /openapi.json and the Swagger UI assets under /docs.
 */
export const buildThrowawayShopApp = (): Promise<App> =>
  buildShopApp(
    readShopConfig({
      ...THROWAWAY,
      DATABASE_URL: 'postgresql://openapi@127.0.0.1:9/never-connected',
      DATABASE_POOL_MAX: '1',
    }),
  );

/** The shop's document. */
export async function shopDocument(): Promise<OpenApiDocument> {
  return normalizeDocument(await swaggerOf(await buildThrowawayShopApp()));
}

/**
 * The handler directory's document. Its app connects to MongoDB while it is built, so an in-memory
 * MongoDB wire-protocol stand-in is started for the few milliseconds that takes.
 */
export async function handlerDirectoryDocument(): Promise<OpenApiDocument> {
  const mongo = await startMongoWireServer({ log: () => {} });
  try {
    const app = await buildDirectoryApp(
      readDirectoryConfig({ ...THROWAWAY, MONGODB_URI: mongo.uri, MONGODB_DB_NAME: 'openapi' }),
    );
    return normalizeDocument(await swaggerOf(app));
  } finally {
    await mongo.close();
  }
}

/** All three documents, normalized. */
export async function generateDocuments(): Promise<Record<DocumentName, OpenApiDocument>> {
  const shop = await shopDocument();
  const directory = await handlerDirectoryDocument();
  return { shop, 'handler-directory': directory, gateway: gatewayDocument(shop, directory) };
}

/** The file text of a document: normalized JSON, two-space indent, trailing newline. */
export const serializeDocument = (doc: OpenApiDocument): string =>
  `${JSON.stringify(normalizeDocument(doc), null, 2)}\n`;

export async function readCommittedDocument(name: DocumentName): Promise<string | undefined> {
  return readIfThere(documentPath(name));
}

/** Where the client types generated from each document live (infra/clients/calls.ts uses them). */
export const CLIENT_TYPES_DIR = path.join(REPO_ROOT, 'infra/clients/generated');
export const clientTypesPath = (name: DocumentName) => path.join(CLIENT_TYPES_DIR, `${name}.ts`);

/**
 * The TypeScript types openapi-typescript generates from a document's file text (`paths`,
 * `components`, `operations`), for openapi-fetch's `createClient<paths>()`.
 */
export async function clientTypes(name: DocumentName, documentText: string): Promise<string> {
  const ast = await openapiTS(documentText);
  return (
    `// Generated by \`pnpm openapi\` with openapi-typescript from openapi/${name}.json: do not edit.\n` +
    astToString(ast)
  );
}

export async function readCommittedClientTypes(name: DocumentName): Promise<string | undefined> {
  return readIfThere(clientTypesPath(name));
}

async function readIfThere(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// The combined document

interface Source {
  doc: OpenApiDocument;
  /** Prefix for tags and for clashing component names. */
  tagPrefix: string;
  componentPrefix: string;
}

const SECURITY_DESCRIPTIONS: Record<string, Record<string, string>> = {
  shop: {
    ApiKeyAuth:
      'Shop API key in `X-API-Key`: every shop operation except the customer (bearer) operations.',
    BearerAuth:
      "A shop customer's JWT from `POST /customers/register` or `POST /customers/login` (`data.token`).",
  },
  'handler-directory': {
    BearerAuth:
      "A handler-directory administrator's JWT from `POST /api/auth/login` (`token`); role `admin` or `viewer`.",
  },
};

/**
 * Both services as one API behind the gateway: paths merged (they do not overlap: the handler
 * directory's start with /api/), `/health` and `/ready` once (through the gateway they reach the
 * shop) plus the gateway's own `/gateway/health`, tags prefixed with the service and grouped, components merged (a name both define
 * differently is prefixed with its service), and every operation with its security spelled out.
 */
export function gatewayDocument(
  shopDoc: OpenApiDocument,
  directoryDoc: OpenApiDocument,
): OpenApiDocument {
  const shop: Source = { doc: clone(shopDoc), tagPrefix: 'Shop: ', componentPrefix: 'Shop' };
  const directory: Source = {
    doc: clone(directoryDoc),
    tagPrefix: 'Handler directory: ',
    componentPrefix: 'HandlerDirectory',
  };
  describeSecuritySchemes(shop.doc, SECURITY_DESCRIPTIONS.shop ?? {});
  describeSecuritySchemes(directory.doc, SECURITY_DESCRIPTIONS['handler-directory'] ?? {});

  const components = mergeComponents(shop, directory);
  const sharedTag = 'Operations';
  const paths: OpenApiDocument['paths'] = {};
  const operationIds = new Set<string>();

  for (const source of [shop, directory]) {
    const globalSecurity = (source.doc.security as Json[] | undefined) ?? [];
    for (const [route, item] of Object.entries(source.doc.paths)) {
      const operational = route === '/health' || route === '/ready';
      if (operational && source === directory) continue; // the gateway sends these to the shop
      if (paths[route]) throw new Error(`both services define ${route}`);
      if (source === directory && !route.startsWith('/api/'))
        throw new Error(
          `handler-directory path ${route} is outside /api/: the gateway routes it to the shop`,
        );
      if (source === shop && route.startsWith('/api/'))
        throw new Error(
          `shop path ${route} is under /api/: the gateway routes it to the handler directory`,
        );
      const copy: Record<string, Json> = {};
      for (const [method, value] of Object.entries(item)) {
        if (!HTTP_METHODS.includes(method)) {
          copy[method] = value;
          continue;
        }
        const operation = value as JsonObject;
        operation.security = operation.security ?? globalSecurity;
        const tags = (operation.tags as string[] | undefined) ?? [];
        operation.tags = tags.map((tag) => (tag === sharedTag ? tag : source.tagPrefix + tag));
        if (operational) {
          operation.description =
            `${text(operation.description)} Through the gateway this reaches the shop; the handler directory answers the same paths on its own port.`.trim();
        }
        const id = operation.operationId;
        if (typeof id === 'string') {
          if (operationIds.has(id)) throw new Error(`operationId ${id} is used by both services`);
          operationIds.add(id);
        }
        copy[method] = operation;
      }
      paths[route] = copy;
    }
  }

  // The gateway's own liveness probe (nginx answers it, whatever the services' state).
  paths['/gateway/health'] = {
    get: {
      operationId: 'getGatewayHealth',
      summary: 'Gateway is alive',
      description:
        'Answered by the gateway itself, without asking either service (liveness of the gateway); no auth.',
      tags: [sharedTag],
      security: [],
      responses: {
        '200': {
          description: 'The gateway is alive',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['status'],
                properties: { status: { type: 'string', const: 'ok' } },
              },
              example: { status: 'ok' },
            },
          },
        },
      },
    },
  };

  const tagsOf = (source: Source) =>
    ((source.doc.tags as JsonObject[] | undefined) ?? [])
      .filter((tag) => tag.name !== sharedTag)
      .map((tag) => ({ ...tag, name: source.tagPrefix + text(tag.name) }));
  const operationsTag = ((shop.doc.tags as JsonObject[] | undefined) ?? []).find(
    (tag) => tag.name === sharedTag,
  ) ?? { name: sharedTag, description: 'Health and readiness' };
  const shopTags = tagsOf(shop);
  const directoryTags = tagsOf(directory);

  const shopInfo = shop.doc.info;
  const directoryInfo = directory.doc.info;
  return normalizeDocument({
    openapi: shop.doc.openapi,
    info: {
      title: 'Dogshop platform API',
      version: text(shopInfo.version),
      description: [
        'The shop and the hunting-dog handler directory behind one gateway. Paths under `/api/` go to',
        'the handler directory, every other path to the shop.',
        '',
        `**${text(shopInfo.title)}**: ${text(shopInfo.description)} Authentication: an API key`,
        "in `X-API-Key` (ApiKeyAuth), except the customer operations, which take the customer's",
        'bearer token (ShopBearerAuth).',
        '',
        `**${text(directoryInfo.title)}**: ${text(directoryInfo.description)} Authentication:`,
        "the public list and the login need none; everything else takes an administrator's bearer",
        'token (HandlerDirectoryBearerAuth).',
        '',
        'Both services answer `X-Request-Id` (an incoming one is honoured) and signal rate limits',
        'with 429 and `Retry-After`.',
      ].join('\n'),
    },
    servers: [
      { url: PUBLIC_GATEWAY_URL, description: 'Production, through the gateway' },
      { url: LOCAL_GATEWAY_URL, description: 'Local gateway (docker compose in infra/)' },
    ],
    tags: [...shopTags, ...directoryTags, operationsTag],
    'x-tagGroups': [
      { name: 'Shop', tags: shopTags.map((tag) => tag.name) },
      { name: 'Handler directory', tags: directoryTags.map((tag) => tag.name) },
      { name: 'Operations', tags: [sharedTag] },
    ],
    paths,
    // The requests the services send (the shop's events); the handler directory sends none.
    ...mergedWebhooks(shop, directory),
    components,
  });
}

/** Both services' `webhooks` (OpenAPI 3.1), or nothing when neither sends any. */
function mergedWebhooks(...sources: Source[]): { webhooks?: JsonObject } {
  const webhooks: JsonObject = {};
  for (const source of sources) {
    for (const [name, item] of Object.entries((source.doc.webhooks ?? {}) as JsonObject)) {
      if (name in webhooks) throw new Error(`both services send webhook ${name}`);
      const copy: JsonObject = {};
      for (const [method, value] of Object.entries(item as JsonObject)) {
        const operation = value as JsonObject;
        if (HTTP_METHODS.includes(method)) {
          const tags = (operation.tags as string[] | undefined) ?? [];
          operation.tags = tags.map((tag) => source.tagPrefix + tag);
        }
        copy[method] = operation;
      }
      webhooks[name] = copy;
    }
  }
  return Object.keys(webhooks).length > 0 ? { webhooks } : {};
}

function describeSecuritySchemes(doc: OpenApiDocument, descriptions: Record<string, string>) {
  const schemes = ((doc.components as JsonObject | undefined)?.securitySchemes ?? {}) as Record<
    string,
    JsonObject
  >;
  for (const [name, scheme] of Object.entries(schemes)) {
    const description = descriptions[name];
    if (description && scheme.description === undefined) scheme.description = description;
  }
}

/**
 * Merges the components of both sources. A name defined by both with different content is renamed
 * to `<componentPrefix><Name>` in each source, and every reference to it (a `$ref`, or a security
 * requirement for security schemes) is rewritten in that source's paths.
 */
function mergeComponents(...sources: Source[]): JsonObject {
  const sectionsOf = (source: Source) =>
    ((source.doc.components as JsonObject | undefined) ?? {}) as Record<string, JsonObject>;
  const sectionNames = new Set(sources.flatMap((source) => Object.keys(sectionsOf(source))));
  const merged: Record<string, JsonObject> = {};
  for (const section of sectionNames) {
    const entries = sources.map((source) => sectionsOf(source)[section] ?? {});
    const target: JsonObject = {};
    sources.forEach((source, index) => {
      for (const [name, value] of Object.entries(entries[index] ?? {})) {
        const clash = entries.some(
          (other, j) => j !== index && name in other && !sameJson(other[name], value),
        );
        const finalName = clash ? source.componentPrefix + name : name;
        if (clash) renameComponent(source, section, name, finalName);
        target[finalName] = value;
      }
    });
    merged[section] = target;
  }
  return merged;
}

function renameComponent(source: Source, section: string, from: string, to: string) {
  if (section === 'securitySchemes') {
    const rename = (requirements: Json | undefined) => {
      for (const requirement of (requirements as JsonObject[] | undefined) ?? []) {
        if (from in requirement) {
          requirement[to] = requirement[from] ?? [];
          delete requirement[from];
        }
      }
    };
    rename(source.doc.security);
    for (const item of Object.values(source.doc.paths))
      for (const [method, operation] of Object.entries(item))
        if (HTTP_METHODS.includes(method)) rename((operation as JsonObject).security);
    return;
  }
  const fromRef = `#/components/${section}/${from}`;
  const toRef = `#/components/${section}/${to}`;
  const walk = (node: Json) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value === fromRef) node[key] = toRef;
        else walk(value);
      }
    }
  };
  walk(source.doc.paths);
  walk(source.doc.webhooks ?? {});
  walk(source.doc.components as Json);
}

// ---------------------------------------------------------------------------------------------
// Stable key order

const TOP_LEVEL = ['openapi', 'info', 'servers', 'security', 'tags', 'x-tagGroups', 'paths'];
const OPERATION = [
  'operationId',
  'summary',
  'description',
  'tags',
  'security',
  'parameters',
  'requestBody',
  'responses',
];

/**
 * A copy with a stable key order: the top level and operations in the usual reading order, paths,
 * responses and components sorted by name, methods in HTTP_METHODS order. Schemas keep the order
 * of their contracts (properties in the order they are declared).
 */
export function normalizeDocument(doc: OpenApiDocument): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const route of Object.keys(doc.paths).sort(byCodePoint)) {
    const item = doc.paths[route] ?? {};
    const ordered: Record<string, Json> = {};
    const keys = Object.keys(item);
    for (const key of keys.filter((k) => !HTTP_METHODS.includes(k)).sort(byCodePoint))
      ordered[key] = item[key] as Json;
    for (const method of HTTP_METHODS)
      if (method in item) ordered[method] = normalizeOperation(item[method] as JsonObject);
    paths[route] = ordered;
  }
  const components = doc.components as Record<string, JsonObject> | undefined;
  const normalized = orderKeys({ ...doc, paths }, TOP_LEVEL);
  if (components) {
    const sorted: JsonObject = {};
    for (const section of Object.keys(components).sort(byCodePoint))
      sorted[section] = sortKeys(components[section] ?? {});
    normalized.components = sorted;
  }
  return normalized as OpenApiDocument;
}

function normalizeOperation(operation: JsonObject): JsonObject {
  const responses = operation.responses as JsonObject | undefined;
  const ordered = orderKeys(operation, OPERATION);
  if (responses) ordered.responses = sortKeys(responses);
  return ordered;
}

function orderKeys(object: JsonObject, first: string[]): JsonObject {
  const result: JsonObject = {};
  for (const key of first) if (key in object) result[key] = object[key] as Json;
  for (const key of Object.keys(object).sort(byCodePoint))
    if (!first.includes(key)) result[key] = object[key] as Json;
  return result;
}

function sortKeys(object: JsonObject): JsonObject {
  return orderKeys(object, []);
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const sameJson = (a: Json | undefined, b: Json | undefined) =>
  JSON.stringify(a) === JSON.stringify(b);
