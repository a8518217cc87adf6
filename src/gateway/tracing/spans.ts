// The gateway's spans (docs/operations.md, "Traces"): one per JSON-RPC message, named and described after
// the OpenTelemetry semantic conventions for MCP (`{mcp.method.name} {target}`, mcp.*, gen_ai.*,
// jsonrpc.request.id, rpc.response.status_code, error.type), with children for admission, policy and the
// backend call. A message's parent is the trace context in its `params._meta` (SEP-414, 2026-07-28) when
// it carries one, otherwise the HTTP request's span. Attributes hold names, codes and outcomes only: never
// keys, tokens, user ids or argument values. With tracing off every function here does no more than call on.
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { RandomIdGenerator } from '@opentelemetry/sdk-trace-base';
import { tracingEnabled } from '../../shared/telemetry/tracing.js';
import { isPlainObject } from '../../shared/is-plain-object.js';
import { GatewayError } from '../errors.js';

const tracer = trace.getTracer('toolgate-gateway');

/** Methods a span is named after; any other method string (the client's) is named `unknown`. */
const KNOWN_METHODS = new Set([
  'initialize',
  'ping',
  'server/discover',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'notifications/initialized',
  'notifications/cancelled',
]);

export interface MessageSpan {
  readonly span: Span;
  /** The context the message is handled in (its span active). */
  readonly context: Context;
}

export type MessageOutcome =
  | { readonly kind: 'result'; readonly toolError: boolean }
  | { readonly kind: 'error'; readonly code: number }
  | { readonly kind: 'accepted' };

/**
 * Starts the span of one JSON-RPC message; undefined with tracing off. Its parent is the `_meta` trace
 * context when the message carries a valid one (the HTTP request's span is then linked), else the active
 * context (the HTTP request's span).
 */
export function startMessageSpan(message: unknown): MessageSpan | undefined {
  if (!tracingEnabled()) return undefined;
  const fields = isPlainObject(message) ? message : {};
  const method = typeof fields.method === 'string' ? fields.method : undefined;
  const known = method !== undefined && KNOWN_METHODS.has(method) ? method : undefined;
  const active = context.active();
  const fromMeta = metaContext(fields.params);
  // No trace context of its own and the request's span does not record: neither would this one.
  if (fromMeta === undefined && unrecordedLocalParent(active) !== undefined) return undefined;
  const parent = fromMeta ?? active;
  const attributes: Attributes = { 'mcp.method.name': known ?? 'unknown' };
  const id = fields.id;
  if (typeof id === 'number' || (typeof id === 'string' && id.length <= 128))
    attributes['jsonrpc.request.id'] = String(id);
  if (known === 'tools/call') attributes['gen_ai.operation.name'] = 'execute_tool';
  const httpSpan = fromMeta === undefined ? undefined : trace.getSpan(active);
  const span = tracer.startSpan(
    known ?? 'unknown',
    {
      kind: SpanKind.SERVER,
      attributes,
      ...(httpSpan === undefined ? {} : { links: [{ context: httpSpan.spanContext() }] }),
    },
    parent,
  );
  return { span, context: trace.setSpan(parent, span) };
}

/** Runs `work` with the message's span active (as is when tracing is off). */
export function inMessage<T>(message: MessageSpan | undefined, work: () => Promise<T>): Promise<T> {
  return message === undefined ? work() : context.with(message.context, work);
}

/** The message's protocol revision, once it is settled. */
export function setProtocolVersion(message: MessageSpan | undefined, version: string): void {
  message?.span.setAttribute('mcp.protocol.version', version);
}

/**
 * Ends a message's span with its outcome: the tool it reached names it (`tools/call getMyAccountBalance`);
 * a JSON-RPC error sets rpc.response.status_code and error.type to its code, a tool error error.type
 * `tool_error`.
 */
export function endMessageSpan(
  message: MessageSpan | undefined,
  outcome: MessageOutcome,
  tool?: string,
): void {
  if (message === undefined) return;
  const { span } = message;
  if (tool !== undefined) {
    span.updateName(`tools/call ${tool}`);
    span.setAttribute('gen_ai.tool.name', tool);
  }
  switch (outcome.kind) {
    case 'error':
      span.setAttributes({
        'rpc.response.status_code': String(outcome.code),
        'error.type': String(outcome.code),
        'toolgate.outcome': 'error',
      });
      span.setStatus({ code: SpanStatusCode.ERROR });
      break;
    case 'result':
      if (outcome.toolError) {
        span.setAttributes({ 'error.type': 'tool_error', 'toolgate.outcome': 'tool_error' });
        span.setStatus({ code: SpanStatusCode.ERROR });
      } else span.setAttribute('toolgate.outcome', 'ok');
      break;
    case 'accepted':
      span.setAttribute('toolgate.outcome', 'accepted');
  }
  span.end();
}

/** Names of the gateway's step spans (children of a message's span). */
export const STEP = {
  authenticate: 'toolgate.admission.authenticate',
  quota: 'toolgate.admission.quota',
  policy: 'toolgate.policy',
  governance: 'toolgate.governance',
} as const;

