// The resources and prompts of the upstream MCP servers, offered through the gateway (issue 28): what the
// dispatcher calls for `resources/list`, `resources/templates/list`, `resources/read`, `prompts/list` and
// `prompts/get`, and which of the two capabilities the gateway declares. Lists are merged across upstreams
// in configuration order (the first upstream to offer a URI or a prompt name keeps it), filtered by
// approval (`mcp.resources.approve` URI prefixes, `mcp.prompts.approve` names) and by what the caller may
// see (its bundle; a subscription limited to some tools sees the upstreams it may use a tool of), then paged
// with the gateway's own cursor. Reads and gets carry the caller's credentials for that upstream
// (identity.ts), like tool calls; an upstream that is down drops out of lists and its reads/gets get
// UPSTREAM_UNAVAILABLE. docs/configuration.md, "Federating MCP servers".
import { isPlainObject } from '../../shared/is-plain-object.js';
import type { Logger } from '../../shared/log/logger.js';
import type { Caller } from '../caller.js';
import { GatewayError } from '../errors.js';
import { META_CLIENT_CAPABILITIES, isModernVersion } from '../mcp/protocol.js';
import type { McpUpstreamConfig } from '../../config/gateway-federation.js';
import { toolPrefixOf } from '../../config/gateway-federation.js';
import {
  UpstreamError,
  type UpstreamCredentials,
  type UpstreamIdentity,
  type UpstreamMcp,
  type UpstreamRequestOptions,
} from './contracts.js';
import {
  checkPromptArguments,
  declaredArguments,
  promptApproved,
  promptMessages,
  shapePrompt,
} from './prompts.js';
import {
  readContents,
  shapeResource,
  shapeTemplate,
  templateApproved,
  templateMatches,
  uriApproved,
} from './resources.js';
import { UpstreamList, pageOf, type ListState } from './upstream-lists.js';
import { startClientSpan } from '../tracing/spans.js';

/** A configured backend; only those with `mcp` (and an open upstream) take part. */
export interface FederatedBackend {
  readonly name: string;
  readonly mcp?:
    | Pick<McpUpstreamConfig, 'url' | 'listTtlMs' | 'toolPrefix' | 'resources' | 'prompts'>
    | undefined;
}

export interface FederatedCatalogsOptions {
  /** `gateway.backends`, in configuration order. */
  readonly backends: readonly FederatedBackend[];
  /** The open upstream clients by backend name (federation.ts). */
  readonly upstreams: ReadonlyMap<string, UpstreamMcp>;
  /** Items per page of a merged list (gateway.mcp.pageSize). */
  readonly pageSize: number;
  /** The credentials each read/get carries for the caller; absent: the upstream's configured headers only. */
  readonly identity?: UpstreamIdentity | undefined;
  /**
   * The backend of a catalogue tool: a subscription limited to some tools sees the resources and prompts of
   * the backends it may use a tool of. Absent: such a subscription sees none.
   */
  readonly toolBackend?: ((tool: string) => string | undefined) | undefined;
  readonly logger?: Logger | undefined;
  readonly now?: (() => number) | undefined;
}

/** What one request gets: the result and, for a 2026-07-28 client, its caching hints. */
export interface CatalogAnswer {
  readonly result: Record<string, unknown>;
  readonly ttlMs?: number | undefined;
  readonly cacheScope?: 'public' | 'private' | undefined;
}

export interface CatalogRequest {
  readonly caller: Caller;
  readonly params: Readonly<Record<string, unknown>>;
  /** The protocol revision of the request (shapes the items, picks the sign-in answer). */
  readonly version: string;
  readonly traceparent?: string | undefined;
}

/** Which capabilities the gateway declares to this caller. */
export interface OfferedCapabilities {
  readonly resources: boolean;
  readonly prompts: boolean;
}

