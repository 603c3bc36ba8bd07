import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Log = (...args: unknown[]) => void;

/**
 * Fastify gives every request a child logger carrying its ids, and pino serializes those bindings
 * when the child is made: a visible share of a read's cost (issue 9), though at the usual levels
 * most requests never log a line. This one makes the very child Fastify would have, on the first
 * line at an enabled level (or anything else that needs it), so what is logged stays the same.
 */
class RequestLogger {
  private made: Logger | null = null;

  constructor(
    private readonly parent: Logger,
    private readonly childBindings: Bindings,
  ) {}

  private get logger(): Logger {
    return (this.made ??= this.parent.child(this.childBindings));
  }

  private write(level: Level, args: unknown[]): void {
    const logger = this.made ?? this.parent;
    if (logger.isLevelEnabled(level)) (this.logger[level] as Log)(...args);
  }

  get level(): string {
    return (this.made ?? this.parent).level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.made ?? this.parent).isLevelEnabled(level);
  }

  bindings(): Bindings {
    return this.logger.bindings();
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options) as FastifyBaseLogger;
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.write('error', args);
  }

  warn(...args: unknown[]): void {
    this.write('warn', args);
  }

  info(...args: unknown[]): void {
    this.write('info', args);
  }

  debug(...args: unknown[]): void {
    this.write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.write('trace', args);
  }

  silent(): void {}
}

/**
 * A request's logger for Fastify's `childLoggerFactory`: made when first used. A route with its own
 * level or serializers gets its child at once, as Fastify makes it.
 */
export function requestLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  for (const _ in options) return parent.child(bindings, options);
  return new RequestLogger(parent as unknown as Logger, bindings) as unknown as FastifyBaseLogger;
}
