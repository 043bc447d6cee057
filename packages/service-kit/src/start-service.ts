import type { FastifyInstance } from 'fastify';
import type { CommonConfig } from './config.js';
import { runServer } from './run-server.js';
import { assertPortFree, exitOnStartupFailure } from './startup.js';
import { startTracing, type Tracing, type TracingOptions } from './tracing.js';

/** A database the process opened (a URL's, or one it started itself); closed after the app. */
export interface OpenedService {
  /** What the app connects to, e.g. the embedded database's URL. */
  url: string;
  /** For the log line `using …` (no credentials). */
  description: string;
  close(): Promise<void>;
}

/** The parts of a service that load its database driver, imported once tracing has started. */
export interface ServiceModules<C extends CommonConfig> {
  openDatabase(config: C): Promise<OpenedService>;
  buildApp(config: C, runtime: { tracing?: Tracing | undefined }): Promise<FastifyInstance>;
  prepareFirstStart(app: FastifyInstance, config: C): Promise<void>;
}

export interface StartServiceOptions<C extends CommonConfig> {
  /** The service's name: the failure line's subject and the traces' default service name. */
  name: string;
  readConfig(): C;
  /** The database driver's instrumentations (their spans only inside a traced request). */
  instrumentations: NonNullable<TracingOptions['instrumentations']>;
  /** Imports the modules that load the driver: only after tracing starts, so it gets patched. */
  load(): Promise<ServiceModules<C>>;
  /** The configuration with the opened database's URL in place of the configured one. */
  withDatabase(config: C, url: string): C;
}

/**
 * A service process: reads config, checks the port, starts tracing when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set, opens the database (embedded when no URL is set), builds
 * the app, prepares a first start (demo data, first credentials) and listens until SIGTERM or
 * SIGINT. Any start-up failure ends in one line (startup.ts).
 */
export function startService<C extends CommonConfig>(options: StartServiceOptions<C>): void {
  start(options).catch((error: unknown) => exitOnStartupFailure(options.name, error));
}

async function start<C extends CommonConfig>(options: StartServiceOptions<C>): Promise<void> {
  const config = options.readConfig();
  await assertPortFree({ port: config.port, host: config.host, variable: 'PORT' });
  const tracing =
    config.otel &&
    (await startTracing({
      serviceName: config.otel.serviceName ?? options.name,
      instrumentations: options.instrumentations,
    }));
  const service = await options.load();
  const database = await service.openDatabase(config);
  try {
    const app = await service.buildApp(options.withDatabase(config, database.url), { tracing });
    app.log.info(`using ${database.description}`);
    await service.prepareFirstStart(app, config);
    await runServer(app, {
      port: config.port,
      host: config.host,
      onClosed: async () => {
        await database.close();
        await tracing?.shutdown(); // the spans still queued
      },
    });
  } catch (error) {
    await database.close();
    throw error;
  }
}
