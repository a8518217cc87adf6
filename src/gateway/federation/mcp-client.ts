// The gateway as an MCP client of one upstream MCP server (`gateway.backends[].mcp`, issue 28), over
// Streamable HTTP. The revision is negotiated on first use: 2026-07-28 `server/discover` first (stateless,
// version and capabilities in every request's `_meta`), else `initialize` offering 2025-11-25 and
// accepting 2025-11-25, 2025-06-18 or 2025-03-26 (then `notifications/initialized`, and the
// MCP-Protocol-Version header on every request) — unless `mcp.protocolVersion` pins one. A legacy upstream
// that gives an Mcp-Session-Id gets one session per distinct credential, re-established once when it
// answers 404 (the session is gone). A circuit breaker per upstream stops calling one that keeps failing.
// docs/decisions.md, D-317 (revision negotiation order), D-318 (one upstream session per credential),
// D-319 (the upstream circuit breaker).
import type { Logger } from 'pino';
import type { BackendConfig } from '../../config/gateway-mcp.js';
import type { McpUpstreamConfig } from '../../config/gateway-federation.js';
import { CircuitBreaker, type BreakerState } from '../ratelimit/circuit-breaker.js';
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from '../mcp/protocol.js';
import { SERVER_VERSION } from '../mcp/dispatch.js';
import {
  UpstreamError,
  type UpstreamMcp,
  type UpstreamNotification,
  type UpstreamRequestOptions,
  type UpstreamServer,
} from './contracts.js';
import { UpstreamHttp, type Exchange, type RpcMessage } from './upstream-http.js';
import { UpstreamSessions, credentialKey, type UpstreamSession } from './upstream-sessions.js';

export const MODERN_REVISION = '2026-07-28';
/** What `initialize` offers: the newest session-based revision. */
export const LEGACY_OFFER = '2025-11-25';
/** The session-based revisions accepted in an `initialize` answer. */
export const LEGACY_ACCEPTED: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];
/** The most pages `listAll` follows before it gives up on a list that never ends. */
export const MAX_LIST_PAGES = 100;

/** Breaker defaults: five consecutive unavailable/timeout failures open it for 30 s (see the record). */
export const BREAKER_DEFAULTS = { failureThreshold: 5, cooldownMs: 30_000 } as const;

/** Headers the client sets itself: a credential header of the same name must not replace them. */
const PROTOCOL_HEADERS = new Set([
  'accept',
  'content-type',
  'content-length',
  'host',
  'mcp-session-id',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'traceparent',
  'transfer-encoding',
  'connection',
]);

/** Methods whose 2026-07-28 request carries an Mcp-Name header, and the param it names. */
const NAMED_PARAM: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

export type McpBackend = Pick<
  BackendConfig,
  'name' | 'timeouts' | 'maxResponseBytes' | 'connections'
> & { readonly mcp: McpUpstreamConfig };

export interface McpUpstreamClientOptions {
  readonly logger?: Logger | undefined;
  readonly breaker?: { readonly failureThreshold: number; readonly cooldownMs: number } | undefined;
  /** Milliseconds, monotonic; tests may move it. */
  readonly now?: (() => number) | undefined;
}

interface Negotiated {
  readonly era: 'modern' | 'legacy';
  readonly server: UpstreamServer;
  /** Legacy only: the upstream gave a session id, so every credential needs its own session. */
  readonly stateful: boolean;
}

type Shape = 'fallback' | Negotiated;

export class McpUpstreamClient implements UpstreamMcp {
  readonly backend: string;
  readonly #mcp: McpUpstreamConfig;
  readonly #http: UpstreamHttp;
  readonly #logger: Logger | undefined;
  readonly #breaker: CircuitBreaker;
  readonly #cooldownMs: number;
  readonly #now: () => number;
  readonly #listeners = new Set<(notification: UpstreamNotification) => void>();
  readonly #sessions: UpstreamSessions;
  #negotiated: Negotiated | undefined;
  #negotiating: Promise<Negotiated> | undefined;
  /** The standalone GET stream of one session, while open (stateful upstreams; see #listen). */
  #listening: AbortController | undefined;
  #openedAt = 0;
  #nextId = 1;
  /** The upstream answered the standalone GET with 405: it offers no such stream. */
  #noStream = false;
  #closed = false;

