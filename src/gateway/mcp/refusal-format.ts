// How the gateway answers refusals made before any route runs (src/shared/http/refusals.ts): on the MCP
// endpoint a JSON-RPC error object with the gateway's code (id null: the message was never read), the
// refusal's code as `data.reason`; anywhere else (probes, metadata) the shared problem+json.
import { GatewayError, type GatewayErrorCode } from '../errors.js';
import {
  problemRefusal,
  type RefusalCode,
  type RefusalRenderer,
} from '../../shared/http/refusals.js';
import { errorResponse } from './dispatch.js';

const GATEWAY_CODE: Readonly<Record<RefusalCode, GatewayErrorCode>> = {
  HEADERS_TOO_LARGE: 'HEADERS_TOO_LARGE',
  MALFORMED_REQUEST: 'INVALID_REQUEST',
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  BAD_URL: 'INVALID_REQUEST',
  URI_TOO_LONG: 'URI_TOO_LONG',
  SHUTTING_DOWN: 'SHUTTING_DOWN',
};

export function mcpRefusalRenderer(mcpPath: string): RefusalRenderer {
  return (refusal, path) => {
    // The MCP endpoint and the tool bundles' endpoints under it (`<mcp.path>/<name>`).
    if (path !== mcpPath && !path?.startsWith(`${mcpPath}/`)) return problemRefusal(refusal, path);
    const error = new GatewayError(GATEWAY_CODE[refusal.code], refusal.message, {
      reason: refusal.code,
    });
    return {
      contentType: 'application/json',
      body: JSON.stringify(errorResponse(null, error).response),
    };
  };
}
