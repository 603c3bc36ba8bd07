import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing } from '@renopath/platform/observability/tracing.ts';
import { childToken, startChild, type ServiceChild } from './child.ts';
import { startStack, type Stack } from './stack.ts';

/**
 * Traces as an operator follows one client request: the client's W3C `traceparent` is continued by
 * the gateway, the bus, the context's command, its appends, the projections and reactors that follow
 * the events, the job's run and its webhook; background log lines name the trace and the request.
 */
const REQUIRED = { year_built: 1960, estate_format: 'SEMI_OPEN', habitable_space_m2: 150, zip_code: '9000', country: 'BE' };
const JOB_URL = '/v1/calculation-jobs/suggested-renovation-trajectory-calculation';
const newTraceId = () => Array.from({ length: 32 }, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('');
const traceparentOf = (traceId: string) => `00-${traceId}-00f067aa0ba902b7-01`;

/** A webhook receiver answering 204, counting what it got. */
async function webhookReceiver() {
  let received = 0;
  const server = createServer((req, res) => req.resume().on('end', () => ((received += 1), res.writeHead(204).end())));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received: () => received };
}

const until = async (what: string, done: () => boolean | Promise<boolean>, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/**
 * A job sent to a child process with a client's `traceparent` and a webhook: its trace id, its
 * correlation id and the log line of its webhook's delivery, background work written long after the
 * answer, at the end of the job's path.
 */
async function tracedJob(child: ServiceChild, webhook_url: string) {
  const access_token = await childToken(child.url);
  const traceId = newTraceId();
  const res = await fetch(`${child.url}${JOB_URL}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json', traceparent: traceparentOf(traceId) },
    body: JSON.stringify({ ...REQUIRED, webhook_url }),
  });
  expect(res.status).toBe(200);
  const correlationId = res.headers.get('x-correlation-id');
  expect(correlationId).toBeTruthy();
  const delivered = () =>
    child
      .stdout()
      .split('\n')
      .filter((line) => line.includes('"webhook delivered"'));
  await until("the webhook delivery's log line", () => delivered().length > 0);
  return { traceId, correlationId, line: JSON.parse(delivered()[0]!) as Record<string, unknown> };
}

describe('one process, an in-memory exporter', () => {
  const exporter = new InMemorySpanExporter();
  let stack: Stack;
  let hooks: Awaited<ReturnType<typeof webhookReceiver>>;

  beforeAll(async () => {
    // Before the stack: its own startTracing call then keeps this provider.
    startTracing('renopath-test', { spanProcessors: [new SimpleSpanProcessor(exporter)] });
    hooks = await webhookReceiver();
    // Every context on this thread, where the exporter is.
    stack = await startStack({ RENOPATH_CONTEXT_THREADS: 'none', RENOPATH_ALLOW_PRIVATE_NETWORK: 'true' }, { mode: 'embedded' });
  });
  afterAll(async () => {
    await stack?.close();
    await new Promise((resolve) => hooks?.server.close(resolve));
  });

  it("continues a client's traceparent from the gateway through the bus into the context, its appends, projections, reactors, the job run and its webhook", async () => {
    const token = await stack.token();
    const api = stack.as(token);
    const traceId = newTraceId();
    const res = await stack.app.inject({
      method: 'POST',
      url: JOB_URL,
      headers: { authorization: `Bearer ${token}`, traceparent: traceparentOf(traceId) },
      payload: { ...REQUIRED, webhook_url: hooks.url },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id;
    await until(
      'the job and its webhook',
      async () => (await api.get(`/v1/calculation-jobs/${id}`)).json().calculation_job_status === 'FINISHED' && hooks.received() > 0,
    );
    const names = () =>
      exporter
        .getFinishedSpans()
        .filter((s) => s.spanContext().traceId === traceId)
        .map((s) => s.name);
    // The webhook's span ends after the receiver answered: wait for it rather than race it.
    await until('the webhook delivery span', () => names().includes('webhook delivery'));
    const spans: ReadableSpan[] = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
    const all = spans.map((s) => s.name);
    expect(all).toEqual(
      expect.arrayContaining([
        `POST ${JOB_URL}`, // the gateway
        'bus cmd.calculations.create-trajectory-job', // the gateway's request on the bus
        'cmd.calculations.create-trajectory-job', // the context's command
        'append calculations', // its append
        'job SUGGESTED_RENOVATION_TRAJECTORY_CALCULATION', // the worker's run of the job
        'webhook delivery',
      ]),
    );
    expect(all.some((name) => name.startsWith('projection '))).toBe(true);
    expect(all.some((name) => name.startsWith('consume '))).toBe(true);
    expect(all.some((name) => name.startsWith('process '))).toBe(true);
    // The gateway's span is the child of the client's, the command's a child of the bus request.
    const http = spans.find((s) => s.name === `POST ${JOB_URL}`)!;
    expect(http.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    const client = spans.find((s) => s.name === 'bus cmd.calculations.create-trajectory-job')!;
    const command = spans.find((s) => s.name === 'cmd.calculations.create-trajectory-job')!;
    expect(command.parentSpanContext?.spanId).toBe(client.spanContext().spanId);
  });

  it('starts a trace of its own for a request without traceparent, and ignores a malformed one', async () => {
    const before = new Set(exporter.getFinishedSpans().map((s) => s.spanContext().traceId));
    const res = await stack.app.inject({ method: 'GET', url: '/health', headers: { traceparent: 'not-a-trace' } });
    expect(res.statusCode).toBe(200);
    const health = exporter.getFinishedSpans().filter((s) => s.name === 'GET /health' && !before.has(s.spanContext().traceId));
    expect(health).toHaveLength(1);
    expect(health[0]!.parentSpanContext).toBeUndefined();
  });
});

describe("npm start's process, exporting over OTLP as the OTEL_* variables say", () => {
  let child: ServiceChild;
  let collector: Server;
  const exported: string[] = [];
  let hooks: Awaited<ReturnType<typeof webhookReceiver>>;

  beforeAll(async () => {
    collector = createServer((req: IncomingMessage, res) => {
      let body = '';
      req
        .setEncoding('utf8')
        .on('data', (c: string) => (body += c))
        .on('end', () => {
          exported.push(body);
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    hooks = await webhookReceiver();
    child = await startChild(mkdtempSync(join(tmpdir(), 'renopath-trace-')), {
      LOG_LEVEL: 'info',
      // As `npm start` runs: contexts in threads, whose spans reach the exporter too.
      RENOPATH_CONTEXT_THREADS: 'auto',
      RENOPATH_ALLOW_PRIVATE_NETWORK: 'true',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}/v1/traces`,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
  });
  afterAll(async () => {
    await child?.kill();
    await new Promise((resolve) => collector?.close(resolve));
    await new Promise((resolve) => hooks?.server.close(resolve));
  });

  it("sends the request's spans to the collector, and names its trace and correlation id on the background log lines", async () => {
    const { traceId, correlationId, line } = await tracedJob(child, hooks.url);
    expect(line).toMatchObject({ trace_id: traceId, correlation_id: correlationId });
    await until('the spans at the collector', () => exported.some((body) => body.includes(traceId) && body.includes('webhook delivery')));
  });
});

