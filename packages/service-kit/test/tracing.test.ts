// startTracing on a small app: the request span named by route pattern with its status, child
// spans in the same trace (the handler's, and one the route starts itself, as a database
// instrumentation would), the trace id on the request's log lines, and nothing of it when the
// app is built without tracing.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SpanKind, trace } from '@opentelemetry/api';
import Fastify, { type FastifyInstance } from 'fastify';
import { healthRoutes } from '../src/health.js';
import { requestLog } from '../src/request-log.js';
import { serverOptions } from '../src/server-options.js';
import { startTracing, type ReadableSpan, type Tracing } from '../src/tracing.js';

interface LogLine {
  msg: string;
  url?: string;
  trace_id?: string;
  span_id?: string;
}

/** The app both services are built like: serverOptions, tracing first, the request log line. */
async function buildTinyApp(tracing: Tracing | undefined) {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as LogLine);
      }
      done();
    },
  });
  const options = serverOptions({ logLevel: 'info', traceIds: tracing !== undefined });
  const app = Fastify({ ...options, logger: { ...(options.logger as object), stream } });
  if (tracing) await app.register(tracing.plugin);
  await app.register(requestLog);
  await app.register(healthRoutes, { isReady: async () => true });
  app.get('/dogs/:id', async (request) => {
    request.log.info('looking the dog up');
    // What pg's or mongodb's instrumentation does for a query: a span under the active one.
    return trace.getTracer('test').startActiveSpan('lookup', async (span) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      span.end();
      return { id: (request.params as { id: string }).id };
    });
  });
  app.post('/dogs', {
    preHandler: async (request) => {
      request.log.info('checking the body');
      trace.getTracer('test').startSpan('check').end();
    },
    // Sent from inside the handler (its span active), as routes answering 201 do.
    handler: async (request, reply) => reply.code(201).send(request.body),
  });
  await app.ready();
  return { app, lines };
}

const spanNamed = (spans: ReadableSpan[], name: string) => {
  const span = spans.find((s) => s.name === name);
  if (!span) throw new Error(`no span ${name} among ${spans.map((s) => s.name).join(', ')}`);
  return span;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('tracing on', () => {
  let tracing: Tracing;
  let app: FastifyInstance;
  let lines: LogLine[];

  beforeAll(async () => {
    tracing = await startTracing({ serviceName: 'tiny', exporter: 'memory' });
    ({ app, lines } = await buildTinyApp(tracing));
  });
  afterAll(async () => {
    await app.close();
    await tracing.shutdown();
  });

  it('a request is a SERVER span named by its route pattern, with the status, and its children in the same trace', async () => {
    tracing.resetSpans();
    const res = await app.inject({ method: 'GET', url: '/dogs/7?full=1' });
    expect(res.statusCode).toBe(200);

    const spans = tracing.finishedSpans();
    const request = spanNamed(spans, 'GET /dogs/:id');
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(parentOf(request)).toBeUndefined();
    expect(request.attributes).toMatchObject({
      'http.route': '/dogs/:id',
      'http.request.method': 'GET',
      'http.response.status_code': 200,
    });
    expect(request.resource.attributes['service.name']).toBe('tiny');

    const handler = spans.find((s) => s.name.startsWith('handler'))!;
    const lookup = spanNamed(spans, 'lookup');
    expect(parentOf(handler)).toBe(request.spanContext().spanId);
    expect(parentOf(lookup)).toBe(handler.spanContext().spanId);
    const traceId = request.spanContext().traceId;
    expect(spans.map((s) => s.spanContext().traceId)).toEqual(spans.map(() => traceId));
  });

  it("the request's log lines carry its trace id; the request line the request span's id", async () => {
    tracing.resetSpans();
    lines.length = 0;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    await (await fetch(`http://127.0.0.1:${port}/dogs/8`)).text();
    const request = spanNamed(tracing.finishedSpans(), 'GET /dogs/:id').spanContext();

    const inside = lines.find((l) => l.msg === 'looking the dog up');
    const requestLine = lines.find((l) => l.msg === 'GET /dogs/8 200');
    expect(inside?.trace_id).toBe(request.traceId);
    expect(requestLine).toMatchObject({ trace_id: request.traceId, span_id: request.spanId });
  });

  it('a body that arrives late, an answer sent from the handler: hooks nest below the request, its line has its ids', async () => {
    tracing.resetSpans();
    lines.length = 0;
    const { port } = app.server.address() as AddressInfo;
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = http.request(
        { port, method: 'POST', path: '/dogs', headers: { 'content-type': 'application/json' } },
        (res) => resolve(res.resume().statusCode),
      );
      req.on('error', reject);
      req.flushHeaders();
      setTimeout(() => req.end('{"name":"Bello"}'), 50);
    });
    expect(status).toBe(201);

    const spans = tracing.finishedSpans();
    const request = spanNamed(spans, 'POST /dogs').spanContext();
    expect(spanNamed(spans, 'check').spanContext().traceId).toBe(request.traceId);
    expect(lines.find((l) => l.msg === 'checking the body')?.trace_id).toBe(request.traceId);
    expect(lines.find((l) => l.msg === 'POST /dogs 201')).toMatchObject({
      trace_id: request.traceId,
      span_id: request.spanId,
    });
  });

  it('an unknown route is named by its method; probes are not traced', async () => {
    tracing.resetSpans();
    await app.inject({ method: 'GET', url: '/nowhere' });
    await app.inject({ method: 'GET', url: '/health' });
    await app.inject({ method: 'GET', url: '/ready?x=1' });
    const spans = tracing.finishedSpans();
    expect(spans.map((s) => s.name)).toEqual(['GET']);
    expect(spans[0]!.attributes['http.response.status_code']).toBe(404);
  });
});

describe('tracing off', () => {
  it('an app built without it makes no spans, even with a tracer provider in the process, and logs no trace ids', async () => {
    const tracing = await startTracing({ serviceName: 'tiny', exporter: 'memory' });
    const { app, lines } = await buildTinyApp(undefined);
    try {
      const res = await app.inject({ method: 'GET', url: '/dogs/9' });
      expect(res.statusCode).toBe(200);
      // Only the span the route starts itself (a root span of its own), none of the app's.
      expect(tracing.finishedSpans().map((s) => s.name)).toEqual(['lookup']);
      expect(lines.filter((l) => 'trace_id' in l || 'span_id' in l)).toEqual([]);
      expect(lines.map((l) => l.msg)).toContain('GET /dogs/9 200');
    } finally {
      await app.close();
      await tracing.shutdown();
    }
  });

  it('without startTracing there is no provider: spans started anyway are not recorded', () => {
    const span = trace.getTracer('test').startSpan('nothing');
    expect(span.isRecording()).toBe(false);
    span.end();
  });

  it('startTracing twice in one process is refused', async () => {
    const tracing = await startTracing({ serviceName: 'tiny', exporter: 'memory' });
    try {
      await expect(startTracing({ serviceName: 'again', exporter: 'memory' })).rejects.toThrow(
        /already started/,
      );
    } finally {
      await tracing.shutdown();
    }
  });
});
