// Federation (issue 28): upstream MCP servers as backends (`gateway.backends[].mcp`), how the user's
// identity reaches them (`gateway.backends[].identity` modes token-exchange and delegation), tool bundles
// served at `<mcp.path>/<name>` (`gateway.bundles`) and the key that encrypts delegated tokens
// (`gateway.federation`). docs/configuration.md, "Federating MCP servers".
import { Type, type Static } from '@sinclair/typebox';
import { ConfigError } from './errors.js';
import type { DeepReadonly } from './deep-readonly.js';

const HeaderName = Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$" });
const ToolName = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' });

/** Protocol revisions the gateway can speak to an upstream MCP server, newest first. */
export const UPSTREAM_REVISIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'] as const;

/** `gateway.backends[].mcp`: the backend is an MCP server the gateway is a client of (Streamable HTTP). */
export const McpUpstreamSchema = Type.Object(
  {
    url: Type.String({
      pattern: '^https?://',
      description: "the upstream's Streamable HTTP endpoint (e.g. http://127.0.0.1:3001/mcp)",
    }),
    headers: Type.Record(HeaderName, Type.String(), {
      default: {},
      // A key that is not a header name is refused, not ignored (a record's pattern alone allows any key).
      additionalProperties: false,
      description:
        'headers sent with every request to the upstream (its own credentials; may use ${env:NAME}); never forwarded from clients',
    }),
    protocolVersion: Type.Optional(
      Type.Union(
        UPSTREAM_REVISIONS.map((v) => Type.Literal(v)),
        {
          description:
            'pin the revision spoken to the upstream; absent: negotiated (2026-07-28 server/discover first, then initialize)',
        },
      ),
    ),
    toolPrefix: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]{0,32}$',
        description:
          'put before every upstream tool and prompt name (default: the backend name and "_"; "" for none)',
      }),
    ),
    listTtlMs: Type.Integer({
      minimum: 0,
      maximum: 86_400_000,
      default: 60_000,
      description:
        "how long the upstream's tool, resource and prompt lists are reused when the upstream gives no ttlMs of its own",
    }),
    securityClass: Type.Union(
      [Type.Literal('public'), Type.Literal('user-scoped'), Type.Literal('optional')],
      {
        default: 'optional',
        description:
          'the security class of every tool of this upstream (an MCP tool declares none): public, user-scoped (a user token is required) or optional',
      },
    ),
    resources: Type.Object(
      {
        approve: Type.Array(Type.String({ minLength: 1, maxLength: 2048 }), {
          default: [],
          maxItems: 256,
          description:
            'URI prefixes of the upstream resources offered through the gateway ("" approves every resource)',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    prompts: Type.Object(
      {
        approve: Type.Union([Type.Literal('all'), Type.Array(Type.String({ minLength: 1 }))], {
          default: [],
          description:
            "'all' or the prompts offered through the gateway (the upstream's names, without the prefix)",
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    maxSessions: Type.Integer({
      minimum: 1,
      maximum: 100_000,
      default: 1000,
      description:
        'upstream sessions kept open (one per distinct credential, for upstreams that require a session); the least recently used closes first',
    }),
  },
  { additionalProperties: false },
);

/** identity mode `token-exchange`: RFC 8693 at a configured authorization server. */
export const TokenExchangeSchema = Type.Object(
  {
    tokenEndpoint: Type.String({
      pattern: '^https?://',
      description: "the authorization server's token endpoint",
    }),
    clientId: Type.String({ minLength: 1 }),
    clientSecret: Type.String({
      minLength: 1,
      description: 'client_secret_basic; may use ${env:NAME}',
    }),
    audience: Type.Optional(
      Type.String({ minLength: 1, description: 'the RFC 8693 audience parameter' }),
    ),
    resource: Type.Optional(
      Type.String({
        pattern: '^https?://',
        description: 'the RFC 8693 resource parameter (the upstream URL)',
      }),
    ),
    scope: Type.Optional(Type.String({ minLength: 1 })),
    timeoutMs: Type.Integer({ minimum: 100, maximum: 60_000, default: 5000 }),
  },
  { additionalProperties: false },
);

/** identity mode `delegation`: the user signs in at the upstream's own authorization server, once. */
export const DelegationSchema = Type.Object(
  {
    issuer: Type.String({
      pattern: '^https?://',
      description: "the upstream's authorization server (OpenID Connect / RFC 8414 discovery)",
    }),
    clientId: Type.String({ minLength: 1 }),
    clientSecret: Type.Optional(Type.String({ minLength: 1 })),
    scopes: Type.Array(Type.String({ pattern: '^[\\x21\\x23-\\x5B\\x5D-\\x7E]+$' }), {
      default: [],
      maxItems: 32,
    }),
    resource: Type.Optional(
      Type.String({
        pattern: '^https?://',
        description: 'RFC 8707 resource indicator sent with the authorization request',
      }),
    ),
    timeoutMs: Type.Integer({ minimum: 100, maximum: 60_000, default: 5000 }),
  },
  { additionalProperties: false },
);

/** A tool bundle: a chosen set of tools served at `<mcp.path>/<name>`. */
export const BundleSchema = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
    instructions: Type.Optional(Type.String({ minLength: 1, maxLength: 8192 })),
    tools: Type.Array(
      Type.String({
        pattern: '^([A-Za-z0-9_-]{1,64}|backend:[A-Za-z0-9_-]{1,32}|product:[A-Za-z0-9_-]{1,64})$',
      }),
      {
        maxItems: 1000,
        description:
          'tool names, "backend:NAME" (every tool of that backend) or "product:NAME" (every tool of that product)',
      },
    ),
    resources: Type.Array(Type.String({ maxLength: 2048 }), {
      default: [],
      maxItems: 256,
      description: 'URI prefixes of the resources the bundle offers (of those approved)',
    }),
    prompts: Type.Array(ToolName, {
      default: [],
      maxItems: 1000,
      description: 'prompt names (as the gateway lists them) the bundle offers',
    }),
  },
  { additionalProperties: false },
);

export const BundlesSchema = Type.Record(
  Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,31}$' }),
  BundleSchema,
  {
    default: {},
    additionalProperties: false,
    description: 'tool bundles (virtual servers), each served at <gateway.mcp.path>/<name>',
  },
);

export const FederationSchema = Type.Object(
  {
    tokenKey: Type.Optional(
      Type.String({
        minLength: 32,
        description:
          "key (HKDF input) that encrypts the users' delegated upstream tokens at rest; the same on every replica. Required when a backend uses identity mode delegation",
      }),
    ),
  },
  { additionalProperties: false, default: {} },
);

/** Spread into GatewaySchema: `gateway.bundles` and `gateway.federation`. */
export const GatewayFederationProperties = { bundles: BundlesSchema, federation: FederationSchema };

export type McpUpstreamConfig = DeepReadonly<Static<typeof McpUpstreamSchema>>;
export type TokenExchangeConfig = DeepReadonly<Static<typeof TokenExchangeSchema>>;
export type DelegationConfig = DeepReadonly<Static<typeof DelegationSchema>>;
export type BundleConfig = DeepReadonly<Static<typeof BundleSchema>>;
export type FederationConfig = DeepReadonly<Static<typeof FederationSchema>>;

/** The default tool prefix of an upstream MCP backend: its name and "_". */
export function toolPrefixOf(backend: {
  readonly name: string;
  readonly mcp?: { readonly toolPrefix?: string | undefined } | undefined;
}): string {
  return backend.mcp?.toolPrefix ?? `${backend.name}_`;
}

interface BackendShape {
  readonly name: string;
  readonly baseUrl?: string | undefined;
  readonly openapi?: unknown;
  readonly mcp?: unknown;
  readonly identity: {
    readonly mode: string;
    readonly tokenExchange?: unknown;
    readonly delegation?: unknown;
  };
}

/**
 * What the schema cannot check: a backend is OpenAPI (`openapi` and `baseUrl`) or MCP (`mcp`), never both;
 * the identity modes for MCP upstreams name their settings; delegation has a key to encrypt tokens with;
 * bundle names do not collide and name backends that exist.
 */
export function checkFederationConfig(gateway: {
  readonly backends: readonly BackendShape[];
  readonly bundles: Readonly<Record<string, BundleConfig>>;
  readonly federation: FederationConfig;
  readonly products: Readonly<Record<string, readonly string[]>>;
}): void {
  const names = new Set<string>();
  gateway.backends.forEach((backend, i) => {
    const at = `gateway.backends[${i}] (${backend.name})`;
    if (names.has(backend.name))
      throw new ConfigError(`${at}: the name ${backend.name} is used twice`);
    names.add(backend.name);
    const isMcp = backend.mcp !== undefined;
    if (isMcp && backend.openapi !== undefined)
      throw new ConfigError(`${at}: has both openapi and mcp; a backend is one or the other`);
    if (!isMcp && backend.openapi === undefined)
      throw new ConfigError(`${at}: needs openapi (an HTTP API) or mcp (an upstream MCP server)`);
    if (!isMcp && backend.baseUrl === undefined)
      throw new ConfigError(`${at}.baseUrl: required for an OpenAPI backend`);
    const mode = backend.identity.mode;
    if ((mode === 'token-exchange' || mode === 'delegation') && !isMcp)
      throw new ConfigError(`${at}.identity.mode: ${mode} is for upstream MCP servers (mcp) only`);
    if (mode === 'token-exchange' && backend.identity.tokenExchange === undefined)
      throw new ConfigError(`${at}.identity.tokenExchange: required with mode token-exchange`);
    if (mode === 'delegation' && backend.identity.delegation === undefined)
      throw new ConfigError(`${at}.identity.delegation: required with mode delegation`);
    if (mode === 'delegation' && gateway.federation.tokenKey === undefined)
      throw new ConfigError(
        `gateway.federation.tokenKey: required because ${at} uses identity mode delegation (it encrypts the users' upstream tokens)`,
      );
  });
  for (const [name, bundle] of Object.entries(gateway.bundles)) {
    bundle.tools.forEach((entry, i) => {
      const at = `gateway.bundles.${name}.tools[${i}]`;
      if (entry.startsWith('backend:') && !names.has(entry.slice('backend:'.length)))
        throw new ConfigError(`${at}: no backend is named ${entry.slice('backend:'.length)}`);
      if (
        entry.startsWith('product:') &&
        gateway.products[entry.slice('product:'.length)] === undefined
      )
        throw new ConfigError(`${at}: no product is named ${entry.slice('product:'.length)}`);
    });
  }
}
