// The upstream MCP servers' tools as the catalogue serves them (issue 28, "Federation"): one cached list
// per upstream, reused for the upstream's own ttlMs (else `mcp.listTtlMs`), reloaded in the background when
// a request finds it stale (`poke`) or right after the upstream says `notifications/tools/list_changed`.
// Requests never wait for an upstream: they are served the lists held now. An upstream that fails to
// answer offers no tools (status 'down', reason logged) until a later load succeeds; the others are not
// affected. Tool names are unique across the whole catalogue: at startup a name an upstream tool shares
// with another backend's tool refuses the start (both named); later, such a tool is left out (logged),
// because a running gateway has nothing to refuse. docs/decisions.md, D-321 to D-326.
import type { Logger } from '../../shared/log/logger.js';
import { catalogueOf } from '../catalogue/build.js';
import { applyToolSettings, type ToolSettingsMap } from '../catalogue/tool-settings.js';
import type { Tool } from '../catalogue/types.js';
import { GatewayError } from '../errors.js';
import {
  UpstreamError,
  type FederatedTools,
  type UpstreamMcp,
  type UpstreamStatus,
} from './contracts.js';
import { upstreamTools, type UpstreamToolsBackend } from './upstream-tools.js';

/** What of an MCP backend's configuration the federated tools use. */
export interface FederatedBackend extends UpstreamToolsBackend {
  readonly mcp: UpstreamToolsBackend['mcp'] & { readonly listTtlMs: number };
  /** 'all' or tool names: the catalogue's or the upstream's. */
  readonly approve: 'all' | readonly string[];
}

export interface FederatedToolsOptions {
  /** The MCP backends, in configuration order (a backend without an upstream is ignored). */
  readonly backends: readonly FederatedBackend[];
  readonly upstreams: ReadonlyMap<string, UpstreamMcp>;
  /** The other (OpenAPI) tools served now, by name: an upstream tool may not take their names. */
  readonly reserved: () => ReadonlyMap<string, Tool>;
  readonly logger: Pick<Logger, 'info' | 'warn'>;
  readonly now?: () => number;
  /** Longest one load of an upstream's list may take, all pages together (default 30 s). */
  readonly listTimeoutMs?: number;
  /** After a failed load, how long before the next poke tries again (default 5 s; at most the ttl). */
  readonly retryMs?: number;
  /** The tool settings stored by the admin API, by configured name (see `useSettings`). */
  readonly settings?: ToolSettingsMap | undefined;
}

/** An upstream's own ttlMs below this is raised to it: a list reloaded on every request helps no one. */
export const MIN_UPSTREAM_TTL_MS = 1000;
const MAX_TTL_MS = 86_400_000;
export const LIST_CHANGED = 'notifications/tools/list_changed';

interface Entry {
  readonly backend: FederatedBackend;
  readonly upstream: UpstreamMcp;
  tools: readonly Tool[];
  /** The items of the last list the upstream gave (mapped again when the stored settings change). */
  items: readonly unknown[];
  state: UpstreamStatus['state'];
  reason?: string | undefined;
  protocolVersion?: string | undefined;
  refreshedAt?: string | undefined;
  /** When the list is to be loaded again (a poke after this starts it). */
  staleAt: number;
  /** notifications/tools/list_changed seen since the current load started. */
  changed: boolean;
  loading?: Promise<void> | undefined;
  /** The served list as text: a load that yields the same list does not move the revision. */
  signature: string;
  /** The mapping warnings last logged (logged again only when they differ). */
  warnings: string;
  unsubscribe: () => void;
}

export class UpstreamToolCache implements FederatedTools {
  private readonly entries: Entry[] = [];
  private changes = 0;
  private cached: { revision: number; tools: Tool[]; approved: Set<string> } | undefined;
  /** Until `open` returns: a collision refuses the start instead of leaving the tool out. */
  private starting = true;
  private readonly startupErrors: GatewayError[] = [];
  private closed = false;
  private readonly now: () => number;
  private settings: ToolSettingsMap;
  /** A served tool → its name before the stored settings (what `approve` and the settings name). */
  private readonly configuredNames = new WeakMap<Tool, string>();

  private constructor(private readonly options: FederatedToolsOptions) {
    this.now = options.now ?? Date.now;
    this.settings = options.settings ?? new Map();
    for (const backend of options.backends) {
      const upstream = options.upstreams.get(backend.name);
      if (upstream === undefined) continue;
      const entry: Entry = {
        backend,
        upstream,
        tools: [],
        items: [],
        state: 'loading',
        staleAt: 0,
        changed: false,
        signature: '[]',
        warnings: '',
        unsubscribe: () => undefined,
      };
      entry.unsubscribe = upstream.onNotification((notification) => {
        if (notification.method !== LIST_CHANGED) return;
        entry.changed = true;
        this.load(entry);
      });
      this.entries.push(entry);
    }
  }

