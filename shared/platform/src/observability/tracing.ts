import { context, propagation, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * Traces (OpenTelemetry). Every thread that serves (the gateway's, a context's) calls `startTracing`
 * once; the spans are made by the platform (bus requests and handlers, appends, projection batches,
 * reactors) and by the gateway and the webhook dispatcher. W3C `traceparent` is the one format on the
 * wire: from HTTP clients, in bus requests and in events' metadata.
 *
 * Exporting follows the standard variables: spans go to an OTLP/HTTP collector when
 * OTEL_TRACES_EXPORTER is `otlp` or an OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set, and nowhere
 * otherwise. With nowhere to send them no span is made, but the trace still goes on: the logs name its ids
 * and the `traceparent` travels on as it came (see `recording`). OTEL_SDK_DISABLED=true records nothing either.
 *
 * Without spans the trace is passed as data, never kept in an AsyncLocalStorage: on Node 20 any live
 * store turns on a promise hook that every promise of the process pays for, about a fifth of an
 * authenticated read's CPU (docs/architecture.md). A request's `traceparent` goes on its bus requests'
 * headers, into its handler's ServiceRequest and its events' metadata; an event's follower continues
 * the one its event carries; a job's worker the one its job was created in. Background log lines name
 * their trace and correlation id themselves (`traceFields`).
 */
export const tracer = trace.getTracer('renopath');
const propagator = new W3CTraceContextPropagator();

let provider: BasicTracerProvider | null = null;

/**
 * Whether this thread records spans (a span processor was given: an exporter, a test's collector).
 * Without one no span object is made and no async context is kept: the work passes on the
 * `traceparent` it continues (`Trace`), so the ids still reach the log lines and go on to the next
 * process, at the cost of a string.
 */
let recording = false;
export const tracingRecords = (): boolean => recording;

/**
 * The trace and correlation id of a piece of work, as data: a request's (its ServiceRequest), an
 * event's (its metadata), a job's. `traceparent` is absent when the work continues none.
 */
export interface Trace {
  correlation_id: string;
  traceparent?: string | undefined;
}

/** Whether the environment asks for spans to be sent (the OTEL_* variables the OTLP exporter reads itself). */
export function otlpWanted(env: NodeJS.ProcessEnv): boolean {
  if (env['OTEL_SDK_DISABLED'] === 'true') return false;
  const exporters = (env['OTEL_TRACES_EXPORTER'] ?? '').split(',').map((e) => e.trim());
  if (exporters.includes('none')) return false;
  return exporters.includes('otlp') || Boolean(env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] || env['OTEL_EXPORTER_OTLP_ENDPOINT']);
}

/**
 * Installs this thread's tracer provider, context manager and propagator when something records the
 * spans; a second call is a no-op. `spanProcessors` replaces the exporter the environment chooses
 * (tests pass an in-memory one). With no processor nothing is installed: see `recording`.
 */
export function startTracing(serviceName: string, options: { env?: NodeJS.ProcessEnv; spanProcessors?: SpanProcessor[] } = {}): void {
  if (provider) return;
  const env = options.env ?? process.env;
  if (env['OTEL_SDK_DISABLED'] === 'true') return;
  const spanProcessors = options.spanProcessors ?? (otlpWanted(env) ? [new BatchSpanProcessor(new OTLPTraceExporter())] : []);
  if (spanProcessors.length === 0) return;
  provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env['OTEL_SERVICE_NAME'] ?? serviceName }),
    spanProcessors,
  });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(propagator);
  recording = true;
}

