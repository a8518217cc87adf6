// One SERVER span per HTTP request, for both services (OpenTelemetry HTTP semantic conventions). The
// parent comes from the incoming `traceparent`/`tracestate` through the global propagator, the name is
// `{METHOD} {route template}` (never the raw URL: paths carry ids), and the route's hooks and handler run
// inside the span's context, so `trace.getActiveSpan()` in a handler, and in anything it awaits, is the
// request's span. Only `@opentelemetry/api` is used: with no tracer provider registered every call is a
// no-op, and attributes are only built for a span that records. Headers, query strings, bodies, keys and
// tokens are never recorded. Probes (health, readiness, metrics) make no span.
import {
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Context,
  type Span,
  type TextMapGetter,
} from '@opentelemetry/api';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  RouteOptions,
} from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';

/** The tracer every toolgate module shares (a proxy until a provider is registered, then that one's). */
export const tracer = trace.getTracer('toolgate');

/** Paths polled by machines: never traced. */
export const UNTRACED_PATHS: readonly string[] = ['/healthz', '/readyz', '/metrics'];

interface RequestTrace {
  readonly span: Span;
  readonly context: Context;
  ended: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's server span and its context (null for untraced routes). */
    requestTrace: RequestTrace | null;
  }
}

/** The request's server span (undefined for untraced routes), for code that holds the request. */
export function serverSpanOf(req: FastifyRequest): Span | undefined {
  return req.requestTrace?.span;
}

/** The context carrying the request's server span (the active context when the request is untraced). */
export function traceContextOf(req: FastifyRequest): Context {
  return req.requestTrace?.context ?? context.active();
}

const headerGetter: TextMapGetter<IncomingHttpHeaders> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};

// Methods the conventions name; anything else is reported as `_OTHER` (a method is client input).
const KNOWN_METHODS = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'TRACE',
  'QUERY',
]);

export interface HttpTracingOptions {
  /** Extra paths never traced (e.g. a configured metrics path), on top of UNTRACED_PATHS. */
  readonly untracedPaths?: readonly string[];
}

/**
 * Registers the server-span hooks on `app`. Call right after creating the app and before any route is
 * added: the `onRoute` hook wraps the handlers of routes registered after it (in any plugin).
 */
export function registerHttpTracing(app: FastifyInstance, options: HttpTracingOptions = {}): void {
  const untraced = new Set([...UNTRACED_PATHS, ...(options.untracedPaths ?? [])]);
  app.decorateRequest('requestTrace', null);

  // The handler runs in the span's context whatever happened between (body parsing runs on stream
  // events, outside any context): wrap every route handler.
  app.addHook('onRoute', (route: RouteOptions) => {
    if (untraced.has(route.url)) return;
    const handler = route.handler;
    route.handler = function tracedHandler(this: FastifyInstance, req, reply) {
      const traced = req.requestTrace;
      if (traced === null) return handler.call(this, req, reply);
      return context.with(traced.context, handler, this, req, reply);
    };
  });

  app.addHook('onRequest', (req: FastifyRequest, _reply: FastifyReply, done) => {
    const route = req.routeOptions.url;
    if (route !== undefined && untraced.has(route)) return done();
    const parent = propagation.extract(context.active(), req.headers, headerGetter);
    const method = KNOWN_METHODS.has(req.method) ? req.method : '_OTHER';
    const name = method === '_OTHER' ? 'HTTP' : route === undefined ? method : `${method} ${route}`;
    const span = tracer.startSpan(name, { kind: SpanKind.SERVER }, parent);
    if (span.isRecording()) {
      span.setAttribute('http.request.method', method);
      if (route !== undefined) span.setAttribute('http.route', route);
      span.setAttribute('url.scheme', req.protocol);
      const port = req.socket?.localPort;
      if (typeof port === 'number') span.setAttribute('server.port', port);
      const version = req.raw.httpVersion;
      if (version) span.setAttribute('network.protocol.version', version);
    }
    const traced: RequestTrace = { span, context: trace.setSpan(parent, span), ended: false };
    req.requestTrace = traced;
    // The remaining onRequest hooks (and what runs synchronously from them) see the span too.
    context.with(traced.context, done);
  });

  // After the body is parsed: the validation and pre-handler hooks of every plugin run in the context.
  const reenter = (req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const traced = req.requestTrace;
    if (traced === null) return done();
    context.with(traced.context, done);
  };
  app.addHook('preValidation', reenter);

  app.addHook('onResponse', async (req, reply) => {
    const traced = req.requestTrace;
    if (traced === null || traced.ended) return;
    finish(traced, reply.statusCode, undefined);
  });
  // A request the client abandoned or the server timed out may never see onResponse.
  app.addHook('onRequestAbort', async (req) => {
    const traced = req.requestTrace;
    if (traced === null || traced.ended) return;
    finish(traced, undefined, 'aborted');
  });
  app.addHook('onTimeout', async (req) => {
    const traced = req.requestTrace;
    if (traced === null || traced.ended) return;
    finish(traced, undefined, 'timeout');
  });
}

function finish(traced: RequestTrace, status: number | undefined, errorType: string | undefined) {
  traced.ended = true;
  const { span } = traced;
  if (span.isRecording()) {
    if (status !== undefined) span.setAttribute('http.response.status_code', status);
    // Server spans: 4xx is the client's error, not the server's (conventions); 5xx sets ERROR.
    const type = errorType ?? (status !== undefined && status >= 500 ? String(status) : undefined);
    if (type !== undefined) {
      span.setAttribute('error.type', type);
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  }
  span.end();
}