interface Federated {
  readonly name: string;
  readonly upstream: UpstreamMcp;
  readonly prefix: string;
  readonly resourcePrefixes: readonly string[];
  readonly promptApprove: 'all' | readonly string[];
  readonly resources: UpstreamList;
  readonly templates: UpstreamList;
  readonly prompts: UpstreamList;
  /** The upstream's address in its forms, masked out of anything shown to a client. */
  readonly hide: readonly string[];
  /** The capabilities the upstream declared, as last seen (kept while it is down). */
  declared?: Readonly<Record<string, unknown>> | undefined;
  /** The question for `declared` under way, if any. */
  learning?: Promise<void> | undefined;
}

export class FederatedCatalogs {
  private readonly entries: Federated[] = [];
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly options: FederatedCatalogsOptions) {
    const now = options.now ?? Date.now;
    for (const backend of options.backends) {
      const mcp = backend.mcp;
      if (mcp === undefined) continue;
      const upstream = options.upstreams.get(backend.name);
      if (upstream === undefined) {
        options.logger?.warn(
          { backend: backend.name },
          'no upstream client for this MCP backend: its resources and prompts are not offered',
        );
        continue;
      }
      const list = (method: string, key: string) =>
        new UpstreamList(upstream, method, key, mcp.listTtlMs, now, options.logger);
      const entry: Federated = {
        name: backend.name,
        upstream,
        prefix: toolPrefixOf(backend),
        resourcePrefixes: mcp.resources.approve,
        promptApprove: mcp.prompts.approve,
        resources: list('resources/list', 'resources'),
        templates: list('resources/templates/list', 'resourceTemplates'),
        prompts: list('prompts/list', 'prompts'),
        hide: addressForms(mcp.url),
      };
      this.entries.push(entry);
      this.unsubscribe.push(
        upstream.onNotification((n) => {
          if (n.method === 'notifications/resources/list_changed') {
            entry.resources.invalidate();
            entry.templates.invalidate();
          } else if (n.method === 'notifications/prompts/list_changed') entry.prompts.invalidate();
        }),
      );
    }
  }

  /** Stops listening to the upstreams' notifications (the upstream clients are closed by their owner). */
  close(): void {
    for (const stop of this.unsubscribe.splice(0)) stop();
  }

  /**
   * The capabilities to declare to this caller: `resources` when an upstream it may see declared it and its
   * backend approves at least one URI prefix (and, at a bundle, the bundle offers resources); `prompts`
   * likewise. Asks each upstream what it declares (answered from the client's negotiation once made); an
   * upstream that cannot answer counts with what it declared last.
   */
  async capabilities(caller: Caller): Promise<OfferedCapabilities> {
    // An upstream whose backend approves nothing is never asked: nothing of it would be offered anyway.
    await Promise.all(this.entries.filter((e) => approvesAny(e)).map((e) => this.learnDeclared(e)));
    return {
      resources:
        (caller.bundle === undefined || caller.bundle.resources.length > 0) &&
        this.entries.some((e) => this.offersResources(e) && this.visible(caller, e)),
      prompts:
        (caller.bundle === undefined || caller.bundle.prompts.size > 0) &&
        this.entries.some((e) => this.offersPrompts(e) && this.visible(caller, e)),
    };
  }

  async listResources(req: CatalogRequest): Promise<CatalogAnswer> {
    return this.mergedList(
      req,
      'resources',
      (e) => this.offersResources(e),
      (e) => e.resources,
      (item, e) => {
        const shaped = shapeResource(item, req.version);
        if (shaped === undefined) return undefined;
        const uri = shaped.uri as string;
        if (!uriApproved(uri, e.resourcePrefixes) || !bundleHasUri(req.caller, uri))
          return undefined;
        return { key: uri, shaped };
      },
    );
  }

  async listResourceTemplates(req: CatalogRequest): Promise<CatalogAnswer> {
    const bundle = req.caller.bundle;
    return this.mergedList(
      req,
      'resourceTemplates',
      (e) => this.offersResources(e),
      (e) => e.templates,
      (item, e) => {
        const shaped = shapeTemplate(item, req.version);
        if (shaped === undefined) return undefined;
        const template = shaped.uriTemplate as string;
        if (!templateApproved(template, e.resourcePrefixes)) return undefined;
        if (bundle !== undefined && !templateApproved(template, bundle.resources)) return undefined;
        return { key: template, shaped };
      },
    );
  }

  /**
   * Routed to the first upstream (configuration order) whose approved prefixes cover the URI, that the
   * caller may see, and that listed the URI or has an approved template it matches. No such upstream: an
   * UNKNOWN_RESOURCE, and nothing is forwarded; one that would have been asked is down: UPSTREAM_UNAVAILABLE.
   */
  async readResource(req: CatalogRequest): Promise<CatalogAnswer> {
    const uri = req.params.uri;
    if (typeof uri !== 'string' || uri === '')
      throw new GatewayError('INVALID_PARAMS', 'Invalid params: "uri" must be a non-empty string');
    if (uri.length > MAX_URI_LENGTH)
      throw new GatewayError(
        'INVALID_PARAMS',
        `Invalid params: "uri" is longer than ${MAX_URI_LENGTH} characters`,
      );
    let down: UpstreamError | undefined;
    for (const e of this.entries) {
      if (!this.offersResources(e) || !this.visible(req.caller, e)) continue;
      if (!uriApproved(uri, e.resourcePrefixes) || !bundleHasUri(req.caller, uri)) continue;
      const [listed, templates] = await Promise.all([e.resources.current(), e.templates.current()]);
      const inList = listed.kind === 'ok' && listed.items.some((item) => item.uri === uri);
      const inTemplate =
        templates.kind === 'ok' &&
        templates.items.some(
          (t) =>
            typeof t.uriTemplate === 'string' &&
            templateApproved(t.uriTemplate, e.resourcePrefixes) &&
            templateMatches(t.uriTemplate, uri),
        );
      if (!inList && !inTemplate) {
        if (listed.kind === 'down') down ??= listed.error;
        else if (templates.kind === 'down') down ??= templates.error;
        continue;
      }
      const result = await this.forward(req, e, 'resources/read', { uri });
      const contents = readContents(result);
      if (contents === undefined)
        throw this.unavailable(
          e,
          new UpstreamError(e.name, 'protocol', 'resources/read answered without usable contents'),
        );
      const ttlMs =
        typeof result.ttlMs === 'number' && Number.isSafeInteger(result.ttlMs) && result.ttlMs >= 0
          ? result.ttlMs
          : 0;
      // What an upstream returns under the caller's own credentials is that caller's: never public.
      return { result: { contents }, ttlMs, cacheScope: 'private' };
    }
    if (down !== undefined) throw this.unavailable(this.entryOf(down.backend), down);
    throw new GatewayError('UNKNOWN_RESOURCE', `Resource not found: ${uri.slice(0, 256)}`, {
      uri: uri.slice(0, 2048),
    });
  }

  async listPrompts(req: CatalogRequest): Promise<CatalogAnswer> {
    return this.mergedList(
      req,
      'prompts',
      (e) => this.offersPrompts(e),
      (e) => e.prompts,
      (item, e) => {
        if (typeof item.name !== 'string' || !promptApproved(item.name, e.promptApprove))
          return undefined;
        const name = e.prefix + item.name;
        if (!bundleHasPrompt(req.caller, name)) return undefined;
        const shaped = shapePrompt(item, name, req.version);
        return shaped === undefined ? undefined : { key: name, shaped };
      },
    );
  }

  /**
   * The prompt named as the gateway lists it: the first upstream (configuration order) whose prefix starts
   * the name, that approves and lists the rest of it, and that the caller may see. Its arguments are
   * checked against the prompt's declared ones before the upstream is asked (under its own name).
   */
  async getPrompt(req: CatalogRequest): Promise<CatalogAnswer> {
    const name = req.params.name;
    if (typeof name !== 'string' || name === '')
      throw new GatewayError('INVALID_PARAMS', 'Invalid params: "name" must be a non-empty string');
    let down: UpstreamError | undefined;
    for (const e of this.entries) {
      if (!name.startsWith(e.prefix) || !this.offersPrompts(e) || !this.visible(req.caller, e))
        continue;
      const upstreamName = name.slice(e.prefix.length);
      if (!promptApproved(upstreamName, e.promptApprove) || !bundleHasPrompt(req.caller, name))
        continue;
      const state = await e.prompts.current();
      if (state.kind === 'down') {
        down ??= state.error;
        continue;
      }
      const prompt = state.items.find((item) => item.name === upstreamName);
      const declared = prompt === undefined ? undefined : declaredArguments(prompt);
      if (declared === undefined) continue;
      const args = checkPromptArguments(name, declared, req.params.arguments);
      const result = await this.forward(req, e, 'prompts/get', {
        name: upstreamName,
        arguments: args,
      });
      const messages = promptMessages(result);
      if (messages === undefined)
        throw this.unavailable(
          e,
          new UpstreamError(e.name, 'protocol', 'prompts/get answered without usable messages'),
        );
      return {
        result: {
          ...(typeof result.description === 'string' ? { description: result.description } : {}),
          messages,
        },
      };
    }
    if (down !== undefined) throw this.unavailable(this.entryOf(down.backend), down);
    throw new GatewayError('UNKNOWN_PROMPT', `Unknown prompt: ${name.slice(0, 128)}`, {
      prompt: name.slice(0, 128),
    });
  }

  private offersResources(e: Federated): boolean {
    return e.resourcePrefixes.length > 0 && isPlainObject(e.declared?.resources);
  }

  private offersPrompts(e: Federated): boolean {
    const approves = e.promptApprove === 'all' || e.promptApprove.length > 0;
    return approves && isPlainObject(e.declared?.prompts);
  }

  /** Whether the caller's subscription reaches this upstream: every tool, or one of the upstream's. */
  private visible(caller: Caller, e: Federated): boolean {
    const tools = caller.subscription.tools;
    if (tools === 'all') return true;
    const backendOf = this.options.toolBackend;
    if (backendOf === undefined) return false;
    for (const tool of tools) if (backendOf(tool) === e.name) return true;
    return false;
  }

  /**
   * What the upstream declares: awaited until first known; after that the known answer is used at once and
   * asked again in the background (one question at a time), so a slow upstream never delays an initialize.
   */
  private async learnDeclared(e: Federated): Promise<void> {
    if (e.upstream.circuitOpen) return;
    e.learning ??= this.askDeclared(e).finally(() => {
      e.learning = undefined;
    });
    if (e.declared === undefined) await e.learning;
  }

  private async askDeclared(e: Federated): Promise<void> {
    try {
      e.declared = (await e.upstream.server()).capabilities;
    } catch (error) {
      this.options.logger?.debug(
        { backend: e.name, reason: error instanceof UpstreamError ? error.reason : 'error' },
        'upstream capabilities unknown: what it declared last is used',
      );
    }
  }

  /**
   * One page of a merged list. 2026-07-28 caching hints: the shortest ttl of the upstream lists in it (0
   * while one is down: its items may come back any moment); `public` only when the caller sees every
   * upstream its endpoint offers (a subscription limited to some tools gets a list of its own).
   */
  /**
   * One list method over every upstream that offers it and that the caller may see, in configuration
   * order: each upstream's cached items, kept where `pick` accepts them (shaped for the caller), the first
   * of each key winning; then paged. An upstream that is down contributes nothing (paged() logs it).
   */
  private async mergedList(
    req: CatalogRequest,
    key: string,
    offers: (e: Federated) => boolean,
    list: (e: Federated) => UpstreamList,
    pick: (
      item: Record<string, unknown>,
      e: Federated,
    ) => { readonly key: string; readonly shaped: Record<string, unknown> } | undefined,
  ): Promise<CatalogAnswer> {
    const entries = this.entries.filter((e) => offers(e) && this.visible(req.caller, e));
    const states = await Promise.all(entries.map((e) => list(e).current()));
    const seen = new Set<string>();
    const merged: Record<string, unknown>[] = [];
    entries.forEach((e, i) => {
      const state = states[i] as ListState;
      if (state.kind !== 'ok') return;
      for (const item of state.items) {
        const picked = pick(item, e);
        if (picked === undefined || seen.has(picked.key)) continue;
        seen.add(picked.key);
        merged.push(picked.shaped);
      }
    });
    return this.paged(req, merged, key, states);
  }

  private paged(
    req: CatalogRequest,
    merged: readonly Record<string, unknown>[],
    key: string,
    states: readonly ListState[],
  ): CatalogAnswer {
    const page = pageOf(merged, req.params.cursor, this.options.pageSize);
    const result: Record<string, unknown> = { [key]: page.items };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    let ttlMs = states.length === 0 ? DEFAULT_EMPTY_TTL_MS : Number.POSITIVE_INFINITY;
    for (const s of states) ttlMs = Math.min(ttlMs, s.kind === 'ok' ? s.ttlMs : 0);
    return {
      result,
      ttlMs,
      cacheScope: req.caller.subscription.tools === 'all' ? 'public' : 'private',
    };
  }

  /** One request to the upstream with the caller's credentials; its failures as GatewayErrors. */
  private async forward(
    req: CatalogRequest,
    e: Federated,
    method: string,
    params: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    let options: UpstreamRequestOptions = { traceparent: req.traceparent };
    const identity = this.options.identity;
    if (identity !== undefined) {
      let credentials: UpstreamCredentials;
      try {
        credentials = await identity(req.caller, e.name);
      } catch (error) {
        throw this.failure(e, method, params, error);
      }
      if (credentials.kind === 'sign-in') throw signInRequired(credentials, req);
      options = { ...options, headers: credentials.headers };
    }
    // Tracing on: a CLIENT span for the upstream request, whose context is the traceparent sent.
    const span = startClientSpan(method, { 'mcp.method.name': method, 'toolgate.backend': e.name });
    if (span?.headers.traceparent !== undefined)
      options = { ...options, traceparent: span.headers.traceparent };
    try {
      const result = await e.upstream.request(method, params, options);
      span?.end({});
      return result;
    } catch (error) {
      span?.end({}, 'upstream_error');
      throw this.failure(e, method, params, error);
    }
  }

  private failure(
    e: Federated,
    method: string,
    params: Record<string, unknown>,
    error: unknown,
  ): unknown {
    if (!(error instanceof UpstreamError)) return error;
    if (error.reason !== 'rpc' || error.rpc === undefined) return this.unavailable(e, error);
    // MCP's "resource not found" (-32002) keeps its meaning: the URI is unknown, not the upstream broken.
    if (method === 'resources/read' && error.rpc.code === -32002)
      return new GatewayError(
        'UNKNOWN_RESOURCE',
        `Resource not found: ${String(params.uri).slice(0, 256)}`,
        {
          uri: String(params.uri).slice(0, 2048),
          backend: e.name,
        },
      );
    const message = scrub(error.rpc.message, e.hide).slice(0, 500);
    return new GatewayError('UPSTREAM_ERROR', `Upstream ${e.name} answered ${method}: ${message}`, {
      backend: e.name,
      code: error.rpc.code,
    });
  }

  private unavailable(e: Federated | undefined, error: UpstreamError): GatewayError {
    this.options.logger?.warn(
      { backend: error.backend, reason: error.reason, detail: error.message },
      'upstream MCP server unavailable for a resources/prompts request',
    );
    const reason = REASONS[error.reason] ?? error.reason;
    return new GatewayError(
      'UPSTREAM_UNAVAILABLE',
      `Upstream ${e?.name ?? error.backend} is unavailable (${reason}); retry later`,
      { backend: e?.name ?? error.backend, reason: error.reason },
    );
  }

  private entryOf(backend: string): Federated | undefined {
    return this.entries.find((e) => e.name === backend);
  }
}

