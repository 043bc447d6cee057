// OpenTelemetry traces, on only when OTEL_EXPORTER_OTLP_ENDPOINT is set. Nothing of the SDK is
// loaded before startTracing runs (every import below but the API's is dynamic), so a service
// without the variable runs exactly as before: no tracer provider, no patched module, no hook.
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  context,
  diag,
  DiagLogLevel,
  isSpanContextValid,
  trace,
  type Context,
} from '@opentelemetry/api';
import type { InstrumentationBase } from '@opentelemetry/instrumentation';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export type { ReadableSpan };

export interface TracingOptions {
  /** `service.name` of every span (OTEL_SERVICE_NAME, else the service's own name). */
  serviceName: string;
  /**
   * The database driver's instrumentations, loaded when tracing starts. Creating one patches its
   * module as that module is loaded, so the caller imports the modules using the driver only
   * after startTracing has resolved (server.ts: the app and the database are dynamic imports).
   */
  instrumentations?: () => Promise<InstrumentationBase[]>;
  /**
   * 'otlp' (default): spans are batched and sent as OTLP/HTTP JSON to OTEL_EXPORTER_OTLP_ENDPOINT
   * (the exporter reads that and the other standard OTEL_EXPORTER_OTLP_* variables itself).
   * 'memory': each span is kept in this process as it ends, for tests (`finishedSpans`).
   */
  exporter?: 'otlp' | 'memory';
  /** Where the SDK's own errors go (an export that failed); default stderr. */
  log?: (line: string) => void;
}

export interface Tracing {
  /**
   * Registers @fastify/otel on the app, before any other plugin: one SERVER span per request,
   * named `METHOD /route/:pattern`, with `http.route` and `http.response.status_code`, and a
   * child span for the route handler; database spans nest below. Health, readiness and metrics
   * probes are not traced.
   */
  plugin: FastifyPluginAsync;
  /** The spans ended so far (exporter 'memory'; empty otherwise). */
  finishedSpans: () => ReadableSpan[];
  /** Forgets the spans `finishedSpans` returned so far. */
  resetSpans: () => void;
  /** Exports what is still queued, then stops: patches removed, global provider cleared. */
  shutdown: () => Promise<void>;
}

/** Probes polled every few seconds: a trace each would bury the requests worth looking at. */
const UNTRACED_PATHS = new Set(['/health', '/ready', '/metrics']);

let started = false;

/**
 * Starts the tracer provider (AsyncLocalStorage context, batch processor to the OTLP exporter or
 * an in-memory one) and the given instrumentations. One per process: the OpenTelemetry API's
 * tracer provider and context manager are global.
 */
export async function startTracing(opts: TracingOptions): Promise<Tracing> {
  if (started) throw new Error('tracing is already started in this process');
  started = true;
  const [sdk, { AsyncLocalStorageContextManager }, resources, semconv, fastifyOtel] =
    await Promise.all([
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/semantic-conventions'),
      import('@fastify/otel'),
    ]);
  const log = opts.log ?? ((line: string) => console.error(line));
  const report = (message: string, ...args: unknown[]) =>
    log(`tracing: ${[message, ...args.map(describe)].join(' ')}`);
  diag.setLogger(
    { error: report, warn: report, info: () => {}, debug: () => {}, verbose: () => {} },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );

  const memory = opts.exporter === 'memory' ? new sdk.InMemorySpanExporter() : undefined;
  // Batches of up to 512 spans every 5 s (and at shutdown), off the request path.
  const processor = memory
    ? new sdk.SimpleSpanProcessor({ exporter: memory })
    : new sdk.BatchSpanProcessor({
        exporter: new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter(),
      });
  const provider = new sdk.TracerProvider({
    resource: resources
      .defaultResource()
      .merge(resources.resourceFromAttributes({ [semconv.ATTR_SERVICE_NAME]: opts.serviceName })),
    spanProcessors: [processor],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(provider);

  const instrumentations = (await opts.instrumentations?.()) ?? [];
  for (const instrumentation of instrumentations) {
    instrumentation.setTracerProvider(provider);
    instrumentation.enable();
  }
  // The one way this goes wrong silently: a driver loaded before its instrumentation (a static
  // import of it in server.ts) is never patched, and its spans are simply missing.
  const loaded = Object.keys(createRequire(import.meta.url).cache);
  for (const { name } of instrumentations.flatMap((i) => i.getModuleDefinitions())) {
    if (
      loaded.some((file) => file.includes(`${path.sep}node_modules${path.sep}${name}${path.sep}`))
    ) {
      report(`${name} was loaded before tracing started: its spans will be missing`);
    }
  }

  const otel = new fastifyOtel.FastifyOtelInstrumentation({
    // One span for the request and one for its handler; a span per hook (a dozen per request
    // here: security headers, rate limit, auth …) would cost more than it tells.
    instrumentHooks: false,
    ignorePaths: ({ url }) => UNTRACED_PATHS.has(url.split('?', 1)[0] ?? url),
    // @fastify/otel names every request span `request`; traces are read by route.
    requestHook: (span, request) =>
      span.updateName(
        request.routeOptions.url === undefined
          ? request.method
          : `${request.method} ${request.routeOptions.url}`,
      ),
  });
  otel.setTracerProvider(provider);

  const plugin = fp(
    async (app: FastifyInstance) => {
      await app.register(otel.plugin());
      // @fastify/otel enters the request's context in onRequest, and it carries on through the
      // hooks and the handler (Fastify binds a late body's parsing to the request); onResponse,
      // though, runs in the context that ended the response: the handler's span when the
      // handler sends the reply itself (`reply.code(201).send(…)`). Entered again there, the
      // request's log line carries the request span's ids.
      app.addHook('onResponse', (request, _reply, done) => withRequestContext(request, done));
    },
    { name: 'tracing' },
  );

  return {
    plugin,
    finishedSpans: () => memory?.getFinishedSpans() ?? [],
    resetSpans: () => memory?.reset(),
    shutdown: async () => {
      try {
        await provider.shutdown();
      } finally {
        for (const instrumentation of [...instrumentations, otel]) instrumentation.disable();
        trace.disable();
        context.disable();
        diag.disable();
        started = false;
      }
    },
  };
}

function withRequestContext(request: FastifyRequest, done: () => void): void {
  const requestContext: Context | null = request.opentelemetry().context;
  if (requestContext === null) done();
  else context.with(requestContext, done);
}

const describe = (value: unknown): string =>
  value instanceof Error ? value.message : typeof value === 'string' ? value : String(value);

/**
 * pino `mixin` (loggerOptions with traceIds): the active span's `trace_id` and `span_id` on each
 * log line written inside a traced request, nothing outside one. A new object each time: pino
 * merges the line's own fields into it.
 */
export function traceIdsOfActiveSpan(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (span === undefined) return {};
  const ids = span.spanContext();
  return isSpanContextValid(ids) ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}
