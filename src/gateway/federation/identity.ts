// What one call to an upstream MCP server carries about the caller, per the backend's `identity.mode`
// (docs/configuration.md, "Federating MCP servers"):
//   none            nothing about the user;
//   headers         the identity headers HTTP backends get (X-User-Id & co., the shared gateway key);
//   assertion       the gateway-signed assertion HTTP backends get, its audience the upstream's origin;
//   passthrough     the caller's own Authorization header, only when the token was issued for the upstream
//                   too (its `aud` names the upstream's resource): RFC 8707 audience restriction and the MCP
//                   security best practice that forbids passing a token on to a server it was not meant for;
//   token-exchange  an RFC 8693 token for the user (provider built elsewhere: federation/token-exchange);
//   delegation      the user's own token at the upstream's authorization server, or the sign-in to get it.
// The upstream's own configured `mcp.headers` are the client's business (mcp-client.ts), never here. Nothing
// the client sent is passed on except, in passthrough mode, the one Authorization header checked here.
import type { DeepReadonly } from '../../config/deep-readonly.js';
import { ConfigError } from '../../config/errors.js';
import type { BackendConfig } from '../../config/gateway-mcp.js';
import type { AssertionSigner } from '../auth/assertion/sign.js';
import type { Caller } from '../caller.js';
import { identityHeaders } from '../forwarding/identity.js';
import type { UpstreamCredentials, UpstreamIdentity } from './contracts.js';

/** An upstream MCP backend as configured (`gateway.backends[]` with `mcp`). */
export type FederatedBackend = DeepReadonly<BackendConfig> & {
  readonly mcp: NonNullable<DeepReadonly<BackendConfig>['mcp']>;
};

/** Credentials that need the network or the user's stored tokens: built by other modules, passed in. */
export type CredentialProvider = (
  caller: Caller,
  backend: FederatedBackend,
) => Promise<UpstreamCredentials>;

export interface CredentialProviders {
  /** identity mode `token-exchange` (RFC 8693). */
  readonly tokenExchange?: CredentialProvider | undefined;
  /** identity mode `delegation` (the user's own upstream token, or the sign-in). */
  readonly delegation?: CredentialProvider | undefined;
}

export interface UpstreamIdentityOptions {
  readonly backends: readonly DeepReadonly<BackendConfig>[];
  /** The gateway's public URL (assertion issuer). */
  readonly gatewayUrl: string;
  readonly signer?: AssertionSigner | undefined;
  /** Claims forwarded to every backend (the identity-provider settings in force, read per call). */
  readonly forwardClaims?: (() => Readonly<Record<string, string>>) | undefined;
  readonly providers?: CredentialProviders | undefined;
}

/**
 * A call the gateway will not make with the caller's identity (a token for another audience), or whose
 * credentials could not be had: the message is shown to the caller as a tool error.
 */
export class UpstreamIdentityRefused extends Error {
  constructor(
    readonly backend: string,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamIdentityRefused';
  }
}

/**
 * The credentials of each call to an upstream MCP backend. Throws ConfigError at startup when a mode cannot
 * be served (assertion without the signing key, token-exchange or delegation without their provider).
 */