/** The longest URI a resources/read may name (no approved resource needs more; bounds the matching work). */
const MAX_URI_LENGTH = 8192;

/** The ttl of a list no upstream contributes to (none offers it to this caller): as short as a list's. */
const DEFAULT_EMPTY_TTL_MS = 0;

const REASONS: Readonly<Record<string, string>> = {
  unavailable: 'it does not answer',
  timeout: 'it did not answer in time',
  circuit_open: 'its circuit breaker is open after repeated failures',
  protocol: 'its answer was not usable MCP',
  too_large: 'its answer was too large',
  unauthorized: 'it did not accept the credentials sent',
};

/**
 * The upstream needs the user to sign in at its own authorization server first (identity mode delegation).
 * A client that declared URL-mode elicitation in this request's `_meta` (2025-11-25, 2026-07-28) gets
 * URL_ELICITATION_REQUIRED (-32042) with the elicitation; any other an UPSTREAM_UNAVAILABLE whose message
 * and data carry the link. Either way the upstream is not called.
 */
function signInRequired(
  credentials: Extract<UpstreamCredentials, { kind: 'sign-in' }>,
  req: CatalogRequest,
): GatewayError {
  const elicitation = {
    mode: 'url',
    elicitationId: credentials.elicitationId,
    url: credentials.url,
    message: credentials.message,
  };
  if (declaresUrlElicitation(req))
    return new GatewayError(
      'URL_ELICITATION_REQUIRED',
      `${credentials.message.replace(/[.\s]+$/, '')}: sign in, then retry the same request.`,
      { elicitations: [elicitation], backend: credentials.backend },
    );
  return new GatewayError(
    'UPSTREAM_UNAVAILABLE',
    `${credentials.message.replace(/[.\s]+$/, '')}: sign in at ${credentials.url}, then retry the same request.`,
    {
      backend: credentials.backend,
      reason: 'sign_in_required',
      url: credentials.url,
      elicitationId: credentials.elicitationId,
    },
  );
}

