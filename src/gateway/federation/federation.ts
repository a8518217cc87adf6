// The gateway's federation (issue 28): the upstream MCP servers of `gateway.backends[].mcp`, opened once
// as clients and shared by every part that talks to them (the tool catalogue here; tool calls, resources
// and prompts through `upstreams`), closed with the gateway.
import { GATEWAY_KEY_HEADER } from '../forwarding/identity.js';
import type { BackendConfig } from '../../config/gateway-mcp.js';
import type { FrozenConfig } from '../../config/schema.js';
import type { Logger } from '../../shared/log/logger.js';
import type { ToolSettingsMap } from '../catalogue/tool-settings.js';
import type { Tool } from '../catalogue/types.js';
import type { UpstreamMcp } from './contracts.js';
import { UpstreamToolCache, type FederatedBackend } from './federated-tools.js';
import { openUpstreams } from './mcp-client.js';

/** An MCP backend as configuration gives it (what the federation and the upstream clients read). */
export type FederationBackend = FederatedBackend & {
  readonly timeouts: { readonly totalMs: number };
};

/** A configured backend, MCP or not. */
export type ConfiguredBackend = Omit<FederationBackend, 'mcp'> & {
  readonly mcp?: FederationBackend['mcp'] | undefined;
};

export type UpstreamOpener<B> = (
  backends: readonly B[],
  logger: Logger,
) => ReadonlyMap<string, UpstreamMcp> | Promise<ReadonlyMap<string, UpstreamMcp>>;

/** The upstream clients (mcp-client.ts) of the backends of a loaded, frozen configuration. */
export const openConfiguredUpstreams: UpstreamOpener<
  FrozenConfig['gateway']['backends'][number]
> = (backends, logger) =>
  // The client only reads its backend's settings; the frozen configuration is the same object.
  openUpstreams(backends.map(withGatewayKey) as readonly BackendConfig[], logger);

/**
 * An upstream in identity mode `headers` trusts what comes with the shared gateway key; the gateway's own
 * requests there (negotiation, the tool, resource and prompt lists) carry that key too, with no user
 * (docs/decisions.md, D-315). Each call adds the
 * user's identity headers as for an HTTP backend.
 */
function withGatewayKey<B extends FrozenConfig['gateway']['backends'][number]>(backend: B): B {
  const secret = backend.identity.mode === 'headers' ? backend.identity.sharedSecret : undefined;
  if (backend.mcp === undefined || secret === undefined) return backend;
  return {
    ...backend,
    mcp: { ...backend.mcp, headers: { [GATEWAY_KEY_HEADER]: secret, ...backend.mcp.headers } },
  };
}

export interface Federation {
  /** One client per MCP backend, by backend name. */
  readonly upstreams: ReadonlyMap<string, UpstreamMcp>;
  /** Their tools as catalogue tools, kept fresh (the tool directory serves them). */
  readonly tools: UpstreamToolCache;
  /** Stops listening and closes every upstream client. */
  close(): Promise<void>;
}

export interface OpenFederationOptions<B> {
  /** Every configured backend; those without `mcp` are not the federation's. */
  readonly backends: readonly B[];
  readonly logger: Logger;
  readonly openUpstreams: UpstreamOpener<B>;
  /** The OpenAPI tools served now, by name (an upstream tool may not take their names). */
  readonly reserved: () => ReadonlyMap<string, Tool>;
  /** The tool settings stored by the admin API (applied to upstream tools too). */
  readonly settings?: ToolSettingsMap | undefined;
}

/**
 * Opens the upstream clients and loads their tool lists, waiting for them at most as long as the slowest
 * backend's `timeouts.totalMs` (an upstream that is down or slow at startup does not keep the gateway from
 * starting; its tools join once it answers). Undefined when no backend is an MCP server. Throws (after
 * closing what it opened) when an upstream tool's name is another backend's tool's.
 */
export async function openFederation<B extends ConfiguredBackend>(
  options: OpenFederationOptions<B>,
): Promise<Federation | undefined> {
  const backends = options.backends.filter(
    (b): b is B & { readonly mcp: FederationBackend['mcp'] } => b.mcp !== undefined,
  );
  if (backends.length === 0) return undefined;
  const upstreams = await options.openUpstreams(backends, options.logger);
  const closeUpstreams = async () => {
    await Promise.allSettled([...upstreams.values()].map((u) => u.close()));
  };
  try {
    const longest = Math.max(...backends.map((b) => b.timeouts.totalMs));
    const tools = await UpstreamToolCache.open(
      {
        backends,
        upstreams,
        reserved: options.reserved,
        settings: options.settings,
        logger: options.logger,
        // tools/list may take several pages, each a request bounded by the client's timeouts.
        listTimeoutMs: longest * 2,
      },
      longest,
    );
    return {
      upstreams,
      tools,
      async close() {
        tools.close();
        await closeUpstreams();
      },
    };
  } catch (error) {
    await closeUpstreams();
    throw error;
  }
}
