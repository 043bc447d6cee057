import type { FastifyBaseLogger } from 'fastify';

/** pino's levels by name (a logger writes the lines at its level and above). */
export const LEVEL_VALUES: Readonly<Record<string, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Infinity,
};

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
type LogArgs = Parameters<FastifyBaseLogger['info']>;

/**
 * A request's logger that becomes pino's child (the same bindings and options, so the same
 * lines) the first time it writes a line at an enabled level; until then it is this object.
 * Levels below its own write nothing, as pino's do; a custom level name counts as enabled.
 */
class LazyChildLogger implements FastifyBaseLogger {
  #real: FastifyBaseLogger | undefined;
  readonly #threshold: number;

  constructor(
    readonly parent: FastifyBaseLogger,
    readonly bindings: Bindings,
    readonly options: ChildOptions,
  ) {
    this.#threshold = LEVEL_VALUES[options?.level ?? parent.level] ?? 0;
  }

  #child(): FastifyBaseLogger {
    return (this.#real ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.#real?.level ?? this.options?.level ?? this.parent.level;
  }

  set level(value: string) {
    this.#child().level = value;
  }

  #write(level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', args: LogArgs): void {
    if (this.#real === undefined && LEVEL_VALUES[level]! < this.#threshold) return;
    this.#child()[level](...args);
  }

  fatal(...args: LogArgs): void {
    this.#write('fatal', args);
  }
  error(...args: LogArgs): void {
    this.#write('error', args);
  }
  warn(...args: LogArgs): void {
    this.#write('warn', args);
  }
  info(...args: LogArgs): void {
    this.#write('info', args);
  }
  debug(...args: LogArgs): void {
    this.#write('debug', args);
  }
  trace(...args: LogArgs): void {
    this.#write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.#child().child(bindings, options);
  }
}

/**
 * Fastify gives every request a child logger carrying its request id: pino's `child()` builds
 * its formatters and runs the bindings through the redaction's stringifier, microseconds per
 * request, although a request at LOG_LEVEL=warn never logs unless it fails. This factory makes
 * that child only when a line is written.
 */
export const lazyChildLogger = (
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildOptions,
): FastifyBaseLogger => new LazyChildLogger(logger, bindings, options);
