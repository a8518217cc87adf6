// POST {path}: the gateway's request path, Streamable HTTP without sessions, read top to bottom:
//
//   1. transport   Origin, Content-Type, Accept; the body size is fastify's limit (→ 413)
//   2. parse       the nesting bound, then JSON; a body is one message or a 2025-03-26 batch of them
//   3. identify    once per HTTP request: subscription key → user token          (gatekeeper → Caller)
//   4. per message admit (every quota that applies, per tool for tools/call)    (gatekeeper)
//                  → classify → protocol revision → dispatch                    (revision.ts, dispatch.ts)
//                  → tools/call: catalogue → authorize (security class) → arguments → upstream → result
//                                                                               (tool-calls.ts)
//                  → usage: a tools/call refused by a quota, or one that reached a catalogue tool
//
// Every message costs quota once admitted, whatever becomes of it (invalid, unknown method, refused
// later); a message a quota refuses costs none. Every refusal is a GatewayError, rendered here once as a
// JSON-RPC error with its HTTP status.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_JSON_DEPTH, jsonNestingExceeds } from '../../shared/json-depth.js';
import { addLogFields } from '../../shared/http/access-log.js';
import { rawHeaderValues } from '../../shared/http/raw-headers.js';
import type { BundleScope, Caller } from '../caller.js';
import type { Gatekeeper } from '../gatekeeper/gatekeeper.js';
import { GatewayError } from '../errors.js';
import type { UsageEvents } from '../usage/recorder.js';
import { errorResponse, type Dispatched, type Dispatcher } from './dispatch.js';
import { calledTool, classify, readId, type Message } from './messages.js';
import { acceptsBoth, originAllowed } from './origin.js';
import { DEFAULT_HEADERLESS_VERSION, type JsonRpcResponse } from './protocol.js';
import { encodeWithRaw } from './raw-json.js';
import { revisionOf } from './revision.js';
import { traceFields } from '../../shared/log/logger.js';
import { tracingEnabled } from '../../shared/telemetry/tracing.js';
import {
  STEP,
  annotateStep,
  failStep,
  endMessageSpan,
  inMessage,
  inStep,
  setProtocolVersion,
  startMessageSpan,
  type MessageOutcome as SpanOutcome,
  type MessageSpan,
} from '../tracing/spans.js';

export interface McpEndpointOptions {
  readonly path: string;
  readonly dispatcher: Dispatcher;
  readonly gatekeeper: Gatekeeper;
  readonly allowedOrigins: readonly string[];
  readonly allowLoopbackOrigins: boolean;
  readonly maxBatchSize: number;
  /** Usage per subscription and tool (usage/recorder.ts): recorded here, where a tools/call's fate is known. */
  readonly usage?: UsageEvents | undefined;
  /**
   * A tool bundle's endpoint (issue 28, `<mcp.path>/<name>`): the gatekeeper is told which bundle the
   * request came to, and the caller it builds is narrowed to the bundle's scope (expanded against the live
   * catalogue, federation/bundles.ts). Absent on the plain MCP endpoint.
   */
  readonly bundle?: { readonly name: string; scope(): BundleScope } | undefined;
}

type Headers = Readonly<Record<string, string>>;

