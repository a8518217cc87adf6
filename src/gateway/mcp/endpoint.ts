// POST {path}: the Streamable HTTP transport, stateless. HTTP-level checks (Origin, Content-Type, Accept,
// size), JSON parsing, authentication (the seam), then one message or a 2025-03-26 batch.
import { MAX_JSON_DEPTH, jsonNestingExceeds } from '../../shared/json-depth.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../errors.js';
import { errorResponse, type Dispatched, type Dispatcher } from './dispatch.js';
import { checkModernHeaders } from './headers.js';
import { acceptsBoth, originAllowed } from './origin.js';
import {
  DEFAULT_HEADERLESS_VERSION,
  META_CLIENT_CAPABILITIES,
  META_PROTOCOL_VERSION,
  SUPPORTED_VERSIONS,
  isLegacyVersion,
  isModernVersion,
  type JsonRpcId,
  type JsonRpcResponse,
} from './protocol.js';
import { addLogFields } from '../../shared/http/access-log.js';
import { stringifyWithRaw } from './raw-json.js';
import type { Authenticator, RequestContext } from './request-context.js';

export interface McpEndpointOptions {
  readonly path: string;
  readonly dispatcher: Dispatcher;
  readonly authenticate: Authenticator;
  readonly allowedOrigins: readonly string[];
  readonly allowLoopbackOrigins: boolean;
  readonly maxBatchSize: number;
}

type Message = Record<string, unknown>;

export async function registerMcpEndpoint(
  app: FastifyInstance,
  options: McpEndpointOptions,
): Promise<void> {
  const origins = new Set(options.allowedOrigins.map((o) => o.replace(/\/+$/, '').toLowerCase()));

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

    scope.setErrorHandler((error: FastifyError, req, reply) => {
      if (error.statusCode === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return send(
          reply,
          errorResponse(null, new GatewayError('PAYLOAD_TOO_LARGE', 'Request body too large')),
        );
      if (typeof error.statusCode === 'number' && error.statusCode < 500)
        return send(
          reply,
          errorResponse(null, new GatewayError('INVALID_REQUEST', 'Invalid Request')),
        );
      req.log.error({ err: error }, 'mcp transport error');
      return send(reply, errorResponse(null, error));
    });

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
      const origin = header(req, 'origin');
      if (!originAllowed(origin, origins, options.allowLoopbackOrigins))
        return send(
          reply,
          errorResponse(
            null,
            new GatewayError('ORIGIN_NOT_ALLOWED', 'Forbidden: Origin not allowed'),
          ),
        );
      const contentType = (header(req, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase();
      if (contentType !== 'application/json')
        return send(
          reply,
          errorResponse(
            null,
            new GatewayError(
              'UNSUPPORTED_MEDIA_TYPE',
              'Unsupported Media Type: Content-Type must be application/json',
            ),
          ),
        );
      if (!acceptsBoth(header(req, 'accept')))
        return send(
          reply,
          errorResponse(
            null,
            new GatewayError(
              'NOT_ACCEPTABLE',
              'Not Acceptable: Accept must list application/json and text/event-stream',
            ),
          ),
        );

      const text = (req.body as Buffer | undefined)?.toString('utf8') ?? '';
      if (jsonNestingExceeds(text))
        return send(
          reply,
          errorResponse(
            null,
            new GatewayError(
              'INVALID_REQUEST',
              `Invalid Request: objects or arrays nested deeper than ${MAX_JSON_DEPTH} levels`,
              { reason: 'JSON_TOO_DEEP', maxDepth: MAX_JSON_DEPTH },
            ),
          ),
        );
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return send(
          reply,
          errorResponse(
            null,
            new GatewayError('PARSE_ERROR', 'Parse error: the body is not valid JSON'),
          ),
        );
      }

      annotateMessage(req, body);
      let context: RequestContext;
      try {
        context = await options.authenticate({
          requestId: req.id,
          headers: req.headers,
          authorization: rawHeaderValues(req.raw.rawHeaders, 'authorization'),
          clientIp: req.socket.remoteAddress ?? req.ip,
          message: body,
          query: (req.query ?? {}) as Record<string, unknown>,
        });
      } catch (error) {
        return send(reply, errorResponse(readId(body), error));
      }
      if (Array.isArray(body)) return handleBatch(req, reply, body, context, options);
      const admitted = await admitMessage(context, body);
      if (!admitted.ok) return send(reply, errorResponse(readId(body), admitted.error));
      reply.headers(admitted.headers);
      const outcome = await handleSingle(req, body, context, options);
      if (outcome === undefined) return reply.code(202).send();
      return send(reply, outcome);
    });
  });
}

