// MCP tool annotations derived from the HTTP method and name, overridable with `x-mcp-annotations`.
import type { HttpMethod, JsonObject, ToolAnnotations } from './types.js';

const DESTRUCTIVE = /(cancel|delete|remove|destroy|purge|revoke|terminate)/i;
const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

export function annotationsFor(
  method: HttpMethod,
  operationId: string | undefined,
  path: string,
  extension: unknown,
): ToolAnnotations {
  const readOnly = method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
  const lastSegment = path.split('/').filter(Boolean).pop() ?? '';
  const destructive =
    !readOnly && (method === 'DELETE' || DESTRUCTIVE.test(operationId ?? lastSegment));
  const base: Record<string, unknown> = {
    readOnlyHint: readOnly,
    destructiveHint: destructive,
    idempotentHint: readOnly || method === 'PUT' || method === 'DELETE',
  };
  if (typeof extension === 'object' && extension !== null && !Array.isArray(extension)) {
    const ext = extension as JsonObject;
    for (const hint of HINTS) if (typeof ext[hint] === 'boolean') base[hint] = ext[hint];
    if (typeof ext.title === 'string') base.title = ext.title;
  }
  return base as ToolAnnotations;
}