export async function registerMcpEndpoint(
  app: FastifyInstance,
  options: McpEndpointOptions,
): Promise<void> {
  const origins = new Set(options.allowedOrigins.map((o) => o.replace(/\/+$/, '').toLowerCase()));

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.setErrorHandler(transportErrorHandler);
    scope.route({
      method: ['GET', 'DELETE', 'PUT', 'PATCH'],
      url: options.path,
      handler: async (_req, reply) =>
        reply
          .code(405)
          .header('Allow', 'POST')
          .type('application/json')
          .send({
            jsonrpc: '2.0',
            id: null,
            error: {
              code: -32600,
              message: 'Method Not Allowed: this endpoint offers no stream; use POST',
            },
          }),
    });

    scope.post(options.path, async (req, reply) => {
      // 1. transport
      const refused = transportRefusal(req, origins, options.allowLoopbackOrigins);
      if (refused) return send(reply, errorResponse(null, refused));

      // 2. parse
      const parsed = parse(req, options.maxBatchSize);
      if (!parsed.ok) return send(reply, errorResponse(null, parsed.error));
      const { body } = parsed;
      annotateMessage(req, body);
      // The access line names the request's trace (the HTTP request's span, active here).
      if (tracingEnabled()) addLogFields(req, traceFields());

      // 3. identify (a single message's admission, inside its span; a batch's, inside the request's)
      if (!Array.isArray(body)) {
        const span = startMessageSpan(body);
        const outcome = await inMessage(span, async () => {
          const caller = await identify(req, body, options);
          if (!('subscription' in caller)) return { answer: caller } satisfies MessageOutcome;
          // 4. per message
          return handleMessage(req, body, caller, options, false, span);
        });
        endMessageSpan(span, outcomeOf(outcome.answer), outcome.answer?.tool);
        if (outcome.headers) reply.headers(outcome.headers);
        if (outcome.answer === undefined) return reply.code(202).send();
        return send(reply, outcome.answer);
      }
      const caller = await identify(req, body, options);
      if (!('subscription' in caller)) return send(reply, caller);
      return sendBatch(reply, await handleBatch(req, body, caller, options));
    });
  });
}

/**
 * Every other path under the MCP endpoint (`<mcp.path>/<anything>`) names no configured tool bundle: 404
 * with a JSON-RPC error body, as the endpoint's other refusals, whatever the method. The configured
 * bundles' own routes are static paths and win over this one.
 */
export async function registerUnknownBundleRoute(
  app: FastifyInstance,
  path: string,
  known: readonly string[],
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.setErrorHandler(transportErrorHandler);
    scope.route({
      method: ['GET', 'POST', 'DELETE', 'PUT', 'PATCH'],
      url: `${path}/*`,
      handler: async (_req, reply) =>
        send(
          reply,
          errorResponse(
            null,
            new GatewayError(
              'UNKNOWN_BUNDLE',
              known.length === 0
                ? 'Not Found: this gateway serves no tool bundles'
                : `Not Found: no tool bundle at this path; the bundles are ${known.join(', ')}`,
            ),
          ),
        ),
    });
  });
}

/** The caller of a request (subscription key → user token), or the refusal to send. */
function identify(
  req: FastifyRequest,
  body: unknown,
  options: McpEndpointOptions,
): Promise<Caller | Dispatched> {
  return inStep(STEP.authenticate, async () => {
    try {
      const caller = await options.gatekeeper.identify({
        requestId: req.id,
        headers: req.headers,
        authorization: rawHeaderValues(req.raw.rawHeaders, 'authorization'),
        socketAddress: req.socket.remoteAddress ?? req.ip,
        query: (req.query ?? {}) as Record<string, unknown>,
        ...(options.bundle === undefined ? {} : { bundle: options.bundle.name }),
      });
      annotateStep({ 'toolgate.user_token': caller.user !== null });
      return options.bundle === undefined ? caller : { ...caller, bundle: options.bundle.scope() };
    } catch (error) {
      const refusal = errorResponse(readId(body), error);
      failStep(errorTypeOf(error));
      return refusal;
    }
  });
}

/** What became of a message, for its span. */
function outcomeOf(answer: Dispatched | undefined): SpanOutcome {
  if (answer === undefined) return { kind: 'accepted' };
  if ('error' in answer.response) return { kind: 'error', code: answer.response.error.code };
  return { kind: 'result', toolError: answer.response.result.isError === true };
}

function errorTypeOf(error: unknown): string {
  return error instanceof GatewayError ? error.code : 'INTERNAL';
}

interface MessageOutcome {
  /** The response to send; undefined for notifications and client responses (202, no body). */
  readonly answer?: Dispatched | undefined;
  /** Quota headers of an admitted message. */
  readonly headers?: Headers | undefined;
  /** Admission refused the message (a quota): not counted, not dispatched; the rendered refusal. */
  readonly refusal?: Dispatched;
}

/**
 * One message: admitted on its own, then classified, its revision settled and dispatched; a tools/call is
 * counted as usage (refused by a quota, or the outcome and time of a call that reached a catalogue tool).
 */