export function upstreamIdentity(options: UpstreamIdentityOptions): UpstreamIdentity {
  const backends = new Map<string, FederatedBackend>();
  options.backends.forEach((backend, i) => {
    if (backend.mcp === undefined) return;
    const at = `gateway.backends[${i}] (${backend.name}).identity.mode`;
    const mode = backend.identity.mode;
    if (mode === 'assertion' && options.signer === undefined)
      throw new ConfigError(`${at}: assertion needs the gateway's signing key, and none is loaded`);
    if (mode === 'token-exchange' && options.providers?.tokenExchange === undefined)
      throw new ConfigError(
        `${at}: token-exchange is configured but this gateway has no token exchange`,
      );
    if (mode === 'delegation' && options.providers?.delegation === undefined)
      throw new ConfigError(
        `${at}: delegation is configured but this gateway has no delegated sign-in`,
      );
    backends.set(backend.name, backend as FederatedBackend);
  });
  return async (caller, name) => {
    const backend = backends.get(name);
    if (backend === undefined)
      throw new Error(`upstream identity: ${name} is not an upstream MCP backend`);
    const identity = backend.identity;
    switch (identity.mode) {
      case 'none':
        return headers({});
      case 'headers':
      case 'assertion': {
        const forwardClaims = options.forwardClaims?.() ?? {};
        return headers(
          await identityHeaders(caller, {
            // Claims configured for all backends (gateway.auth.jwt.forwardClaims), then the backend's own.
            config: { ...identity, claims: { ...forwardClaims, ...identity.claims } },
            // The assertion's audience default: the upstream's origin, as for an HTTP backend's base URL.
            backendBaseUrl: backend.mcp.url,
            gatewayUrl: options.gatewayUrl,
            ...(options.signer === undefined ? {} : { signer: options.signer }),
          }),
        );
      }
      case 'passthrough':
        return headers(passthroughHeaders(caller, backend));
      case 'token-exchange':
        return provided(options.providers?.tokenExchange, caller, backend);
      case 'delegation':
        return provided(options.providers?.delegation, caller, backend);
    }
  };
}

/** The resource a passed-through token must be meant for: `identity.audience`, else the upstream's URL. */
export function upstreamResource(backend: FederatedBackend): string {
  return backend.identity.audience ?? backend.mcp.url;
}

/**
 * The caller's own Authorization header, only for a token whose audience includes the upstream's
 * resource; an anonymous caller sends none. Throws UpstreamIdentityRefused for a token meant for others.
 */
export function passthroughHeaders(
  caller: Caller,
  backend: FederatedBackend,
): Record<string, string> {
  if (caller.user === null || caller.authorization === undefined) return {};
  const resource = upstreamResource(backend);
  const audiences = audiencesOf(caller.user.claims.aud);
  if (!audiences.some((aud) => sameResource(aud, resource)))
    throw new UpstreamIdentityRefused(
      backend.name,
      `Your sign-in token is not meant for the service behind ${backend.name}: the token's audience (${audiences.length === 0 ? 'none' : audiences.join(', ')}) does not include ${backend.name}'s resource, and the gateway never passes a token on to a service it was not issued for (RFC 8707). Sign in with a token whose audience includes that resource, or ask the operator to configure token exchange for ${backend.name}. The upstream was not called.`,
    );
  return { Authorization: caller.authorization };
}

function audiencesOf(aud: unknown): string[] {
  if (typeof aud === 'string') return [aud];
  if (Array.isArray(aud)) return aud.filter((a): a is string => typeof a === 'string');
  return [];
}

/**
 * Whether an audience names the resource: equal, or the same URL once both are normalised (scheme and
 * host case, default port, a trailing slash). Never a prefix or the origin alone: a token for
 * https://a.example/x is not one for https://a.example/y.
 */
export function sameResource(audience: string, resource: string): boolean {
  if (audience === resource) return true;
  const a = normalised(audience);
  const b = normalised(resource);
  return a !== undefined && a === b;
}

function normalised(value: string): string | undefined {
  if (!/^https?:\/\//i.test(value)) return undefined;
  try {
    const url = new URL(value);
    if (url.username !== '' || url.password !== '' || url.hash !== '') return undefined;
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}${url.search}`;
  } catch {
    return undefined;
  }
}

async function provided(
  provider: CredentialProvider | undefined,
  caller: Caller,
  backend: FederatedBackend,
): Promise<UpstreamCredentials> {
  // Checked at startup; kept for the type.
  if (provider === undefined)
    throw new Error(`identity mode ${backend.identity.mode} has no provider`);
  return provider(caller, backend);
}

function headers(values: Readonly<Record<string, string>>): UpstreamCredentials {
  return { kind: 'headers', headers: values };
}
