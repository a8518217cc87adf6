// Which protocol revision governs a request: modern (2026-07-28: version and client capabilities in
// `_meta`, checked against the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers) or legacy
// (2025-03-26 … 2025-11-25: the MCP-Protocol-Version header, or 2025-03-26 without one; `initialize`
// negotiates). Throws the GatewayError the request gets when its revision cannot be served.
import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError } from '../errors.js';
import { checkModernHeaders } from './headers.js';
import type { Message } from './messages.js';
import {
  DEFAULT_HEADERLESS_VERSION,
  META_CLIENT_CAPABILITIES,
  META_PROTOCOL_VERSION,
  SUPPORTED_VERSIONS,
  isLegacyVersion,
  isModernVersion,
} from './protocol.js';

export interface Revision {
  readonly era: 'legacy' | 'modern';
  readonly version: string;
}

export function revisionOf(
  headers: IncomingHttpHeaders,
  method: string,
  params: Message,
): Revision {
  const meta =
    typeof params._meta === 'object' && params._meta !== null
      ? (params._meta as Message)
      : undefined;
  const metaVersion = meta?.[META_PROTOCOL_VERSION];
  const headerVersion = first(headers['mcp-protocol-version']);
  const modern =
    (typeof metaVersion === 'string' && !isLegacyVersion(metaVersion)) ||
    (metaVersion !== undefined && typeof metaVersion !== 'string') ||
    (headerVersion !== undefined && isModernVersion(headerVersion));
  if (modern) {
    // 2026-07-28 checks in the specification's order: the request's own fields first (-32602), then the
    // headers against them (-32020), then whether the version is served (-32022).
    if (typeof metaVersion !== 'string')
      throw new GatewayError(
        'INVALID_REQUEST_META',
        `Invalid params: _meta["${META_PROTOCOL_VERSION}"] is required`,
      );
    const caps = meta?.[META_CLIENT_CAPABILITIES];
    if (typeof caps !== 'object' || caps === null || Array.isArray(caps))
      throw new GatewayError(
        'INVALID_REQUEST_META',
        `Invalid params: _meta["${META_CLIENT_CAPABILITIES}"] is required`,
      );
    checkModernHeaders(headers, metaVersion, method, params);
    if (!isModernVersion(metaVersion))
      throw new GatewayError('UNSUPPORTED_PROTOCOL_VERSION', 'Unsupported protocol version', {
        supported: SUPPORTED_VERSIONS,
        requested: metaVersion,
      });
    return { era: 'modern', version: metaVersion };
  }
  if (method === 'initialize') return { era: 'legacy', version: DEFAULT_HEADERLESS_VERSION };
  const version = headerVersion ?? DEFAULT_HEADERLESS_VERSION;
  if (!isLegacyVersion(version))
    throw new GatewayError(
      'UNSUPPORTED_PROTOCOL_VERSION',
      `Bad Request: unsupported MCP-Protocol-Version '${version.slice(0, 40)}'`,
      { supported: SUPPORTED_VERSIONS, requested: version },
    );
  return { era: 'legacy', version };
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