async function handleMessage(
  req: FastifyRequest,
  message: unknown,
  caller: Caller,
  options: McpEndpointOptions,
  inBatch = false,
  span?: MessageSpan,
): Promise<MessageOutcome> {
  const tool = calledTool(message);
  let headers: Headers;
  try {
    headers = await inStep(STEP.quota, () => options.gatekeeper.admit(caller, tool));
  } catch (error) {
    if (tool !== undefined && error instanceof GatewayError && error.code === 'RATE_LIMITED')
      options.usage?.quotaRefused(caller.subscription.id, tool);
    const refusal = errorResponse(readId(message), error);
    // Inside a batch a refused notification gets no answer (it never does), a refused request its own.
    const answered = !inBatch || classify(message).kind === 'request';
    return { refusal, answer: answered ? refusal : undefined };
  }
  const shape = classify(message);
  if (shape.kind === 'invalid')
    return {
      headers,
      answer: errorResponse(
        shape.id,
        new GatewayError('INVALID_REQUEST', `Invalid Request: ${shape.reason}`),
      ),
    };
  if (shape.kind !== 'request') return { headers }; // notifications and responses: 202 Accepted
  const { id, method, params } = shape;
  if (inBatch && method === 'initialize')
    return {
      headers,
      answer: errorResponse(
        id,
        new GatewayError(
          'INVALID_REQUEST',
          'Invalid Request: initialize must not be part of a batch',
        ),
      ),
    };
  let revision;
  try {
    revision = revisionOf(req.headers, method, params);
  } catch (error) {
    return { headers, answer: errorResponse(id, error) };
  }
  setProtocolVersion(span, revision.version);
  const started = performance.now();
  const answer = await options.dispatcher.dispatch({
    ...revision,
    id,
    method,
    params,
    caller,
    trace: {
      traceparent: header(req, 'traceparent'),
      tracestate: header(req, 'tracestate'),
      log: req.log,
      annotate: (fields: Readonly<Record<string, unknown>>) => addLogFields(req, fields),
    },
  });
  if (answer.tool !== undefined)
    options.usage?.call(
      caller.subscription.id,
      answer.tool,
      'result' in answer.response && answer.response.result.isError !== true ? 'ok' : 'error',
      performance.now() - started,
    );
  return { headers, answer };
}

interface BatchOutcome {
  readonly responses: JsonRpcResponse[];
  readonly status: number;
  readonly headers: Headers;
}

/**
 * A 2025-03-26 batch: each message admitted and answered on its own. 200 with the answers; a 401/403 of
 * any answer (a user-scoped tool without a user) becomes the batch's status; 429 (or 503) only when
 * admission refused every message.
 */
async function handleBatch(
  req: FastifyRequest,
  batch: readonly unknown[],
  caller: Caller,
  options: McpEndpointOptions,
): Promise<BatchOutcome> {
  const responses: JsonRpcResponse[] = [];
  let status = 200;
  let headers: Headers = {};
  let refusedCount = 0;
  let lastRefusal: Dispatched | undefined;
  for (const message of batch) {
    const span = startMessageSpan(message);
    const outcome = await inMessage(span, () =>
      handleMessage(req, message, caller, options, true, span),
    );
    endMessageSpan(span, outcomeOf(outcome.answer), outcome.answer?.tool);
    if (outcome.refusal) {
      refusedCount++;
      lastRefusal = outcome.refusal;
      if (outcome.answer) responses.push(outcome.answer.response);
      continue;
    }
    // Merged, so a later message's quota headers keep an earlier refusal's WWW-Authenticate.
    if (outcome.headers) headers = { ...headers, ...outcome.headers };
    if (!outcome.answer) continue;
    responses.push(outcome.answer.response);
    if (outcome.answer.status === 401 || outcome.answer.status === 403) {
      status = outcome.answer.status;
      headers = { ...headers, ...outcome.answer.headers };
    }
  }
  if (lastRefusal !== undefined && refusedCount === batch.length)
    return {
      responses: responses.length > 0 ? responses : [lastRefusal.response],
      status: lastRefusal.status,
      headers: lastRefusal.headers ?? {},
    };
  return { responses, status, headers };
}