async function handleSingle(
  req: FastifyRequest,
  body: unknown,
  context: RequestContext,
  options: McpEndpointOptions,
): Promise<Dispatched | undefined> {
  const shape = classify(body);
  if (shape.kind === 'invalid')
    return errorResponse(
      shape.id,
      new GatewayError('INVALID_REQUEST', `Invalid Request: ${shape.reason}`),
    );
  if (shape.kind !== 'request') return undefined; // notifications and responses: 202 Accepted
  const { id, method, params } = shape;
  const meta =
    typeof params._meta === 'object' && params._meta !== null
      ? (params._meta as Message)
      : undefined;
  const metaVersion = meta?.[META_PROTOCOL_VERSION];
  const headerVersion = header(req, 'mcp-protocol-version');
  const trace = {
    traceparent: header(req, 'traceparent'),
    tracestate: header(req, 'tracestate'),
    log: req.log,
    annotate: (fields: Readonly<Record<string, unknown>>) => addLogFields(req, fields),
  };

  const modern =
    (typeof metaVersion === 'string' && !isLegacyVersion(metaVersion)) ||
    (metaVersion !== undefined && typeof metaVersion !== 'string') ||
    (headerVersion !== undefined && isModernVersion(headerVersion));
  if (modern) {
    try {
      if (typeof metaVersion !== 'string')
        throw new GatewayError(
          'HEADER_MISMATCH',
          `Header mismatch: MCP-Protocol-Version header is '${headerVersion ?? ''}' but _meta["${META_PROTOCOL_VERSION}"] is missing`,
        );
      checkModernHeaders(req.headers, metaVersion, method, params);
      if (!isModernVersion(metaVersion))
        throw new GatewayError('UNSUPPORTED_PROTOCOL_VERSION', 'Unsupported protocol version', {
          supported: SUPPORTED_VERSIONS,
          requested: metaVersion,
        });
      const caps = meta?.[META_CLIENT_CAPABILITIES];
      if (typeof caps !== 'object' || caps === null || Array.isArray(caps))
        throw new GatewayError(
          'INVALID_REQUEST_META',
          `Invalid params: _meta["${META_CLIENT_CAPABILITIES}"] is required`,
        );
    } catch (error) {
      return errorResponse(id, error);
    }
    return options.dispatcher.dispatch({
      era: 'modern',
      version: metaVersion,
      id,
      method,
      params,
      context,
      trace,
    });
  }

  let version = headerVersion ?? DEFAULT_HEADERLESS_VERSION;
  if (method !== 'initialize' && !isLegacyVersion(version))
    return errorResponse(
      id,
      new GatewayError(
        'UNSUPPORTED_PROTOCOL_VERSION',
        `Bad Request: unsupported MCP-Protocol-Version '${version.slice(0, 40)}'`,
        {
          supported: SUPPORTED_VERSIONS,
          requested: version,
        },
      ),
    );
  if (method === 'initialize') version = DEFAULT_HEADERLESS_VERSION;
  return options.dispatcher.dispatch({
    era: 'legacy',
    version,
    id,
    method,
    params,
    context,
    trace,
  });
}

/** JSON-RPC batches exist only in 2025-03-26 (removed in 2025-06-18, and absent from 2026-07-28). */
async function handleBatch(
  req: FastifyRequest,
  reply: FastifyReply,
  batch: unknown[],
  context: RequestContext,
  options: McpEndpointOptions,
): Promise<FastifyReply> {
  const version = header(req, 'mcp-protocol-version') ?? DEFAULT_HEADERLESS_VERSION;
  if (version !== '2025-03-26')
    return send(
      reply,
      errorResponse(
        null,
        new GatewayError(
          'BATCH_NOT_SUPPORTED',
          `Invalid Request: JSON-RPC batches are not part of protocol version ${version.slice(0, 40)}`,
        ),
      ),
    );
  if (batch.length === 0 || batch.length > options.maxBatchSize)
    return send(
      reply,
      errorResponse(
        null,
        new GatewayError(
          'INVALID_REQUEST',
          `Invalid Request: a batch must hold 1 to ${options.maxBatchSize} messages`,
        ),
      ),
    );
  const responses: JsonRpcResponse[] = [];
  let status = 200;
  let headers: Readonly<Record<string, string>> | undefined;
  let refused: Dispatched | undefined;
  let refusedCount = 0;
  for (const item of batch) {
    // Each message is admitted on its own: a batch of 50 costs 50 units of every quota that applies.
    const admitted = await admitMessage(context, item);
    if (!admitted.ok) {
      refusedCount++;
      refused = errorResponse(readId(item), admitted.error);
      // A refused notification gets no answer (it never does); a refused request gets its own error.
      if (classify(item).kind === 'request') responses.push(refused.response);
      continue;
    }
    reply.headers(admitted.headers);
    let outcome: Dispatched | undefined;
    const shape = classify(item);
    if (shape.kind === 'request' && shape.method === 'initialize')
      outcome = errorResponse(
        shape.id,
        new GatewayError(
          'INVALID_REQUEST',
          'Invalid Request: initialize must not be part of a batch',
        ),
      );
    else outcome = await handleSingle(req, item, context, options);
    if (!outcome) continue;
    responses.push(outcome.response);
    if (outcome.status === 401 || outcome.status === 403 || outcome.status === 429) {
      status = outcome.status;
      headers = outcome.headers;
    }
  }
  if (refused !== undefined && refusedCount === batch.length) {
    // Every message was refused: the batch as a whole is refused (429 with Retry-After, or 503).
    reply.headers(refused.headers ?? {});
    const body = responses.length > 0 ? responses : [refused.response];
    return reply.code(refused.status).type('application/json').send(stringifyWithRaw(body));
  }
  if (responses.length === 0) return reply.code(202).send();
  if (headers) reply.headers(headers);
  return reply.code(status).type('application/json').send(stringifyWithRaw(responses));
}

