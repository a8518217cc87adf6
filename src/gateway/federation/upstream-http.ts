// One HTTP exchange with an upstream MCP server's Streamable HTTP endpoint (MCP 2025-06-18 / 2025-11-25 /
// 2026-07-28 "Transports", Streamable HTTP): POST one JSON-RPC message, read the answer as
// application/json or as a text/event-stream, and pick the response to the request's id. Pooled
// keep-alive connections over undici with the backend's connect/headers/total timeouts and its response
// size cap, as the OpenAPI backends' client (upstream/backend-client.ts) has; redirects are not followed.
// Transport failures are thrown as UpstreamError; what the HTTP answer means is for the caller
// (mcp-client.ts) to judge from the returned exchange.
import { Pool, errors, type Dispatcher } from 'undici';
import { UpstreamError, type UpstreamFailure } from './contracts.js';
import { SseParser } from './sse.js';

export interface UpstreamHttpSettings {
  readonly backend: string;
  readonly url: string;
  readonly timeouts: {
    readonly connectMs: number;
    readonly headersMs: number;
    readonly totalMs: number;
  };
  readonly maxResponseBytes: number;
  readonly connections: number;
}

/** A JSON-RPC message as read from the upstream (only its shape is checked here). */
export type RpcMessage = Record<string, unknown>;

export interface Exchange {
  readonly status: number;
  readonly contentType: string;
  readonly sessionId?: string | undefined;
  readonly wwwAuthenticate?: string | undefined;
  /** The JSON-RPC response to the request's id (result or error), when the answer carried one. */
  readonly response?: RpcMessage | undefined;
}

export interface ExchangeOptions {
  readonly headers: Readonly<Record<string, string>>;
  /** The id of the request sent; undefined for a notification (answered 202 without a body). */
  readonly id?: string | number | undefined;
  /** Notifications (and server requests) met in the answer's stream. */
  readonly onMessage?: ((message: RpcMessage) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** How long an SSE answer may stay open after its response before the connection is cut. */
const LINGER_MS = 1000;

/** Why the exchange was abandoned by this side: timeout, size cap, caller's abort or a complete answer. */
class Abandoned extends Error {
  constructor(readonly why: 'done' | 'failed') {
    super('abandoned by the gateway');
    this.name = 'Abandoned';
  }
}

export class UpstreamHttp {
  readonly #pool: Pool;
  readonly #path: string;

  constructor(private readonly settings: UpstreamHttpSettings) {
    const url = new URL(settings.url);
    this.#path = url.pathname + url.search;
    this.#pool = new Pool(url.origin, {
      connections: settings.connections,
      connectTimeout: settings.timeouts.connectMs,
      headersTimeout: settings.timeouts.headersMs,
      bodyTimeout: settings.timeouts.totalMs,
      keepAliveTimeout: 30_000,
      pipelining: 1,
    });
  }

  /** POSTs one JSON-RPC message and reads its answer (see Exchange). */
  post(message: RpcMessage, options: ExchangeOptions): Promise<Exchange> {
    return this.#send('POST', JSON.stringify(message), options);
  }

