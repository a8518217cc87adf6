// Identity headers for a backend call. Whatever the mode, the caller's own copies of these headers were
// stripped before (only declared tool parameters ever become upstream headers), so a backend that trusts
// exactly one of these mechanisms cannot be fooled by a client.
import type { AssertionSigner } from '../auth/assertion/sign.js';
import type { IdentityForwardingConfig } from './config.js';

export const USER_ID_HEADER = 'X-User-Id';
export const APPLICATION_HEADER = 'X-Toolgate-Application';
export const GATEWAY_KEY_HEADER = 'X-Toolgate-Gateway-Key';
export const ASSERTION_HEADER = 'X-Toolgate-Identity';

/** Header names a client must never be able to set on an upstream request (lower case). */
export const RESERVED_UPSTREAM_HEADERS: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'ocp-apim-subscription-key',
  'x-user-id',
  'x-toolgate-application',
  'x-toolgate-gateway-key',
  'x-toolgate-identity',
];

/** True for headers that are identity-bearing: reserved names and any X-User-* header. */
export function isIdentityHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    RESERVED_UPSTREAM_HEADERS.includes(lower) ||
    lower.startsWith('x-user-') ||
    lower.startsWith('x-toolgate-')
  );
}

export interface ForwardingCaller {
  /** The user id (JWT subject), or "anonymous". */
  readonly userId: string;
  /** The verified user's claims; null for anonymous callers. */
  readonly claims: Readonly<Record<string, unknown>> | null;
  readonly application: string;
  /** The caller's original Authorization header (used only in passthrough mode). */
  readonly authorization?: string | undefined;
}

export interface ForwardingContext {
  readonly config: IdentityForwardingConfig;
  /** The backend's identifier (assertion audience default). */
  readonly backendBaseUrl: string;

  /** The gateway's public URL (assertion issuer). */
  readonly gatewayUrl: string;
  readonly signer?: AssertionSigner;
}

export async function identityHeaders(
  caller: ForwardingCaller,
  ctx: ForwardingContext,
): Promise<Record<string, string>> {
  const { config } = ctx;
  const claims = forwardedClaims(caller.claims, config.claims);
  switch (config.mode) {
    case 'headers': {
      const headers: Record<string, string> = {
        [USER_ID_HEADER]: caller.userId,
        [APPLICATION_HEADER]: caller.application,
        ...claims,
      };
      if (config.sharedSecret !== undefined) headers[GATEWAY_KEY_HEADER] = config.sharedSecret;
      return headers;
    }
    case 'assertion': {
      if (!ctx.signer) throw new Error('assertion forwarding needs the gateway signing key');
      const user = caller.claims ?? {};
      const assertion = await ctx.signer.signAssertion({
        issuer: ctx.gatewayUrl,
        // One service, one audience: its origin, whatever API path of it the tool belongs to.
        audience: config.audience ?? new URL(ctx.backendBaseUrl).origin,
        subject: caller.userId,
        ttlSeconds: config.assertionTtlSeconds,
        claims: {
          app: caller.application,
          ...Object.fromEntries(
            Object.keys(config.claims)
              .filter((c) => user[c] !== undefined)
              .map((c) => [c, user[c]]),
          ),
        },
      });
      return { [ASSERTION_HEADER]: assertion };
    }
    case 'passthrough': {
      const headers: Record<string, string> = { [APPLICATION_HEADER]: caller.application };
      if (caller.claims !== null && caller.authorization !== undefined)
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
