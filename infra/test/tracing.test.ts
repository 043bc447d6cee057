// Traces as deployed: each built service is started with its Dockerfile's command (`node
// dist/server.js`) and OTEL_EXPORTER_OTLP_ENDPOINT pointing at a small OTLP/HTTP receiver in
// this test. One request's trace must arrive with the route's SERVER span and the database
// driver's spans below it (pg under Prisma, mongodb under Mongoose: patched as the process loads
// them, which only a real process shows), and the request's log line must carry its trace id.
// Without the variable, nothing is sent and no log line has a trace id.
import http from 'node:http';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  cleanEnv,
  freePort,
  startProcess,
  waitForOk,
  type RunningProcess,
} from '@dogshop/child-processes';
import { startMongo, type TestDatabase } from './support/databases.js';
import { dockerfileCommands, withThisNode, type Service } from './support/deployment-files.js';
import { serviceDir } from './support/paths.js';

const SHOP_API_KEY = 'tracing-test-api-key-0123456789abcdef0123456789';

/** A span as the OTLP/HTTP JSON export carries it, flattened. */
interface Span {
  service: string;
  scope: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  attributes: Record<string, string | number | boolean>;
}

const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans: Array<{
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: Array<{
      scope: { name: string };
      spans: Array<{
        name: string;
        kind: number;
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        attributes: OtlpAttribute[];
      }>;
    }>;
  }>;
}

const valueOf = (v: OtlpValue) =>
  v.stringValue ??
  (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue!));
const attributesOf = (list: OtlpAttribute[]) =>
  Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