  constructor(backend: McpBackend, options: McpUpstreamClientOptions = {}) {
    this.backend = backend.name;
    this.#mcp = backend.mcp;
    this.#logger = options.logger;
    this.#now = options.now ?? (() => performance.now());
    this.#http = new UpstreamHttp({
      backend: backend.name,
      url: backend.mcp.url,
      timeouts: backend.timeouts,
      maxResponseBytes: backend.maxResponseBytes,
      connections: backend.connections,
    });
    const breaker = options.breaker ?? BREAKER_DEFAULTS;
    this.#cooldownMs = breaker.cooldownMs;
    this.#breaker = new CircuitBreaker({
      failureThreshold: breaker.failureThreshold,
      cooldownMs: breaker.cooldownMs,
      clock: { now: () => this.#now() },
      onStateChange: (state, previous) => this.#breakerChanged(state, previous),
    });
    this.#sessions = new UpstreamSessions(backend.mcp.maxSessions, (session) => {
      this.#logger?.debug(
        { backend: this.backend },
        'upstream MCP session evicted (least recently used)',
      );
      void this.#closeSession(session);
    });
  }

  /** Open now, and not yet due for its half-open probe: calls are refused without trying. */
  get circuitOpen(): boolean {
    return this.#breaker.state === 'open' && this.#now() - this.#openedAt < this.#cooldownMs;
  }

  /**
   * The breaker as /metrics reports it: `open` while calls are refused, `half-open` once the cooldown has
   * run out (the next call is the probe) or while the probe is out, else `closed`.
   */
  get circuitState(): BreakerState {
    const state = this.#breaker.state;
    return state === 'open' && !this.circuitOpen ? 'half-open' : state;
  }

  async server(options: UpstreamRequestOptions = {}): Promise<UpstreamServer> {
    return (await this.#negotiate(options)).server;
  }

  async request(
    method: string,
    params: Readonly<Record<string, unknown>>,
    options: UpstreamRequestOptions = {},
  ): Promise<Record<string, unknown>> {
    const negotiated = await this.#negotiate(options);
    if (negotiated.era === 'modern') {
      const exchange = await this.#post(this.#modernMessage(method, params), options, {
        ...this.#modernHeaders(method, params),
      });
      return this.#result(exchange, method);
    }
    return this.#legacyRequest(negotiated, method, params, options);
  }

  async listAll(
    method: string,
    key: string,
    options: UpstreamRequestOptions = {},
  ): Promise<{ readonly items: readonly Record<string, unknown>[]; readonly ttlMs?: number }> {
    const items: Record<string, unknown>[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    let ttlMs: number | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const result = await this.request(method, cursor === undefined ? {} : { cursor }, options);
      const list = result[key];
      if (!Array.isArray(list))
        throw this.#error('protocol', `The upstream's ${method} result has no "${key}" array.`);
      for (const item of list)
        if (typeof item === 'object' && item !== null && !Array.isArray(item))
          items.push(item as Record<string, unknown>);
      if (page === 0 && typeof result.ttlMs === 'number' && result.ttlMs >= 0) ttlMs = result.ttlMs;
      const next = result.nextCursor;
      if (typeof next !== 'string' || next === '')
        return ttlMs === undefined ? { items } : { items, ttlMs };
      // A cursor seen before would page forever.
      if (cursors.has(next))
        throw this.#error(
          'protocol',
          `The upstream's ${method} repeated a cursor it had given before.`,
        );
      cursors.add(next);
      cursor = next;
    }
    throw this.#error(
      'protocol',
      `The upstream's ${method} did not end within ${MAX_LIST_PAGES} pages.`,
    );
  }

  onNotification(listener: (notification: UpstreamNotification) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Ends every session (HTTP DELETE, best effort) and the connection pool. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listening?.abort();
    await Promise.allSettled(this.#sessions.drain().map((s) => this.#closeSession(s)));
    await this.#http.close();
  }

  // ---- negotiation ----

  #negotiate(options: UpstreamRequestOptions): Promise<Negotiated> {
    if (this.#negotiated !== undefined) return Promise.resolve(this.#negotiated);
    // Concurrent first calls share one negotiation; a failed one is not kept (the next call tries again).
    this.#negotiating ??= this.#negotiateOnce(options).then(
      (negotiated) => {
        this.#negotiated = negotiated;
        this.#negotiating = undefined;
        this.#logger?.info(
          {
            backend: this.backend,
            protocolVersion: negotiated.server.protocolVersion,
            sessions: negotiated.stateful,
          },
          'upstream MCP server negotiated',
        );
        return negotiated;
      },
      (error: unknown) => {
        this.#negotiating = undefined;
        throw error;
      },
    );
    return this.#negotiating;
  }

  async #negotiateOnce(options: UpstreamRequestOptions): Promise<Negotiated> {
    const pinned = this.#mcp.protocolVersion;
    if (pinned === undefined || pinned === MODERN_REVISION) {
      const shape = await this.#discover(options);
      if (shape !== 'fallback') return shape;
      if (pinned === MODERN_REVISION)
        throw this.#error(
          'protocol',
          `The upstream MCP server does not speak ${MODERN_REVISION} (pinned by mcp.protocolVersion): server/discover failed.`,
        );
    }
    const offer = pinned ?? LEGACY_OFFER;
    const key = credentialKey(options.headers);
    const { server, sessionId } = await this.#initialize(options, offer);
    if (sessionId !== undefined)
      this.#sessions.set({
        key,
        headers: options.headers ?? {},
        ready: Promise.resolve(sessionId),
      });
    return { era: 'legacy', server, stateful: sessionId !== undefined };
  }

  /**
   * 2026-07-28 `server/discover`. An upstream that does not speak it answers an HTTP error (400, 404,
   * 405: an older transport refuses the version header or the session-less request) or a JSON-RPC error
   * (method not found, unsupported version): then 'fallback'. Credentials refused, or nothing answering,
   * are failures, not a reason to try an older revision.
   */
  async #discover(options: UpstreamRequestOptions): Promise<Shape> {
    const method = 'server/discover';
    const exchange = await this.#post(this.#modernMessage(method, {}), options, {
      ...this.#modernHeaders(method, {}),
    });
    if (exchange.status === 401 || exchange.status === 403) throw this.#unauthorized(exchange);
    const result = exchange.response?.result;
    if (exchange.status >= 300 || !isObject(result)) return 'fallback';
    const versions = result.supportedVersions;
    if (!Array.isArray(versions) || !versions.includes(MODERN_REVISION)) return 'fallback';
    const meta = isObject(result._meta) ? result._meta : {};
    const serverInfo = isObject(result.serverInfo)
      ? result.serverInfo
      : isObject(meta['io.modelcontextprotocol/serverInfo'])
        ? meta['io.modelcontextprotocol/serverInfo']
        : undefined;
    return {
      era: 'modern',
      stateful: false,
      server: {
        protocolVersion: MODERN_REVISION,
        capabilities: isObject(result.capabilities) ? result.capabilities : {},
        serverInfo,
        instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
      },
    };
  }

  /** `initialize` then `notifications/initialized`, for one credential. */
  async #initialize(
    options: UpstreamRequestOptions,
    offer: string,
  ): Promise<{ server: UpstreamServer; sessionId: string | undefined }> {
    const exchange = await this.#post(
      {
        jsonrpc: '2.0',
        id: this.#nextId++,
        method: 'initialize',
        params: {
          protocolVersion: offer,
          // The gateway serves no sampling, elicitation or roots to the upstream.
          capabilities: {},
          clientInfo: { name: 'toolgate', version: SERVER_VERSION },
        },
      },
      options,
      {},
    );
    const result = this.#result(exchange, 'initialize');
    const version = result.protocolVersion;
    const acceptable = this.#mcp.protocolVersion === undefined ? LEGACY_ACCEPTED : [offer];
    if (typeof version !== 'string' || !acceptable.includes(version))
      throw this.#error(
        'protocol',
        `The upstream MCP server answered initialize with protocol version ${JSON.stringify(version).slice(0, 40)}, which the gateway does not accept (${acceptable.join(', ')}).`,
      );
    if (!isObject(result.capabilities))
      throw this.#error('protocol', "The upstream's initialize result has no capabilities object.");
    const sessionId = exchange.sessionId;
    const initialized = await this.#post(
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      options,
      legacyHeaders(version, sessionId),
    );
    if (initialized.status === 401 || initialized.status === 403)
      throw this.#unauthorized(initialized);
    if (initialized.status >= 300)
      throw this.#error(
        'protocol',
        `The upstream MCP server refused notifications/initialized with HTTP ${initialized.status}.`,
      );
    return {
      sessionId,
      server: {
        protocolVersion: version,
        capabilities: result.capabilities,
        serverInfo: isObject(result.serverInfo) ? result.serverInfo : undefined,
        instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
      },
    };
  }

  // ---- requests ----

  async #legacyRequest(
    negotiated: Negotiated,
    method: string,
    params: Readonly<Record<string, unknown>>,
    options: UpstreamRequestOptions,
  ): Promise<Record<string, unknown>> {
    const version = negotiated.server.protocolVersion;
    for (let attempt = 0; ; attempt++) {
      const session = negotiated.stateful ? this.#sessionOf(options, version) : undefined;
      const sessionId = session === undefined ? undefined : await session.ready;
      if (sessionId !== undefined) this.#listen(negotiated, options, sessionId);
      const exchange = await this.#post(
        { jsonrpc: '2.0', id: this.#nextId++, method, params },
        options,
        legacyHeaders(version, sessionId),
      );
      // 404 to a request with a session: the upstream forgot it (restart, expiry). Once, a new one.
      if (exchange.status === 404 && session !== undefined && attempt === 0) {
        this.#sessions.forget(session);
        this.#logger?.info(
          { backend: this.backend },
          'upstream MCP session expired (HTTP 404): initializing a new one',
        );
        continue;
      }
      return this.#result(exchange, method);
    }
  }

  /** The session of the call's credential, initialized on first use (never another credential's). */
  #sessionOf(options: UpstreamRequestOptions, version: string): UpstreamSession {
    const key = credentialKey(options.headers);
    const known = this.#sessions.get(key);
    if (known !== undefined) return known;
    // Every session speaks the revision negotiated first: the requests' headers name it.
    const ready = this.#initialize(options, version).then(({ server, sessionId }) => {
      if (server.protocolVersion !== version)
        throw this.#error(
          'protocol',
          `The upstream MCP server answered a new session's initialize with ${server.protocolVersion}, not the ${version} negotiated before.`,
        );
      return sessionId;
    });
    const session: UpstreamSession = { key, headers: options.headers ?? {}, ready };
    this.#sessions.set(session);
    ready.catch(() => this.#sessions.forget(session));
    return session;
  }

  /**
   * Keeps one standalone GET stream open (on the session of the call that finds none open), for the
   * notifications a stateful upstream sends outside any request: its tool, resource and prompt lists are
   * the same for every session, so one stream per upstream is enough. Only when the upstream declares a
   * listChanged capability; reopened by the next request after it ends; a 405 (none offered) is final.
   */
  #listen(negotiated: Negotiated, options: UpstreamRequestOptions, sessionId: string): void {
    if (this.#listening !== undefined || this.#closed || this.#noStream) return;
    const caps = negotiated.server.capabilities;
    const changes = ['tools', 'resources', 'prompts'].some(
      (k) => isObject(caps[k]) && (caps[k] as Record<string, unknown>).listChanged === true,
    );
    if (!changes) return;
    const controller = new AbortController();
    this.#listening = controller;
    const headers = {
      ...this.#baseHeaders({ headers: options.headers }),
      ...legacyHeaders(negotiated.server.protocolVersion, sessionId),
    };
    this.#http
      .listen(headers, (m) => this.#received(m, headers), controller.signal)
      .then(
        (status) => {
          if (status === 405) this.#noStream = true;
        },
        () => undefined, // ended (aborted, reset): the next request opens another
      )
      .finally(() => {
        if (this.#listening === controller) this.#listening = undefined;
      });
  }

  async #closeSession(session: UpstreamSession): Promise<void> {
    const negotiated = this.#negotiated;
    try {
      const id = await session.ready;
      if (id === undefined || negotiated === undefined) return;
      await this.#http.delete({
        ...this.#baseHeaders({ headers: session.headers }),
        ...legacyHeaders(negotiated.server.protocolVersion, id),
      });
    } catch (error) {
      // A session the upstream cannot be told about ends when it expires there.
      this.#logger?.debug(
        { backend: this.backend, reason: error instanceof UpstreamError ? error.reason : 'failed' },
        'upstream MCP session could not be closed',
      );
    }
  }

  #modernMessage(method: string, params: Readonly<Record<string, unknown>>): RpcMessage {
    const meta = isObject(params._meta) ? params._meta : {};
    return {
      jsonrpc: '2.0',
      id: this.#nextId++,
      method,
      params: {
        ...params,
        _meta: {
          ...meta,
          [META_PROTOCOL_VERSION]: MODERN_REVISION,
          // The gateway serves no sampling, elicitation or roots to the upstream.
          [META_CLIENT_CAPABILITIES]: {},
        },
      },
    };
  }

  /** 2026-07-28 "Request Metadata" headers: they must match the body (the server checks, -32020). */
  #modernHeaders(
    method: string,
    params: Readonly<Record<string, unknown>>,
  ): Record<string, string> {
    const headers: Record<string, string> = {
      'mcp-protocol-version': MODERN_REVISION,
      'mcp-method': method,
    };
    const field = NAMED_PARAM[method];
    const name = field === undefined ? undefined : params[field];
    if (typeof name === 'string') headers['mcp-name'] = headerSafe(name);
    return headers;
  }

  /** Static `mcp.headers`, then the call's own (its credential), then traceparent; lower-cased. */
  #baseHeaders(options: UpstreamRequestOptions): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const source of [this.#mcp.headers, options.headers ?? {}])
      for (const [name, value] of Object.entries(source)) {
        const lower = name.toLowerCase();
        if (!PROTOCOL_HEADERS.has(lower)) headers[lower] = value;
      }
    if (options.traceparent !== undefined) headers.traceparent = options.traceparent;
    return headers;
  }

  /** One POST through the breaker: unavailable and timeout count against the upstream. */
  async #post(
    message: RpcMessage,
    options: UpstreamRequestOptions,
    protocolHeaders: Record<string, string>,
  ): Promise<Exchange> {
    if (this.#closed)
      throw this.#error('unavailable', 'The client of the upstream MCP server is closed.');
    if (!this.#breaker.tryAcquire())
      throw this.#error(
        'circuit_open',
        `The upstream MCP server failed repeatedly; it is not called for up to ${Math.round(this.#cooldownMs / 1000)} s.`,
      );
    const headers = { ...this.#baseHeaders(options), ...protocolHeaders };
    try {
      const exchange = await this.#http.post(message, {
        headers,
        id: typeof message.id === 'number' ? message.id : undefined,
        signal: options.signal,
        onMessage: (m) => this.#received(m, headers),
      });
      this.#breaker.success();
      return exchange;
    } catch (error) {
      const reason = error instanceof UpstreamError ? error.reason : 'protocol';
      // The caller giving up says nothing about the upstream.
      if ((reason === 'unavailable' || reason === 'timeout') && options.signal?.aborted !== true)
        this.#breaker.failure();
      else this.#breaker.success();
      throw error;
    }
  }

  /** A message in an answer's stream: notifications to the listeners; requests refused at once. */
  #received(message: RpcMessage, headers: Record<string, string>): void {
    const method = message.method;
    if (typeof method !== 'string') return;
    if (message.id === undefined || message.id === null) {
      const params = isObject(message.params) ? message.params : undefined;
      for (const listener of this.#listeners) {
        try {
          listener({ method, params });
        } catch (error) {
          this.#logger?.error(
            { backend: this.backend, err: error },
            'upstream notification listener failed',
          );
        }
      }
      return;
    }
    // A request from the server. `ping` is answered (MCP Utilities/Ping: the receiver MUST respond);
    // sampling, elicitation and roots were not declared by the gateway, so "method not found" at once
    // rather than leave the upstream waiting for the call's timeout.
    const id = message.id;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const answer: RpcMessage =
      method === 'ping'
        ? { jsonrpc: '2.0', id, result: {} }
        : {
            jsonrpc: '2.0',
            id,
            error: { code: -32601, message: `Method not found: ${method.slice(0, 100)}` },
          };
    void this.#http.post(answer, { headers }).catch(() => undefined);
  }

  /** The result object of an answer, or the UpstreamError it amounts to. */
  #result(exchange: Exchange, method: string): Record<string, unknown> {
    if (exchange.status === 401 || exchange.status === 403) throw this.#unauthorized(exchange);
    const response = exchange.response;
    if (response !== undefined && isObject(response.error)) {
      const { code, message, data } = response.error;
      const rpc = {
        code: typeof code === 'number' ? code : -32603,
        message: typeof message === 'string' ? message : 'error without a message',
        ...(data === undefined ? {} : { data }),
      };
      throw new UpstreamError(
        this.backend,
        'rpc',
        `The upstream MCP server answered ${method} with error ${rpc.code}: ${rpc.message.slice(0, 300)}`,
        rpc,
      );
    }
    if (exchange.status < 200 || exchange.status >= 300)
      throw this.#error(
        'protocol',
        `The upstream MCP server answered ${method} with HTTP ${exchange.status}.`,
      );
    if (response === undefined)
      throw this.#error(
        'protocol',
        `The upstream MCP server's answer to ${method} carried no response to the request (content type ${JSON.stringify(exchange.contentType.slice(0, 60))}).`,
      );
    if (!isObject(response.result))
      throw this.#error(
        'protocol',
        `The upstream MCP server's response to ${method} has no result object.`,
      );
    return response.result;
  }

  #unauthorized(exchange: Exchange): UpstreamError {
    return new UpstreamError(
      this.backend,
      'unauthorized',
      `The upstream MCP server refused the credentials sent (HTTP ${exchange.status}).`,
      undefined,
      exchange.wwwAuthenticate,
    );
  }

  #error(reason: UpstreamError['reason'], message: string): UpstreamError {
    return new UpstreamError(this.backend, reason, message);
  }

  #breakerChanged(state: BreakerState, previous: BreakerState): void {
    if (state === 'open') {
      this.#openedAt = this.#now();
      this.#logger?.warn(
        { backend: this.backend, cooldownMs: this.#cooldownMs, previous },
        'upstream MCP server circuit opened after repeated failures',
      );
    } else if (state === 'closed')
      this.#logger?.info({ backend: this.backend }, 'upstream MCP server circuit closed');
  }
}

/**
 * A client of every backend that has `mcp`, keyed by backend name. The catalogue, calls, resources and
 * prompts share these (one pool, one breaker and one set of sessions per upstream).
 */
export function openUpstreams(
  backends: readonly BackendConfig[],
  logger?: Logger,
): Map<string, UpstreamMcp> {
  const upstreams = new Map<string, UpstreamMcp>();
  for (const backend of backends) {
    const mcp = backend.mcp;
    if (mcp === undefined) continue;
    upstreams.set(backend.name, new McpUpstreamClient({ ...backend, mcp }, { logger }));
  }
  return upstreams;
}

function legacyHeaders(version: string, sessionId: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-protocol-version': version };
  if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
  return headers;
}

/** A header value as sent: plain when it is visible ASCII without edge spaces, else Base64-sentinel. */
export function headerSafe(value: string): string {
  if (/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !value.startsWith('=?base64?'))
    return value;
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