/**
 * Runs `work` in a child span named `name`; a thrown refusal's code becomes its error.type. Under a span
 * that does not record (sampled out) no step span is made: `work` runs as is, in its caller's context.
 */
export function inStep<T>(
  name: string,
  work: () => Promise<T>,
  attributes?: Attributes,
): Promise<T> {
  // Not an async function: no promise of its own wrapping `work`'s when there is no span to make.
  if (!tracingEnabled() || unrecordedLocalParent(context.active()) !== undefined) {
    try {
      return work();
    } catch (error) {
      // Rejects with whatever was thrown, as an async function would.
      return Promise.reject(error as Error);
    }
  }
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** `inStep` for synchronous work. */
export function inStepSync<T>(name: string, work: () => T, attributes?: Attributes): T {
  if (!tracingEnabled() || unrecordedLocalParent(context.active()) !== undefined) return work();
  return tracer.startActiveSpan(name, { attributes }, (span) => {
    try {
      return work();
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Marks the active step span with what it decided (no-op with tracing off or outside a step). */
export function annotateStep(attributes: Attributes): void {
  if (!tracingEnabled()) return;
  trace.getActiveSpan()?.setAttributes(attributes);
}

/** Marks the active step span as refused with `errorType` (a refusal answered rather than thrown). */
export function failStep(errorType: string): void {
  if (!tracingEnabled()) return;
  const span = trace.getActiveSpan();
  if (span === undefined) return;
  span.setAttribute('error.type', errorType);
  span.setStatus({ code: SpanStatusCode.ERROR });
}

function failed(span: Span, error: unknown): void {
  span.setAttribute(
    'error.type',
    error instanceof GatewayError ? error.code : error instanceof Error ? error.name : 'error',
  );
  span.setStatus({ code: SpanStatusCode.ERROR });
}

export interface ClientSpan {
  /** The W3C headers to send: traceparent (this span's) and tracestate when there is one. */
  readonly headers: Readonly<Record<string, string>>;
  end(attributes: Attributes, error?: string): void;
}

/**
 * A CLIENT span for a call the gateway makes (a backend's HTTP request, an upstream MCP server's
 * tools/call), child of the active span; the traceparent sent on is this span's. Undefined with tracing off.
 */
export function startClientSpan(name: string, attributes: Attributes): ClientSpan | undefined {
  if (!tracingEnabled()) return undefined;
  const active = context.active();
  const unrecorded = unrecordedLocalParent(active);
  if (unrecorded !== undefined) {
    // Sampled out: the traceparent sent on still carries the trace (id, flags, state), with a span id of
    // its own for this call, as the SDK's non-recording span would — without asking the sampler.
    const parent = unrecorded.spanContext();
    const span = trace.wrapSpanContext({
      traceId: parent.traceId,
      spanId: ids.generateSpanId(),
      traceFlags: parent.traceFlags,
      ...(parent.traceState === undefined ? {} : { traceState: parent.traceState }),
    });
    const headers: Record<string, string> = {};
    propagation.inject(trace.setSpan(active, span), headers);
    return { headers, end: ignoreEnd };
  }
  const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, active);
  const headers: Record<string, string> = {};
  propagation.inject(trace.setSpan(active, span), headers);
  return {
    headers,
    end(more, error) {
      span.setAttributes(more);
      if (error !== undefined) {
        span.setAttribute('error.type', error);
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    },
  };
}

const ids = new RandomIdGenerator();
const ignoreEnd = (): void => undefined;

/**
 * The span active in `parent` when it is a local span that does not record, else undefined. A child of
 * such a span would not record either, whichever sampler is configured (shared/telemetry/sampler.ts):
 * the parent-based ones drop the children of an unsampled local parent, `traceidratio` decides by the
 * trace id the child shares with its parent, always_on records every span and always_off none. So the
 * sampler, the span and its context are skipped (what sampling 0 costs, bench/tracing/README.md).
 */
function unrecordedLocalParent(parent: Context): Span | undefined {
  const span = trace.getSpan(parent);
  if (span === undefined || span.isRecording()) return undefined;
  const spanContext = span.spanContext();
  return spanContext.isRemote === true || !trace.isSpanContextValid(spanContext) ? undefined : span;
}

/** The trace context a message carries in `params._meta` (traceparent, tracestate), if valid. */
function metaContext(params: unknown): Context | undefined {
  if (!isPlainObject(params) || !isPlainObject(params._meta)) return undefined;
  const meta = params._meta;
  if (typeof meta.traceparent !== 'string') return undefined;
  const carrier: Record<string, string> = { traceparent: meta.traceparent };
  if (typeof meta.tracestate === 'string') carrier.tracestate = meta.tracestate;
  const extracted = propagation.extract(ROOT_CONTEXT, carrier);
  const remote = trace.getSpanContext(extracted);
  return remote !== undefined && trace.isSpanContextValid(remote) ? extracted : undefined;
}