/** Sends the spans still buffered and stops the provider (a process's shutdown). */
export async function stopTracing(): Promise<void> {
  const stopping = provider;
  provider = null;
  await stopping?.shutdown();
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const INVALID_TRACE = '0'.repeat(32);
const INVALID_SPAN = '0'.repeat(16);
/** A `traceparent` as W3C trace context reads it (version 00, ids not all zero); undefined otherwise. */
function validTraceparent(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = TRACEPARENT.exec(value);
  return m && m[1] !== INVALID_TRACE && m[2] !== INVALID_SPAN ? value : undefined;
}
/**
 * Random ids from Math.random, as OpenTelemetry's own generator makes them: an id need only be
 * unlikely to repeat, and a request must not pay for a call into the system's random source. Four
 * bytes a draw, each written from a table (every request makes 24 bytes of ids: 0.17 us on this
 * machine, against 0.6 us one hex digit a draw and 1.7 us with Number#toString(16)).
 */
const BYTE_HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
function randomHex(bytes: number): string {
  let id = '';
  for (let i = 0; i < bytes; i += 4) {
    const r = (Math.random() * 0x1_0000_0000) >>> 0;
    id += BYTE_HEX[r >>> 24]! + BYTE_HEX[(r >>> 16) & 0xff]! + BYTE_HEX[(r >>> 8) & 0xff]! + BYTE_HEX[r & 0xff]!;
  }
  return id;
}

/**
 * The `traceparent` of a request entering this process from a client (the gateway's request span when
 * nothing records): a span id of its own in the client's trace, or a new trace when the client sent
 * none (or a malformed one), not sampled.
 */
export function requestTraceparent(header: unknown): string {
  const parent = validTraceparent(header);
  return parent ? `00-${parent.slice(3, 35)}-${randomHex(8)}-${parent.slice(53)}` : `00-${randomHex(16)}-${randomHex(8)}-00`;
}

/**
 * The `traceparent` of the active span, or undefined outside one and whenever nothing records (the
 * work then passes its own on: see `Trace`).
 */
export function currentTraceparent(active?: Context): string | undefined {
  if (!recording && active === undefined) return undefined;
  const carrier: Record<string, string> = {};
  propagator.inject(active ?? context.active(), carrier, { set: (c, k, v) => (c[k] = v) });
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

/** What work in a span may note on it: nothing, when nothing records. */
export interface SpanNotes {
  setAttribute(key: string, value: string | number | boolean): unknown;
}
const UNRECORDED: SpanNotes = { setAttribute: () => undefined };
/** `work` without a span; what it throws before its first await is a rejection, as in a recorded span. */
function unrecorded<T>(work: (span: SpanNotes) => Promise<T>): Promise<T> {
  try {
    return work(UNRECORDED);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Runs `work` in a new span, ending it when the work settles and marking it failed when it throws.
 * Its parent is `traceparent` (a request's header, an event's metadata) or `parent`, by default the
 * work under way. `attributes` are strings (ids, names). When nothing records spans no span is made
 * and `work` simply runs: what it sends on carries its trace as data (see `Trace`).
 */
export function inSpan<T>(
  name: string,
  options: {
    kind?: SpanKind;
    traceparent?: string | undefined;
    tracestate?: string | undefined;
    parent?: Context;
    attributes?: Record<string, string>;
  },
  work: (span: SpanNotes) => Promise<T>,
): Promise<T> {
  if (!recording) return unrecorded(work);
  const parent =
    options.parent ??
    (options.traceparent === undefined
      ? context.active()
      : contextOf({ traceparent: options.traceparent, tracestate: options.tracestate }));
  return tracer.startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, ...(options.attributes ? { attributes: options.attributes } : {}) },
    parent,
    async (span: Span) => {
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
 * A bus request's options that send a trace on as data: its `traceparent` in the request's headers
 * (NATS message headers on the wire), where the receiving side's `serveMessages` reads it. The
 * gateway's requests and a worker's commands go out this way when nothing records spans.
 */
export function tracedRequestOptions(
  traceparent: string | undefined,
  timeoutMs: number,
): { timeoutMs: number; headers?: { traceparent: string } } {
  return traceparent === undefined ? { timeoutMs } : { timeoutMs, headers: { traceparent } };
}

/**
 * What a log line names of the work it is written for: its trace and span ids (of its `traceparent`)
 * and its correlation id. Background work (a job, a webhook delivery, an event's follower) adds these
 * to its lines; a request's lines have them from the gateway's request logger.
 */
export function traceFields(trace: Partial<Trace> | undefined): Record<string, string> {
  const fields: Record<string, string> = {};
  const traceparent = recording ? (currentTraceparent() ?? trace?.traceparent) : trace?.traceparent;
  if (traceparent !== undefined) {
    fields['trace_id'] = traceparent.slice(3, 35);
    fields['span_id'] = traceparent.slice(36, 52);
  }
  if (trace?.correlation_id !== undefined) fields['correlation_id'] = trace.correlation_id;
  return fields;
}

/**
 * pino's `mixin` (createLogger): when spans are recorded, a line written inside one names it (the
 * context manager knows the active span); otherwise nothing is added here (see `traceFields`). A
 * new object each time: pino merges the line's own fields into it.
 */
export function logContext(): Record<string, string> {
  if (!recording) return {};
  const span = trace.getActiveSpan()?.spanContext();
  return span && trace.isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : {};
}
