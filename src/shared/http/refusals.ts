// Refusals that happen before a route runs: a request Node's parser rejects (headers too large, a
// malformed request line, a request that never completed), a URL the router rejects (bad percent-encoding,
// a path parameter over the limit), and any request that arrives while the service is shutting down.
// Each is answered in the service's own format (the renderer: problem+json by default, JSON-RPC on the
// gateway's MCP endpoint) with a documented code, never echoing the request, and with
// `Connection: close` whenever the connection is closed afterwards (docs/errors.md).
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, problem } from './problem.js';
import { reasonPhrase } from './status.js';

export type RefusalCode =
  | 'HEADERS_TOO_LARGE'
  | 'MALFORMED_REQUEST'
  | 'REQUEST_TIMEOUT'
  | 'BAD_URL'
  | 'URI_TOO_LONG'
  | 'SHUTTING_DOWN';

export interface Refusal {
  readonly status: number;
  readonly code: RefusalCode;
  readonly message: string;
}

export interface RenderedRefusal {
  readonly contentType: string;
  readonly body: string;
}

/** Renders a refusal for a request to `path` (undefined when not even the request line was readable). */
export type RefusalRenderer = (refusal: Refusal, path: string | undefined) => RenderedRefusal;

export const REFUSALS = {
  HEADERS_TOO_LARGE: {
    status: 431,
    code: 'HEADERS_TOO_LARGE',
    message: 'The request line and headers exceed the size this server accepts',
  },
  MALFORMED_REQUEST: {
    status: 400,
    code: 'MALFORMED_REQUEST',
    message: 'The request is not well-formed HTTP/1.1',
  },
  REQUEST_TIMEOUT: {
    status: 408,
    code: 'REQUEST_TIMEOUT',
    message: 'The request was not received completely in time',
  },
  BAD_URL: { status: 400, code: 'BAD_URL', message: 'The URL has an invalid percent-encoding' },
  URI_TOO_LONG: {
    status: 414,
    code: 'URI_TOO_LONG',
    message: 'A path segment is longer than this server accepts',
  },
  SHUTTING_DOWN: {
    status: 503,
    code: 'SHUTTING_DOWN',
    message: 'The service is shutting down; send the request again on a new connection',
  },
} as const satisfies Record<RefusalCode, Refusal>;

/** The default: an RFC 9457 problem, as every other REST error of both services. */
export const problemRefusal: RefusalRenderer = (refusal) => ({
  contentType: PROBLEM_CONTENT_TYPE,
  body: JSON.stringify(problem(refusal.status, refusal.code, refusal.message)),
});

/** How long a refused connection may keep sending (the rest of an oversized request) before it is cut. */
const LINGER_MS = 2000;

/**
 * fastify's `clientErrorHandler`: the parser gave up on the connection, so the answer is written to the
 * socket directly, then the connection is closed gracefully: what the client still sends is read and
 * dropped for a moment, so it reads the answer instead of a reset.
 */
export function clientErrorHandler(
  render: RefusalRenderer,
  log: (code: RefusalCode, cause: string | undefined) => void,
): (error: Error & { code?: string; rawPacket?: unknown }, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const refusal =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? REFUSALS.HEADERS_TOO_LARGE
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? REFUSALS.REQUEST_TIMEOUT
          : REFUSALS.MALFORMED_REQUEST;
    log(refusal.code, error.code);
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const { contentType, body } = render(refusal, requestPath(error.rawPacket));
    socket.end(
      `HTTP/1.1 ${refusal.status} ${reasonPhrase(refusal.status)}\r\n` +
        `Content-Type: ${contentType}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
    socket.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

/** The path of the request line in what the parser had read, if it got that far (never echoed). */
function requestPath(raw: unknown): string | undefined {
  // Node passes the bytes read so far as a Buffer (fastify's typings describe its JSON form).
  if (!Buffer.isBuffer(raw)) return undefined;
  const line = raw.subarray(0, 8192).toString('latin1').split('\r\n', 1)[0] ?? '';
  const target = /^[A-Z]+ (\S+) HTTP\/\d\.\d$/.exec(line)?.[1] ?? /^[A-Z]+ (\S+)/.exec(line)?.[1];
  return target?.split('?', 1)[0];
}

/** fastify's `frameworkErrors`: a URL the router cannot take (bad encoding, parameter too long). */
export function frameworkErrorHandler(
  render: RefusalRenderer,
): (error: Error & { code?: string }, req: FastifyRequest, reply: FastifyReply) => void {
  return (error, req, reply) => {
    const refusal =
      error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? REFUSALS.URI_TOO_LONG : REFUSALS.BAD_URL;
    sendRefusal(reply, render, refusal, pathOf(req.url), false);
  };
}

/** Answers with a refusal through fastify; `close` adds `Connection: close` (Node then closes it). */
export function sendRefusal(
  reply: FastifyReply,
  render: RefusalRenderer,
  refusal: Refusal,
  path: string | undefined,
  close: boolean,
): FastifyReply {
  const { contentType, body } = render(refusal, path);
  if (close) reply.header('Connection', 'close');
  if (refusal.status === 503) reply.header('Retry-After', '1');
  return reply.code(refusal.status).type(contentType).send(body);
}

export function pathOf(url: string): string {
  return url.split('?', 1)[0] ?? url;
}
