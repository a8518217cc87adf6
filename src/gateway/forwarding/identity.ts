// Identity headers for a backend call. Whatever the mode, the caller's own copies of these headers were
// stripped before (only declared tool parameters ever become upstream headers, and the catalogue never
// makes an identity-bearing header a parameter: catalogue/operation.ts, isIdentityHeader), so a backend
// that trusts exactly one of these mechanisms cannot be fooled by a client.
import type { AssertionSigner } from '../auth/assertion/sign.js';
import type { IdentityForwardingConfig } from './config.js';
import type { DeepReadonly } from '../../config/deep-readonly.js';
import { subjectOf, type Caller } from '../caller.js';

export const USER_ID_HEADER = 'X-User-Id';
export const APPLICATION_HEADER = 'X-Toolgate-Application';
export const GATEWAY_KEY_HEADER = 'X-Toolgate-Gateway-Key';
export const ASSERTION_HEADER = 'X-Toolgate-Identity';

export interface ForwardingContext {
  readonly config: DeepReadonly<IdentityForwardingConfig>;
  /** The backend's identifier (assertion audience default). */
  readonly backendBaseUrl: string;

  /** The gateway's public URL (assertion issuer). */
  readonly gatewayUrl: string;
  readonly signer?: AssertionSigner;
}

export async function identityHeaders(
  caller: Caller,
  ctx: ForwardingContext,
): Promise<Record<string, string>> {
  const { config } = ctx;
  const claims = forwardedClaims(caller.user?.claims ?? null, config.claims);
  const application = caller.subscription.application;
  switch (config.mode) {
    case 'headers': {
      const headers: Record<string, string> = {
        [USER_ID_HEADER]: subjectOf(caller),
        [APPLICATION_HEADER]: application,
        ...claims,
      };
      if (config.sharedSecret !== undefined) headers[GATEWAY_KEY_HEADER] = config.sharedSecret;
      return headers;
    }
    case 'assertion': {
      if (!ctx.signer) throw new Error('assertion forwarding needs the gateway signing key');
      const user = caller.user?.claims ?? {};
      const assertion = await ctx.signer.signAssertion({
        issuer: ctx.gatewayUrl,
        // One service, one audience: its origin, whatever API path of it the tool belongs to.
        audience: config.audience ?? new URL(ctx.backendBaseUrl).origin,
        subject: subjectOf(caller),
        ttlSeconds: config.assertionTtlSeconds,
        claims: {
          app: application,
          ...Object.fromEntries(
            Object.keys(config.claims)
              .filter((c) => user[c] !== undefined)
              .map((c) => [c, user[c]]),
          ),
        },
      });
      return { [ASSERTION_HEADER]: assertion };
    }
    case 'none':
      return {};
    case 'token-exchange':
    case 'delegation':
      // Upstream MCP servers only (config/gateway-federation.ts): resolved per call by the federation's
      // upstream identity, which needs the network and the user's stored tokens.
      throw new Error(`identity mode ${config.mode} is resolved by the federation, not here`);
    case 'passthrough': {
      const headers: Record<string, string> = { [APPLICATION_HEADER]: application };
      if (caller.user !== null && caller.authorization !== undefined)
        headers.Authorization = caller.authorization;
      return headers;
    }
  }
}

function forwardedClaims(
  claims: Readonly<Record<string, unknown>> | null,
  mapping: Readonly<Record<string, string>>,
): Record<string, string> {
  if (claims === null) return {};
  const out: Record<string, string> = {};
  for (const [claim, header] of Object.entries(mapping)) {
    const value = claims[claim];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      // Header values must be one line of visible ASCII; anything else is dropped rather than mangled.
      const text = String(value);
      if (/^[\x20-\x7e]{1,1024}$/.test(text)) out[header] = text;
    }
  }
  return out;
}