  /** Ends a session (DELETE with its Mcp-Session-Id); the answer's status, or the failure thrown. */
  async delete(headers: Readonly<Record<string, string>>): Promise<number> {
    return (await this.#send('DELETE', null, { headers })).status;
  }

  /**
   * Opens the session's standalone stream (GET, Streamable HTTP "Listening for Messages from the
   * Server"), where a stateful upstream sends what belongs to no request — `notifications/tools/list_changed`
   * above all. Resolves with the status when the stream ends or is refused (405: the server offers none);
   * only `signal` ends it from this side. It waits for no answer, so no total timeout; one event over
   * maxResponseBytes ends it.
   */
  async listen(
    headers: Readonly<Record<string, string>>,
    onMessage: (message: RpcMessage) => void,
    signal: AbortSignal,
  ): Promise<number> {
    const max = this.settings.maxResponseBytes;
    const response = await this.#pool.request({
      method: 'GET',
      path: this.#path,
      headers: { ...headers, accept: 'text/event-stream' },
      signal,
      bodyTimeout: 0,
    });
    const type = String(response.headers['content-type'] ?? '').toLowerCase();
    if (response.statusCode !== 200 || !type.startsWith('text/event-stream')) {
      await response.body.dump();
      return response.statusCode;
    }
    const parser = new SseParser();
    let pending = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      pending += chunk.length;
      const events = parser.push(chunk);
      if (events.length > 0) pending = 0;
      else if (pending > max) {
        response.body.destroy();
        break;
      }
      for (const event of events) {
        if (event.event !== 'message' || event.data === '') continue;
        try {
          const parsed: unknown = JSON.parse(event.data);
          if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
            onMessage(parsed as RpcMessage);
        } catch {
          // An event that is not JSON is not MCP: skipped, the stream goes on.
        }
      }
    }
    return response.statusCode;
  }

  close(): Promise<void> {
    return this.#pool.destroy();
  }

  #send(
    method: 'POST' | 'DELETE',
    body: string | null,
    options: ExchangeOptions,
  ): Promise<Exchange> {
    const { backend, timeouts, maxResponseBytes: max } = this.settings;
    return new Promise<Exchange>((resolve, reject) => {
      let controller: Dispatcher.DispatchController | undefined;
      let settled = false;
      let status = 0;
      let contentType = '';
      let sessionId: string | undefined;
      let wwwAuthenticate: string | undefined;
      let size = 0;
      let sse: SseParser | undefined;
      let response: RpcMessage | undefined;
      let linger: NodeJS.Timeout | undefined;
      const chunks: Buffer[] = [];
      const fail = (reason: UpstreamFailure, message: string): void => {
        if (settled) return;
        settled = true;
        cleanup();
        reject(new UpstreamError(backend, reason, message));
        controller?.abort(new Abandoned('failed'));
      };
      const succeed = (): void => {
        if (settled) return;
        settled = true;
        cleanup();
        resolve({ status, contentType, sessionId, wwwAuthenticate, response });
      };
      const timer = setTimeout(
        () =>
          fail(
            'timeout',
            `The upstream MCP server did not answer within ${timeouts.totalMs} ms (total timeout).`,
          ),
        timeouts.totalMs,
      );
      const onAbort = (): void =>
        fail('timeout', 'The request to the upstream MCP server was abandoned by its caller.');
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const cleanup = (): void => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
      };
      if (options.signal?.aborted === true) {
        onAbort();
        return;
      }
      const seen = (message: unknown): void => {
        if (typeof message !== 'object' || message === null || Array.isArray(message)) return;
        const m = message as RpcMessage;
        const isResponse = 'result' in m || 'error' in m;
        if (isResponse && options.id !== undefined && m.id === options.id) response = m;
        else if (!isResponse && typeof m.method === 'string') options.onMessage?.(m);
      };
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart: (c) => {
          controller = c;
          if (settled) c.abort(new Abandoned('failed'));
        },
        onResponseStart: (_c, statusCode, headers) => {
          if (statusCode < 200) return;
          status = statusCode;
          contentType = (headerOf(headers, 'content-type') ?? '').toLowerCase();
          sessionId = headerOf(headers, 'mcp-session-id');
          wwwAuthenticate = headerOf(headers, 'www-authenticate');
          const declared = Number(headerOf(headers, 'content-length'));
          if (Number.isFinite(declared) && declared > max) fail('too_large', tooLarge(max));
          else if (statusCode < 300 && contentType.startsWith('text/event-stream'))
            sse = new SseParser();
        },
        onResponseData: (_c, chunk) => {
          if (settled) return;
          size += chunk.length;
          if (size > max) return fail('too_large', tooLarge(max));
          if (sse === undefined) {
            chunks.push(chunk);
            return;
          }
          for (const event of sse.push(chunk)) {
            if (event.event !== 'message' || event.data === '') continue;
            let parsed: unknown;
            try {
              parsed = JSON.parse(event.data);
            } catch {
              return fail('protocol', 'The upstream MCP server sent an event that is not JSON.');
            }
            seen(parsed);
            if (response !== undefined) {
              // The answer is complete. Servers end the stream after it (the connection is then kept
              // for the next request); one that keeps it open is cut after a short grace.
              succeed();
              linger = setTimeout(() => controller?.abort(new Abandoned('done')), LINGER_MS);
              return;
            }
          }
        },
        onResponseEnd: () => {
          clearTimeout(linger);
          if (settled) return;
          if (sse === undefined && chunks.length > 0 && contentType.includes('json')) {
            let parsed: unknown;
            try {
              parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            } catch {
              // A 2xx JSON answer that does not parse is a protocol failure; an error status is judged
              // by its status alone.
              if (status < 300)
                return fail(
                  'protocol',
                  'The upstream MCP server answered JSON that does not parse.',
                );
            }
            if (Array.isArray(parsed)) parsed.forEach(seen);
            else seen(parsed);
          }
          // A stream that ends before the response: the upstream went away mid-call (it stopped, or
          // closed the session). The call may or may not have run there.
          if (sse !== undefined && options.id !== undefined && response === undefined)
            return fail(
              'unavailable',
              'The upstream MCP server ended its answer before responding; the request may or may not have been carried out.',
            );
          succeed();
        },
        onResponseError: (_c, error) => {
          clearTimeout(linger);
          if (error instanceof Abandoned) return;
          const [reason, message] = classify(error, timeouts);
          fail(reason, message);
        },
      };
      const headers: Record<string, string> = { ...options.headers };
      if (body !== null) {
        headers['content-type'] = 'application/json';
        headers.accept = 'application/json, text/event-stream';
      }
      try {
        this.#pool.dispatch(
          { method, path: this.#path, headers, body, idempotent: false },
          handler,
        );
      } catch (error) {
        const [reason, message] = classify(error, timeouts);
        fail(reason, message);
      }
    });
  }
}