type Shape =
  | { kind: 'request'; id: JsonRpcId; method: string; params: Message }
  | { kind: 'notification' }
  | { kind: 'response' }
  | { kind: 'invalid'; id: JsonRpcId | null; reason: string };

function classify(message: unknown): Shape {
  if (typeof message !== 'object' || message === null || Array.isArray(message))
    return { kind: 'invalid', id: null, reason: 'a message must be a JSON object' };
  const m = message as Message;
  const id = validId(m.id);
  if (m.jsonrpc !== '2.0') return { kind: 'invalid', id, reason: 'jsonrpc must be "2.0"' };
  if (m.method === undefined && ('result' in m || 'error' in m) && 'id' in m)
    return { kind: 'response' };
  if (typeof m.method !== 'string' || m.method === '')
    return { kind: 'invalid', id, reason: 'method must be a non-empty string' };
  if (
    m.params !== undefined &&
    (typeof m.params !== 'object' || m.params === null || Array.isArray(m.params))
  )
    return { kind: 'invalid', id, reason: 'params must be an object' };
  if (!('id' in m)) return { kind: 'notification' };
  if (id === null)
    return { kind: 'invalid', id: null, reason: 'id must be a string or an integer' };
  return { kind: 'request', id, method: m.method, params: (m.params as Message | undefined) ?? {} };
}

function validId(id: unknown): JsonRpcId | null {
  if (typeof id === 'string') return id;
  if (typeof id === 'number' && Number.isInteger(id)) return id;
  return null;
}

/** Names the JSON-RPC method (or the batch size) on the access line, before authentication can refuse it. */
function annotateMessage(req: FastifyRequest, body: unknown): void {
  if (Array.isArray(body)) addLogFields(req, { rpcBatch: body.length });
  else if (typeof body === 'object' && body !== null) {
    const method = (body as Message).method;
    if (typeof method === 'string') addLogFields(req, { rpcMethod: method.slice(0, 64) });
  }
}

function readId(body: unknown): JsonRpcId | null {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? validId((body as Message).id)
    : null;
}

function header(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function send(reply: FastifyReply, outcome: Dispatched): FastifyReply {
  if (outcome.headers) reply.headers(outcome.headers);
  if ('error' in outcome.response)
    addLogFields(reply.request, { rpcError: outcome.response.error.code });
  return reply
    .code(outcome.status)
    .type('application/json')
    .send(stringifyWithRaw(outcome.response));
}

/** Every value of a header in the raw (name, value, name, value …) list, in order. */
function rawHeaderValues(raw: readonly string[], name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2)
    if (raw[i]?.toLowerCase() === name) values.push(raw[i + 1] ?? '');
  return values;
}

type Admitted =
  | { readonly ok: true; readonly headers: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly error: unknown };

/** One message against the caller's quotas (no `admit` in the context: nothing to count). */
async function admitMessage(context: RequestContext, message: unknown): Promise<Admitted> {
  if (context.admit === undefined) return { ok: true, headers: {} };
  try {
    return { ok: true, headers: await context.admit(calledTool(message)) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The tool a tools/call message names, for the per-tool quota. */
function calledTool(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { method, params } = message as { method?: unknown; params?: unknown };
  if (method !== 'tools/call' || typeof params !== 'object' || params === null) return undefined;
  const name = (params as { name?: unknown }).name;
  return typeof name === 'string' ? name : undefined;
}
