// Tracing in the real shop app on its own database, in this process with the in-memory exporter:
// the request span named by the route pattern with its status, the handler's span below it, and
// nothing when the app is built without tracing. pg's query spans need pg patched as Node loads
// it, which Jest's module loader bypasses; infra/test/tracing.test.ts starts the built server
// and checks them (and the trace id on the log line) there.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SpanKind } from '@opentelemetry/api';
import { startTracing, type ReadableSpan, type Tracing } from '@dogshop/service-kit';
import { createTestApp, type TestApp } from './support/app.js';

const spanNamed = (spans: ReadableSpan[], name: string) => {
  const span = spans.find((s) => s.name === name);
  if (!span) throw new Error(`no span ${name} among ${spans.map((s) => s.name).join(', ')}`);
  return span;
};

describe('the shop with tracing', () => {
  let tracing: Tracing;
  let shop: TestApp;

  beforeAll(async () => {
    tracing = await startTracing({ serviceName: 'shop', exporter: 'memory' });
    shop = await createTestApp({}, { tracing });
  });
  afterAll(async () => {
    await shop?.close();
    await tracing?.shutdown();
  });

  it('GET /products is a SERVER span named by its route, with the status, and the handler below it', async () => {
    tracing.resetSpans();
    const res = await shop.request({ method: 'GET', url: '/products?limit=2' });
    expect(res.statusCode).toBe(200);

    const spans = tracing.finishedSpans();
    const request = spanNamed(spans, 'GET /products');
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(request.parentSpanContext).toBeUndefined();
    expect(request.attributes).toMatchObject({
      'http.route': '/products',
      'http.response.status_code': 200,
    });
    expect(request.resource.attributes['service.name']).toBe('shop');
    const handler = spanNamed(spans, 'handler - productRoutes');
    expect(handler.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(handler.spanContext().traceId).toBe(request.spanContext().traceId);
  });

  it('a route with a parameter is named by its pattern; a 404 is its status', async () => {
    tracing.resetSpans();
    const res = await shop.request({ method: 'GET', url: '/products/999999' });
    expect(res.statusCode).toBe(404);
    const request = spanNamed(tracing.finishedSpans(), 'GET /products/:id');
    expect(request.attributes).toMatchObject({
      'http.route': '/products/:id',
      'http.response.status_code': 404,
    });
  });

  it('readiness probes are not traced', async () => {
    tracing.resetSpans();
    expect((await shop.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    expect(tracing.finishedSpans()).toEqual([]);
  });
});

describe('the shop without tracing', () => {
  it('makes no spans, even with a tracer provider in the process', async () => {
    const tracing = await startTracing({ serviceName: 'shop', exporter: 'memory' });
    const shop = await createTestApp();
    try {
      expect((await shop.request({ method: 'GET', url: '/products' })).statusCode).toBe(200);
      expect(tracing.finishedSpans()).toEqual([]);
    } finally {
      await shop.close();
      await tracing.shutdown();
    }
  });
});