  /**
   * Loads every upstream's list, waiting at most `waitMs` (a list still loading then is served once it
   * arrives). Throws a GatewayError CATALOGUE_LOAD_FAILED when an upstream tool's name is another
   * backend's tool's.
   */
  static async open(options: FederatedToolsOptions, waitMs: number): Promise<UpstreamToolCache> {
    const cache = new UpstreamToolCache(options);
    const loads = cache.entries.map((entry) => cache.load(entry));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(loads),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, waitMs);
      }),
    ]);
    clearTimeout(timer);
    cache.starting = false;
    const refused = cache.startupErrors[0];
    if (refused !== undefined) {
      cache.close();
      throw refused;
    }
    for (const entry of cache.entries)
      if (entry.state === 'loading')
        options.logger.warn(
          { backend: entry.backend.name, waitedMs: waitMs },
          'upstream MCP server has not listed its tools yet: they are offered once it does',
        );
    return cache;
  }

  get revision(): number {
    return this.changes;
  }

  tools(): readonly Tool[] {
    return this.snapshot().tools;
  }

  approved(): ReadonlySet<string> {
    return this.snapshot().approved;
  }

  poke(): void {
    const now = this.now();
    for (const entry of this.entries) {
      // An open circuit breaker means calls are refused: the list is checked now, not at its ttl.
      const broken = entry.state === 'ok' && entry.upstream.circuitOpen;
      if (entry.changed || now >= entry.staleAt || broken) this.load(entry);
    }
  }

  status(): readonly UpstreamStatus[] {
    return this.entries.map((e) => ({
      backend: e.backend.name,
      state: e.state,
      tools: e.tools.length,
      reason: e.reason,
      protocolVersion: e.protocolVersion,
      refreshedAt: e.refreshedAt,
    }));
  }

  /**
   * The tool settings stored by the admin API (renames, texts, annotations, hidden arguments, security
   * class), applied over the configured tools as they are over OpenAPI tools (catalogue/tool-settings.ts):
   * given again whenever the gateway rebuilds its catalogue (an admin change raises the generation).
   */
  useSettings(settings: ToolSettingsMap): void {
    this.settings = settings;
    for (const entry of this.entries)
      if (entry.state === 'ok') this.serve(entry, this.mapped(entry));
  }

  /** Resolves once no load is in progress (tests; shutdown). */
  async settled(): Promise<void> {
    for (;;) {
      const pending = this.entries.flatMap((e) => (e.loading ? [e.loading] : []));
      if (pending.length === 0) return;
      await Promise.all(pending);
    }
  }

  /** Stops listening to the upstreams (which stay open: they belong to the federation). */
  close(): void {
    this.closed = true;
    for (const entry of this.entries) entry.unsubscribe();
  }

  private snapshot(): NonNullable<UpstreamToolCache['cached']> {
    if (this.cached?.revision === this.changes) return this.cached;
    const tools = this.entries.flatMap((e) => e.tools);
    const approved = new Set<string>();
    for (const entry of this.entries) {
      const list = entry.backend.approve === 'all' ? undefined : new Set(entry.backend.approve);
      for (const tool of entry.tools) {
        const configured = this.configuredNames.get(tool) ?? tool.name;
        if (!list || list.has(configured) || (tool.mcp && list.has(tool.mcp.name)))
          approved.add(tool.name);
      }
    }
    this.cached = { revision: this.changes, tools, approved };
    return this.cached;
  }

  /** Starts a load of the entry's list unless one is running (single flight per upstream). */
  private load(entry: Entry): Promise<void> {
    if (this.closed) return Promise.resolve();
    entry.loading ??= this.reload(entry).finally(() => {
      entry.loading = undefined;
      // The upstream changed its list while it was being read: read it again.
      if (entry.changed && !this.closed) void this.load(entry);
    });
    return entry.loading;
  }

  private async reload(entry: Entry): Promise<void> {
    const { backend, upstream } = entry;
    entry.changed = false;
    const ttl = backend.mcp.listTtlMs;
    try {
      const signal = AbortSignal.timeout(this.options.listTimeoutMs ?? 30_000);
      const server = await upstream.server({ signal });
      const list = await upstream.listAll('tools/list', 'tools', { signal });
      if (this.closed) return;
      entry.items = list.items;
      const tools = this.mapped(entry);
      const wasUp = entry.state === 'ok';
      entry.state = 'ok';
      entry.reason = undefined;
      entry.protocolVersion = server.protocolVersion;
      entry.refreshedAt = new Date(this.now()).toISOString();
      entry.staleAt = this.now() + ttlOf(list.ttlMs, ttl);
      this.serve(entry, tools);
      if (!wasUp)
        this.options.logger.info(
          {
            backend: backend.name,
            tools: tools.length,
            protocolVersion: server.protocolVersion,
          },
          'upstream MCP server listed its tools: they are offered',
        );
    } catch (error) {
      if (this.closed) return;
      const reason = reasonOf(error);
      const wasDown = entry.state === 'down' && entry.reason === reason;
      entry.state = 'down';
      entry.reason = reason;
      entry.staleAt = this.now() + Math.min(this.options.retryMs ?? 5000, Math.max(ttl, 1000));
      this.serve(entry, []);
      if (!wasDown)
        this.options.logger.warn(
          { backend: backend.name, reason },
          'upstream MCP server did not list its tools: they are not offered until it does',
        );
    }
  }

  /**
   * The entry's items as served tools: mapped with the configuration (upstream-tools.ts), the stored
   * settings over them, without names another backend's tool has. Warnings are logged when they change.
   */
  private mapped(entry: Entry): Tool[] {
    const backend = entry.backend;
    const mapped = upstreamTools(backend, entry.items);
    const warnings = [...mapped.warnings];
    const settled: Tool[] = [];
    for (const tool of mapped.tools) {
      const stored = this.settings.get(tool.name);
      if (stored === undefined) {
        settled.push(tool);
        continue;
      }
      try {
        const one = applyToolSettings(catalogueOf([tool], []), new Map([[tool.name, stored]]));
        const changed = one.catalogue.tools[0] as Tool;
        this.configuredNames.set(changed, tool.name);
        settled.push(changed);
      } catch (error) {
        if (!(error instanceof GatewayError)) throw error;
        // As a hidden argument that no longer fits: serving the tool without it could expose it.
        warnings.push(`backend ${backend.name} tool ${tool.name}: skipped (${error.message})`);
      }
    }
    const text = warnings.join('\n');
    if (text !== entry.warnings)
      for (const warning of warnings)
        this.options.logger.warn({ backend: backend.name, catalogue: warning }, 'catalogue');
    entry.warnings = text;
    return this.withoutCollisions(entry, settled);
  }

  private serve(entry: Entry, tools: readonly Tool[]): void {
    const signature = JSON.stringify(tools);
    entry.tools = tools;
    if (signature === entry.signature) return;
    entry.signature = signature;
    this.changes++;
  }

  /**
   * The entry's tools whose names no other backend's tool has. At startup a collision is recorded to
   * refuse the start; later the newcomer is left out (the tool served first keeps its name).
   */
  private withoutCollisions(entry: Entry, tools: readonly Tool[]): Tool[] {
    const taken = new Map<string, Tool>(this.options.reserved());
    for (const other of this.entries)
      if (other !== entry) for (const tool of other.tools) taken.set(tool.name, tool);
    const kept: Tool[] = [];
    for (const tool of tools) {
      const holder = taken.get(tool.name);
      if (holder === undefined) {
        kept.push(tool);
        continue;
      }
      const message = `tool name "${tool.name}" of backend ${tool.backend} (${describe(tool)}) is already the name of a tool of backend ${holder.backend} (${describe(holder)}); set gateway.backends[${entry.backend.name}].mcp.toolPrefix or rename it in gateway.backends[${entry.backend.name}].tools.${tool.mcp?.name ?? tool.name}.name`;
      if (this.starting)
        this.startupErrors.push(new GatewayError('CATALOGUE_LOAD_FAILED', message));
      else
        this.options.logger.warn(
          { backend: entry.backend.name, tool: tool.name, collidesWith: holder.backend },
          `upstream tool left out: ${message}`,
        );
    }
    return kept;
  }
}

/** The upstream's ttlMs where it gave one (at least MIN_UPSTREAM_TTL_MS), else the configured one. */
export function ttlOf(upstreamTtl: number | undefined, configured: number): number {
  if (upstreamTtl === undefined || !Number.isFinite(upstreamTtl) || upstreamTtl < 0)
    return configured;
  return Math.min(Math.max(upstreamTtl, MIN_UPSTREAM_TTL_MS), MAX_TTL_MS);
}

function describe(tool: Tool): string {
  if (tool.mcp) return `upstream tool "${tool.mcp.name}"`;
  return tool.operationId ? `operation ${tool.operationId}` : 'an operation';
}

function reasonOf(error: unknown): string {
  if (error instanceof UpstreamError) return `${error.reason}: ${error.message}`;
  if (error instanceof Error)
    return error.name === 'TimeoutError' ? 'timeout: the list took too long' : error.message;
  return String(error);
}