function headerOf(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function tooLarge(max: number): string {
  return `The upstream MCP server's answer was larger than the gateway's limit of ${max} bytes.`;
}

/** What undici reports, as an upstream failure (exported for its unit test). */
export function classify(
  error: unknown,
  timeouts: UpstreamHttpSettings['timeouts'],
): [UpstreamFailure, string] {
  if (error instanceof errors.HeadersTimeoutError)
    return [
      'timeout',
      `The upstream MCP server did not send its response headers within ${timeouts.headersMs} ms (headers timeout).`,
    ];
  if (error instanceof errors.BodyTimeoutError)
    return [
      'timeout',
      `The upstream MCP server stopped sending its answer for ${timeouts.totalMs} ms (body timeout).`,
    ];
  if (error instanceof errors.ConnectTimeoutError)
    return [
      'unavailable',
      `The upstream MCP server could not be reached (no connection within ${timeouts.connectMs} ms, connect timeout).`,
    ];
  if (error instanceof errors.ClientDestroyedError || error instanceof errors.ClientClosedError)
    return ['unavailable', 'The client of the upstream MCP server is closed.'];
  const code = (error as { code?: unknown }).code;
  if (code === 'ECONNREFUSED')
    return ['unavailable', 'The upstream MCP server is unavailable (it refused the connection).'];
  if (code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'EAI_AGAIN')
    return [
      'unavailable',
      'The upstream MCP server could not be reached (its host name or address is not reachable).',
    ];
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')
    return [
      'unavailable',
      'The connection to the upstream MCP server was lost before it answered; the request may or may not have been carried out.',
    ];
  return [
    'protocol',
    'The request to the upstream MCP server failed before an answer was received.',
  ];
}
