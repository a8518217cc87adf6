// The identity-forwarding seam: which headers carry the caller's identity to a backend (see
// src/gateway/forwarding). Client-supplied identity headers are never passed through: the upstream request
// is built from scratch from declared parameters only.
import type { Tool } from '../catalogue/types.js';
import type { RequestContext } from '../mcp/request-context.js';

export type IdentityHeaders = Readonly<Record<string, string>>;

export type IdentityForwarder = (
  context: RequestContext,
  tool: Tool,
) => IdentityHeaders | Promise<IdentityHeaders>;

export const forwardNoIdentity: IdentityForwarder = () => ({});