/** An OTLP/HTTP collector in miniature: keeps every span POSTed to /v1/traces. */
async function startReceiver() {
  const spans: Span[] = [];
  const contentTypes: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      contentTypes.push(String(req.headers['content-type']));
      const payload = JSON.parse(body) as OtlpExport;
      for (const { resource, scopeSpans } of payload.resourceSpans) {
        const service = String(attributesOf(resource.attributes)['service.name']);
        for (const { scope, spans: list } of scopeSpans) {
          for (const s of list) {
            spans.push({
              service,
              scope: scope.name,
              name: s.name,
              kind: s.kind,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || undefined,
              attributes: attributesOf(s.attributes),
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** The JSON log lines a process printed (stdout is a pipe: pino writes JSON). */
function logLines(proc: RunningProcess): Array<Record<string, unknown>> {
  return proc
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** `span`'s ancestors within its trace, nearest first. */
function ancestors(spans: Span[], span: Span): Span[] {
  const chain: Span[] = [];
  let parent = span.parentSpanId;
  while (parent !== undefined) {
    const next = spans.find((s) => s.spanId === parent && s.traceId === span.traceId);
    if (!next) break;
    chain.push(next);
    parent = next.parentSpanId;
  }
  return chain;
}

const CASES: Record<
  Service,
  { path: string; route: string; scope: string; dbSystem: string; headers?: Record<string, string> }
> = {
  shop: {
    path: '/products?limit=3',
    route: '/products',
    scope: '@opentelemetry/instrumentation-pg',
    dbSystem: 'postgresql',
    headers: { 'x-api-key': SHOP_API_KEY },
  },
  'handler-directory': {
    path: '/api/public/users',
    route: '/api/public/users',
    scope: '@opentelemetry/instrumentation-mongodb',
    dbSystem: 'mongodb',
  },
};

const workDir = mkdtempSync(path.join(os.tmpdir(), 'tracing-test-'));
// Run as root, the embedded PostgreSQL runs as `postgres`, who must enter the folder (mkdtemp: 0700).
chmodSync(workDir, 0o755);
const running: RunningProcess[] = [];
let receiver: Receiver;
let mongo: TestDatabase;

beforeAll(async () => {
  [receiver, mongo] = await Promise.all([startReceiver(), startMongo()]);
});
afterAll(async () => {
  await Promise.all(running.map((proc) => proc.stop('SIGKILL')));
  await Promise.all([receiver?.close(), mongo?.stop()]);
  rmSync(workDir, { recursive: true, force: true });
});

/** Starts the built service with its image's command; resolves once /ready answers. */
async function serve(service: Service, vars: Record<string, string>) {
  const port = await freePort();
  const database: Record<string, string> =
    service === 'shop'
      ? // The embedded PostgreSQL in a data folder of its own: migrated, demo catalogue loaded.
        { DATA_DIR: path.join(workDir, service), EMBEDDED_PG_PORT: String(await freePort()) }
      : { DATA_DIR: path.join(workDir, service), MONGODB_URI: mongo.url };
  const proc = startProcess({
    name: `${service} server`,
    ...withThisNode(dockerfileCommands(service).cmd),
    cwd: serviceDir(service),
    env: cleanEnv({
      PORT: String(port),
      PASSWORD_THREAD_NICENESS: '0',
      SHOP_API_KEY,
      ...database,
      ...vars,
    }),
  });
  running.push(proc);
  await waitForOk(`http://127.0.0.1:${port}/ready`, proc, 90_000);
  return { port, proc };
}

describe.each<Service>(['shop', 'handler-directory'])('%s traces', (service) => {
  const { path: requestPath, route, scope, dbSystem, headers } = CASES[service];

  it("with OTEL_EXPORTER_OTLP_ENDPOINT, a request's trace reaches the collector: the route span and its database spans", async () => {
    const before = receiver.spans.length;
    const { port, proc } = await serve(service, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint });
    const res = await fetch(`http://127.0.0.1:${port}${requestPath}`, { headers });
    expect(res.status).toBe(200);
    // Spans leave in batches every 5 s; a graceful stop sends what is still queued.
    expect(await proc.stop('SIGTERM')).toBe(0);

    const spans = receiver.spans.slice(before);
    expect(receiver.contentTypes.at(-1)).toBe('application/json');
    const request = spans.find((s) => s.name === `GET ${route}`);
    expect(request).toMatchObject({
      service,
      scope: '@fastify/otel',
      kind: SPAN_KIND_SERVER,
      parentSpanId: undefined,
      attributes: { 'http.route': route, 'http.response.status_code': 200 },
    });
    const database = spans.filter((s) => s.scope === scope && s.traceId === request!.traceId);
    expect(database.length).toBeGreaterThan(0);
    for (const span of database) {
      expect(span).toMatchObject({
        kind: SPAN_KIND_CLIENT,
        attributes: { 'db.system.name': dbSystem },
      });
      expect(ancestors(spans, span).at(-1)?.spanId).toBe(request!.spanId);
    }
    if (service === 'shop') {
      expect(database.map((s) => s.name)).toContainEqual(
        expect.stringMatching(/^pg\.query:SELECT/),
      );
    } else {
      expect(database.map((s) => s.attributes['db.collection.name'])).toContain('handlers');
    }
    // The readiness probe polled above is not traced.
    expect(spans.map((s) => s.name)).not.toContain('GET /ready');

    const line = logLines(proc).find((l) => l.msg === `GET ${requestPath} 200`);
    expect(line).toMatchObject({ trace_id: request!.traceId, span_id: request!.spanId });
  });

  it('without it, nothing is exported and no log line carries a trace id', async () => {
    const before = receiver.spans.length;
    // Were the SDK started anyway, its exporter would send here (a signal's own endpoint).
    const { port, proc } = await serve(service, {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.endpoint}/v1/traces`,
    });
    const res = await fetch(`http://127.0.0.1:${port}${requestPath}`, { headers });
    expect(res.status).toBe(200);
    expect(await proc.stop('SIGTERM')).toBe(0);

    expect(receiver.spans.length).toBe(before);
    const lines = logLines(proc);
    expect(lines.map((l) => l.msg)).toContain(`GET ${requestPath} 200`);
    expect(lines.filter((l) => 'trace_id' in l || 'span_id' in l)).toEqual([]);
  });
});