function declaresUrlElicitation(req: CatalogRequest): boolean {
  if (req.version !== '2025-11-25' && !isModernVersion(req.version)) return false;
  const meta = isPlainObject(req.params._meta) ? req.params._meta : undefined;
  const caps = meta?.[META_CLIENT_CAPABILITIES];
  const elicitation = isPlainObject(caps) ? caps.elicitation : undefined;
  return isPlainObject(elicitation) && isPlainObject(elicitation.url);
}

function approvesAny(e: Federated): boolean {
  return e.resourcePrefixes.length > 0 || e.promptApprove === 'all' || e.promptApprove.length > 0;
}

function bundleHasUri(caller: Caller, uri: string): boolean {
  return caller.bundle === undefined || uriApproved(uri, caller.bundle.resources);
}

function bundleHasPrompt(caller: Caller, name: string): boolean {
  return caller.bundle === undefined || caller.bundle.prompts.has(name);
}

/** The upstream URL, its origin and host: what an upstream's error message must not show a client. */
function addressForms(url: string): string[] {
  try {
    const parsed = new URL(url);
    return [url.replace(/\/+$/, ''), parsed.origin, parsed.host].filter((h) => h !== '');
  } catch {
    return [url];
  }
}

function scrub(text: string, hide: readonly string[]): string {
  let out = text;
  for (const h of hide) if (out.includes(h)) out = out.split(h).join('[upstream]');
  return out;
}