describe("npm start's process with nowhere to send spans (its default)", () => {
  let child: ServiceChild;
  let hooks: Awaited<ReturnType<typeof webhookReceiver>>;

  beforeAll(async () => {
    hooks = await webhookReceiver();
    child = await startChild(mkdtempSync(join(tmpdir(), 'renopath-trace-')), {
      LOG_LEVEL: 'info',
      RENOPATH_CONTEXT_THREADS: 'auto',
      RENOPATH_ALLOW_PRIVATE_NETWORK: 'true',
    });
  });
  afterAll(async () => {
    await child?.kill();
    await new Promise((resolve) => hooks?.server.close(resolve));
  });

  it("carries the client's trace as data from the request, through the job's run and its renovation, to its webhook's log line", async () => {
    // The delivery is scheduled once renovations holds the job's renovation: every hop before it
    // (the command, the worker's run and report, estates' and renovations' followers) passed the trace on.
    const { traceId, correlationId, line } = await tracedJob(child, hooks.url);
    expect(line).toMatchObject({ trace_id: traceId, correlation_id: correlationId });
    // The gateway's own span id, not the client's: the request is a span of its own in the client's trace.
    expect(line['span_id']).toMatch(/^[0-9a-f]{16}$/);
    expect(line['span_id']).not.toBe('00f067aa0ba902b7');
    // The request's own lines (Fastify's, through the request logger) name the same trace and span.
    const requestLines = child
      .stdout()
      .split('\n')
      .filter((l) => l.includes(`"reqId":"${correlationId}"`))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(requestLines.length).toBeGreaterThan(0);
    for (const requestLine of requestLines) expect(requestLine).toMatchObject({ trace_id: traceId, span_id: line['span_id'] });
  });
});
