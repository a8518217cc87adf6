// Which headers carry the caller's identity to a backend (built from configuration by create-gateway.ts,
// see src/gateway/forwarding). Client-supplied identity headers are never passed through: the upstream
// request is built from scratch from declared parameters only.
import type { Caller } from '../caller.js';
import type { Tool } from '../catalogue/types.js';

export type IdentityHeaders = Readonly<Record<string, string>>;

export type IdentityForwarder = (caller: Caller, tool: Tool) => Promise<IdentityHeaders>;
