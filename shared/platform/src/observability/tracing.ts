import { AsyncLocalStorage } from 'node:async_hooks';
import { context, propagation, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * Traces (OpenTelemetry). Every thread that serves (the gateway's, a context's) calls `startTracing`
 * once; the spans are made by the platform (bus requests and handlers, appends, projection batches,
 * reactors) and by the gateway and the webhook dispatcher. W3C `traceparent` is the one format on the
 * wire: from HTTP clients, in bus requests and in events' metadata.
 *
 * Exporting follows the standard variables: spans go to an OTLP/HTTP collector when
 * OTEL_TRACES_EXPORTER is `otlp` or an OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set, and nowhere
 * otherwise (the trace ids are still made, for the logs). OTEL_SDK_DISABLED=true turns tracing off.
 */
export const tracer = trace.getTracer('renopath');
const propagator = new W3CTraceContextPropagator();

let provider: BasicTracerProvider | null = null;

/** Whether the environment asks for spans to be sent (the OTEL_* variables the OTLP exporter reads itself). */
export function otlpWanted(env: NodeJS.ProcessEnv): boolean {
  if (env['OTEL_SDK_DISABLED'] === 'true') return false;
  const exporters = (env['OTEL_TRACES_EXPORTER'] ?? '').split(',').map((e) => e.trim());
  if (exporters.includes('none')) return false;
  return exporters.includes('otlp') || Boolean(env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] || env['OTEL_EXPORTER_OTLP_ENDPOINT']);
}

/**
 * Installs this thread's tracer provider, context manager and propagator; a second call is a no-op.
 * `spanProcessors` replaces the exporter the environment chooses (tests pass an in-memory one).
 */
export function startTracing(serviceName: string, options: { env?: NodeJS.ProcessEnv; spanProcessors?: SpanProcessor[] } = {}): void {
  if (provider) return;
  const env = options.env ?? process.env;
  if (env['OTEL_SDK_DISABLED'] === 'true') return;
  const spanProcessors = options.spanProcessors ?? (otlpWanted(env) ? [new BatchSpanProcessor(new OTLPTraceExporter())] : []);
  provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env['OTEL_SERVICE_NAME'] ?? serviceName }),
    spanProcessors,
    // With nowhere to send spans, none is recorded: spans still get their ids (the logs name them and
    // the trace goes on to the next process) at the cost of an id, not of a span's bookkeeping.
    ...(spanProcessors.length === 0 ? { sampler: new AlwaysOffSampler() } : {}),
  });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(propagator);
}

/** Sends the spans still buffered and stops the provider (a process's shutdown). */
export async function stopTracing(): Promise<void> {
  const stopping = provider;
  provider = null;
  await stopping?.shutdown();
}

/** The `traceparent` of the active span, or undefined outside one. */
export function currentTraceparent(active: Context = context.active()): string | undefined {
  const carrier: Record<string, string> = {};
  propagator.inject(active, carrier, { set: (c, k, v) => (c[k] = v) });
  return carrier['traceparent'];
}

/** The context a `traceparent` (and `tracestate`) names, on top of `base`; `base` when there is none or it is malformed. */
export function contextOf(headers: { traceparent?: unknown; tracestate?: unknown }, base: Context = context.active()): Context {
  if (typeof headers.traceparent !== 'string') return base;
  return propagator.extract(base, headers, {
    get: (c, k) => {
      const value = (c as Record<string, unknown>)[k];
      return typeof value === 'string' ? value : undefined;
    },
    keys: (c) => Object.keys(c as object),
  });
}

/**
 * Runs `work` in a new span (a child of `parent`, by default the active context), ending it when the
 * work settles and marking it failed when it throws. `attributes` are strings (ids, names).
 */
export function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; parent?: Context; attributes?: Record<string, string> },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, ...(options.attributes ? { attributes: options.attributes } : {}) },
    options.parent ?? context.active(),
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

export { SpanKind };

/**
 * The correlation id of the background work under way (a reactor's event, a job): every log line
 * written inside it carries that id besides the trace id (`logContext`).
 */
const correlation = new AsyncLocalStorage<string>();
export const withCorrelation = <T>(correlation_id: string, work: () => T): T => correlation.run(correlation_id, work);
/** The correlation id of the work under way (withCorrelation), if any. */
export const currentCorrelation = (): string | undefined => correlation.getStore();

/** What a log line adds of the work it is written in: pino's `mixin` (createLogger). */
export function logContext(): Record<string, string> {
  const fields: Record<string, string> = {};
  const span = trace.getActiveSpan()?.spanContext();
  if (span && trace.isSpanContextValid(span)) {
    fields['trace_id'] = span.traceId;
    fields['span_id'] = span.spanId;
  }
  const correlation_id = correlation.getStore();
  if (correlation_id !== undefined) fields['correlation_id'] = correlation_id;
  return fields;
}
