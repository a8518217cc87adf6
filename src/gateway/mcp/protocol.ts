// Protocol revisions this endpoint speaks and the JSON-RPC shapes it writes.
// 2024-11-05 is spoken over Streamable HTTP only: its own HTTP+SSE transport needs sessions, which this
// stateless endpoint does not keep (docs/decisions.md, D-037).
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export const MODERN_VERSIONS = ['2026-07-28'] as const;
export const SUPPORTED_VERSIONS: readonly string[] = [...MODERN_VERSIONS, ...LEGACY_VERSIONS];
export const LATEST_LEGACY = '2025-11-25';

/** Version assumed when a legacy request has no MCP-Protocol-Version header (2025-06-18 transports). */
export const DEFAULT_HEADERLESS_VERSION = '2025-03-26';

export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

export type JsonRpcId = string | number;

export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: JsonRpcId; result: Record<string, unknown> }
  | {
      jsonrpc: '2.0';
      id: JsonRpcId | null;
      error: { code: number; message: string; data?: unknown };
    };

export function isLegacyVersion(v: string): boolean {
  return (LEGACY_VERSIONS as readonly string[]).includes(v);
}
export function isModernVersion(v: string): boolean {
  return (MODERN_VERSIONS as readonly string[]).includes(v);
}

/** Features by revision: title/outputSchema/structuredContent arrived in 2025-06-18. */
export function hasStructuredContent(version: string): boolean {
  return version !== '2025-03-26' && version !== '2024-11-05';
}

/** Tool annotations arrived in 2025-03-26: a 2024-11-05 tool is name, description and inputSchema. */
export function hasToolAnnotations(version: string): boolean {
  return version !== '2024-11-05';
}
