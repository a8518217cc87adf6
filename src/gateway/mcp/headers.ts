// 2026-07-28 Streamable HTTP "Request Metadata": MCP-Protocol-Version, Mcp-Method and Mcp-Name must be
// present and match the body (HeaderMismatch -32020 otherwise). Mcp-Name may be Base64-sentinel encoded.
import { GatewayError } from '../errors.js';

const SENTINEL = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/;
const NAME_METHODS: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

export function decodeHeaderValue(value: string): string {
  const match = SENTINEL.exec(value);
  return match ? Buffer.from(match[1] ?? '', 'base64').toString('utf8') : value;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function checkModernHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  metaVersion: string,
  method: string,
  params: Record<string, unknown>,
): void {
  const version = single(headers['mcp-protocol-version']);
  if (version === undefined) throw mismatch('required header MCP-Protocol-Version is missing');
  if (version !== metaVersion)
    throw mismatch(
      `MCP-Protocol-Version header value '${version}' does not match body value '${metaVersion}'`,
    );
  const headerMethod = single(headers['mcp-method']);
  if (headerMethod === undefined) throw mismatch('required header Mcp-Method is missing');
  if (headerMethod !== method)
    throw mismatch(
      `Mcp-Method header value '${headerMethod}' does not match body value '${method}'`,
    );
  const field = NAME_METHODS[method];
  if (field === undefined) return;
  const bodyValue = params[field];
  if (typeof bodyValue !== 'string') return;
  const raw = single(headers['mcp-name']);
  if (raw === undefined) throw mismatch('required header Mcp-Name is missing');
  const decoded = decodeHeaderValue(raw);
  if (decoded !== bodyValue)
    throw mismatch(`Mcp-Name header value '${decoded}' does not match body value '${bodyValue}'`);
}

function mismatch(detail: string): GatewayError {
  return new GatewayError('HEADER_MISMATCH', `Header mismatch: ${detail.slice(0, 300)}`);
}