function sendBatch(reply: FastifyReply, outcome: BatchOutcome): FastifyReply {
  reply.headers(outcome.headers);
  if (outcome.responses.length === 0) return reply.code(202).send();
  return reply.code(outcome.status).type('application/json').send(encodeWithRaw(outcome.responses));
}

/** Origin (DNS-rebinding protection), Content-Type and Accept. */
function transportRefusal(
  req: FastifyRequest,
  origins: ReadonlySet<string>,
  allowLoopback: boolean,
): GatewayError | undefined {
  if (!originAllowed(header(req, 'origin'), origins, allowLoopback))
    return new GatewayError('ORIGIN_NOT_ALLOWED', 'Forbidden: Origin not allowed');
  const contentType = (header(req, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json')
    return new GatewayError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Unsupported Media Type: Content-Type must be application/json',
    );
  if (!acceptsBoth(header(req, 'accept')))
    return new GatewayError(
      'NOT_ACCEPTABLE',
      'Not Acceptable: Accept must list application/json and text/event-stream',
    );
  return undefined;
}

type Parsed =
  | { readonly ok: true; readonly body: unknown }
  | { readonly ok: false; readonly error: GatewayError };

/** The body as JSON, nesting bounded; an array must be a batch this revision and size allow. */
function parse(req: FastifyRequest, maxBatchSize: number): Parsed {
  const text = (req.body as Buffer | undefined)?.toString('utf8') ?? '';
  if (jsonNestingExceeds(text))
    return {
      ok: false,
      error: new GatewayError(
        'INVALID_REQUEST',
        `Invalid Request: objects or arrays nested deeper than ${MAX_JSON_DEPTH} levels`,
        { reason: 'JSON_TOO_DEEP', maxDepth: MAX_JSON_DEPTH },
      ),
    };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return {
      ok: false,
      error: new GatewayError('PARSE_ERROR', 'Parse error: the body is not valid JSON'),
    };
  }
  if (!Array.isArray(body)) return { ok: true, body };
  // JSON-RPC batches exist only in 2025-03-26 (removed in 2025-06-18, absent from 2026-07-28).
  const version = header(req, 'mcp-protocol-version') ?? DEFAULT_HEADERLESS_VERSION;
  if (version !== '2025-03-26')
    return {
      ok: false,
      error: new GatewayError(
        'BATCH_NOT_SUPPORTED',
        `Invalid Request: JSON-RPC batches are not part of protocol version ${version.slice(0, 40)}`,
      ),
    };
  if (body.length === 0 || body.length > maxBatchSize)
    return {
      ok: false,
      error: new GatewayError(
        'INVALID_REQUEST',
        `Invalid Request: a batch must hold 1 to ${maxBatchSize} messages`,
      ),
    };
  return { ok: true, body };
}

/** Body-parser and framework errors inside the endpoint, as JSON-RPC errors. */
function transportErrorHandler(error: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (error.statusCode === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return send(
      reply,
      errorResponse(null, new GatewayError('PAYLOAD_TOO_LARGE', 'Request body too large')),
    );
  if (typeof error.statusCode === 'number' && error.statusCode < 500)
    return send(reply, errorResponse(null, new GatewayError('INVALID_REQUEST', 'Invalid Request')));
  req.log.error({ err: error }, 'mcp transport error');
  return send(reply, errorResponse(null, error));
}

/** Names the JSON-RPC method (or the batch size) on the access line, before authentication can refuse it. */
function annotateMessage(req: FastifyRequest, body: unknown): void {
  if (Array.isArray(body)) addLogFields(req, { rpcBatch: body.length });
  else if (typeof body === 'object' && body !== null) {
    const method = (body as Message).method;
    if (typeof method === 'string') addLogFields(req, { rpcMethod: method.slice(0, 64) });
  }
}

function header(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function send(reply: FastifyReply, outcome: Dispatched): FastifyReply {
  if (outcome.headers) reply.headers(outcome.headers);
  if ('error' in outcome.response)
    addLogFields(reply.request, { rpcError: outcome.response.error.code });
  return reply.code(outcome.status).type('application/json').send(encodeWithRaw(outcome.response));
}
