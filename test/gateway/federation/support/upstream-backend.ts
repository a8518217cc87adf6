// A `gateway.backends[]` entry with `mcp` for a test upstream, with the schema's defaults filled in, for
// building an McpUpstreamClient directly (the federation tests, issue 28).
import type { McpBackend } from '../../../../src/gateway/federation/mcp-client.js';
import type { McpUpstreamConfig } from '../../../../src/config/gateway-federation.js';

export function mcpBackend(
  name: string,
  url: string,
  overrides: {
    readonly mcp?: Partial<McpUpstreamConfig>;
    readonly timeouts?: Partial<McpBackend['timeouts']>;
    readonly maxResponseBytes?: number;
  } = {},
): McpBackend {
  return {
    name,
    timeouts: { connectMs: 2000, headersMs: 10_000, totalMs: 15_000, ...overrides.timeouts },
    maxResponseBytes: overrides.maxResponseBytes ?? 1_048_576,
    connections: 8,
    mcp: {
      url,
      headers: {},
      listTtlMs: 60_000,
      securityClass: 'optional',
      resources: { approve: [] },
      prompts: { approve: [] },
      maxSessions: 1000,
      ...overrides.mcp,
    },
  };
}
