// Tracing in the real directory app on its own database, in this process with the in-memory
// exporter: the request span named by the route pattern with its status, the handler's span below
// it, and nothing when the app is built without tracing. The MongoDB driver's spans need the
// driver patched as Node loads it, which Jest's module loader bypasses; infra/test/tracing.test.ts
// starts the built server and checks them (and the trace id on the log line) there.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SpanKind } from '@opentelemetry/api';
import { startTracing, type ReadableSpan, type Tracing } from '@dogshop/service-kit';
import { createTestApp, type TestApp } from './support/app.js';

const spanNamed = (spans: ReadableSpan[], name: string) => {
  const span = spans.find((s) => s.name === name);
  if (!span) throw new Error(`no span ${name} among ${spans.map((s) => s.name).join(', ')}`);
  return span;
};

describe('the directory with tracing', () => {
  let tracing: Tracing;
  let directory: TestApp;

  beforeAll(async () => {
    tracing = await startTracing({ serviceName: 'handler-directory', exporter: 'memory' });
    directory = await createTestApp({}, { tracing });
  });
  afterAll(async () => {
    await directory?.close();
    await tracing?.shutdown();
  });

  it('GET /api/public/users is a SERVER span named by its route, with the status, and the handler below it', async () => {
    tracing.resetSpans();
    const res = await directory.request({ method: 'GET', url: '/api/public/users' });
    expect(res.statusCode).toBe(200);

    const spans = tracing.finishedSpans();
    const request = spanNamed(spans, 'GET /api/public/users');
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(request.parentSpanContext).toBeUndefined();
    expect(request.attributes).toMatchObject({
      'http.route': '/api/public/users',
      'http.response.status_code': 200,
    });
    expect(request.resource.attributes['service.name']).toBe('handler-directory');
    const handler = spans.find((s) => s.name.startsWith('handler - '));
    expect(handler?.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(handler?.spanContext().traceId).toBe(request.spanContext().traceId);
  });

  it('a refused request is named by its route pattern too, with its status', async () => {
    tracing.resetSpans();
    const res = await directory.request({ method: 'GET', url: '/api/users/123' });
    expect(res.statusCode).toBe(401);
    const request = spanNamed(tracing.finishedSpans(), 'GET /api/users/:id');
    expect(request.attributes['http.response.status_code']).toBe(401);
  });

  it('readiness probes are not traced', async () => {
    tracing.resetSpans();
    expect((await directory.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    expect(tracing.finishedSpans()).toEqual([]);
  });
});

describe('the directory without tracing', () => {
  it('makes no spans, even with a tracer provider in the process', async () => {
    const tracing = await startTracing({ serviceName: 'handler-directory', exporter: 'memory' });
    const directory = await createTestApp();
    try {
      const res = await directory.request({ method: 'GET', url: '/api/public/users' });
      expect(res.statusCode).toBe(200);
      expect(tracing.finishedSpans()).toEqual([]);
    } finally {
      await directory.close();
      await tracing.shutdown();
    }
  });
});
