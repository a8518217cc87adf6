// Configuration of user-JWT validation (`gateway.auth.jwt`): schema, defaults, and the checks a schema
// cannot express, giving the complete, frozen JwtConfig a verifier uses. loadConfig resolves the file's
// slice once (`config.resolved.jwt`); settings stored through the admin API are raw input, resolved by
// resolveJwtConfig when they are applied.
import { Type, type Static } from '@sinclair/typebox';
import { insecureUrlReason } from '../shared/secure-url.js';
import { ConfigError } from './errors.js';
import { validateAgainstSchema } from './validate.js';
import type { DeepReadonly } from './deep-readonly.js';

export const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;
export const SYMMETRIC_ALGORITHMS = ['HS256', 'HS384', 'HS512'] as const;
export type JwsAlgorithm =
  (typeof ASYMMETRIC_ALGORITHMS)[number] | (typeof SYMMETRIC_ALGORITHMS)[number];

const Algorithm = Type.Union(
  [...ASYMMETRIC_ALGORITHMS, ...SYMMETRIC_ALGORITHMS].map((a) => Type.Literal(a)),
);

export const StaticKeySchema = Type.Object(
  {
    kid: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    alg: Type.Optional(Algorithm),
    jwk: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    pem: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

export const DiscoverySchema = Type.Object(
  {
    url: Type.Optional(Type.String({ minLength: 1 })),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 60_000 })),
    cacheMaxAgeMs: Type.Optional(Type.Integer({ minimum: 1_000, maximum: 86_400_000 })),
    cooldownMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 3_600_000 })),
    staleIfErrorMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400_000 })),
    maxResponseBytes: Type.Optional(Type.Integer({ minimum: 1_024, maximum: 4_194_304 })),
  },
  { additionalProperties: false },
);

export const JwtConfigSchema = Type.Object(
  {
    mode: Type.Optional(
      Type.Union([
        Type.Literal('conditional'),
        Type.Literal('required'),
        Type.Literal('anonymous'),
      ]),
    ),
    issuer: Type.String({ minLength: 1 }),
    audience: Type.String({ minLength: 1 }),
    discovery: Type.Optional(DiscoverySchema),
    staticKeys: Type.Optional(Type.Array(StaticKeySchema, { maxItems: 32 })),
    algorithms: Type.Optional(Type.Array(Algorithm, { minItems: 1, uniqueItems: true })),
    clockToleranceSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 300 })),
    maxTokenBytes: Type.Optional(Type.Integer({ minimum: 256, maximum: 65_536 })),
    /** Longest accepted token lifetime (exp - iat) in seconds; 0 = no bound. */
    maxTokenLifetimeSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 31_536_000 })),
    requiredClaims: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    forwardClaims: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.String())),
    tokenCache: Type.Optional(
      Type.Object(
        {
          maxEntries: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
          maxAgeMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 3_600_000 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type JwtConfigInput = Static<typeof JwtConfigSchema>;
export type StaticKeyConfig = Static<typeof StaticKeySchema>;

export interface DiscoveryConfig {
  url: string;
  timeoutMs: number;
  cacheMaxAgeMs: number;
  cooldownMs: number;
  staleIfErrorMs: number;
  maxResponseBytes: number;
}

export interface JwtConfig {
  mode: 'conditional' | 'required' | 'anonymous';
  issuer: string;
  audience: string;
  /** Present when keys come from OIDC discovery (explicitly configured, or no static keys). */
  discovery: DiscoveryConfig | undefined;
  staticKeys: readonly DeepReadonly<StaticKeyConfig>[];
  algorithms: JwsAlgorithm[];
  clockToleranceSeconds: number;
  maxTokenBytes: number;
  /** Longest accepted `exp - iat` in seconds; undefined: no bound. */
  maxTokenLifetimeSeconds: number | undefined;
  requiredClaims: string[];
  forwardClaims: Record<string, string>;
  tokenCache: { maxEntries: number; maxAgeMs: number };
}

export const JWT_DEFAULTS = {
  mode: 'conditional',
  algorithms: [...ASYMMETRIC_ALGORITHMS],
  clockToleranceSeconds: 30,
  maxTokenBytes: 8192,
  requiredClaims: ['exp'],
  discovery: {
    timeoutMs: 5_000,
    cacheMaxAgeMs: 600_000,
    cooldownMs: 30_000,
    staleIfErrorMs: 3_600_000,
    maxResponseBytes: 262_144,
  },
  tokenCache: { maxEntries: 10_000, maxAgeMs: 60_000 },
} as const;

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

function invalid(path: string, problem: string): ConfigError {
  return new ConfigError(`gateway.auth.jwt${path}: ${problem}`);
}

/** The token lifetime bound in production when none is configured: one day. */
export const PRODUCTION_MAX_TOKEN_LIFETIME_SECONDS = 86_400;

/**
 * Validates raw configuration, applies defaults and returns a frozen, complete JwtConfig.
 * `defaultMaxTokenLifetimeSeconds` applies when the configuration names none (set in production).
 */
export function resolveJwtConfig(
  input: unknown,
  defaultMaxTokenLifetimeSeconds?: number,
): JwtConfig {
  if (typeof input === 'object' && input !== null && 'algorithms' in input) {
    const algs = (input as { algorithms: unknown }).algorithms;
    if (
      Array.isArray(algs) &&
      algs.some((a) => typeof a === 'string' && a.toLowerCase() === 'none')
    )
      throw invalid('.algorithms', '"none" is never accepted (RFC 8725 §3.1)');
  }
  return resolveCheckedJwtConfig(
    validateAgainstSchema(JwtConfigSchema, input, 'gateway.auth.jwt'),
    defaultMaxTokenLifetimeSeconds,
  );
}

/**
 * The development identity provider's settings: its issuer, the MCP URL as audience, every default
 * (`config.resolved` cannot hold them: both URLs follow from the port the gateway binds).
 */
export function developmentJwtConfig(issuer: string, audience: string): JwtConfig {
  return resolveCheckedJwtConfig({ issuer, audience });
}

/**
 * The checks a schema cannot express, then defaults: a complete, frozen JwtConfig. For a slice the schema
 * has already passed (loadConfig's, once); resolveJwtConfig validates raw input first.
 */
export function resolveCheckedJwtConfig(
  raw: DeepReadonly<JwtConfigInput>,
  defaultMaxTokenLifetimeSeconds?: number,
): JwtConfig {
  const staticKeys = raw.staticKeys ?? [];
  staticKeys.forEach((k, i) => {
    if ((k.jwk === undefined) === (k.pem === undefined))
      throw invalid(`.staticKeys.${i}`, 'exactly one of "jwk" or "pem" is required');
  });
  const algorithms = [...(raw.algorithms ?? JWT_DEFAULTS.algorithms)];
  const symmetric = algorithms.filter((a) => a.startsWith('HS'));
  if (symmetric.length > 0 && !staticKeys.some((k) => k.jwk?.['kty'] === 'oct'))
    throw invalid(
      '.algorithms',
      `${symmetric.join(', ')} listed but no static symmetric key ("kty": "oct") is configured`,
    );

  const requiredClaims = [
    ...new Set(['exp', ...(raw.requiredClaims ?? JWT_DEFAULTS.requiredClaims)]),
  ];
  const forwardClaims = { ...(raw.forwardClaims ?? {}) };
  for (const [claim, header] of Object.entries(forwardClaims)) {
    if (!HEADER_NAME.test(header))
      throw invalid(`.forwardClaims.${claim}`, `"${header}" is not a valid HTTP header name`);
  }

  let discovery: DiscoveryConfig | undefined;
  if (raw.discovery !== undefined || staticKeys.length === 0) {
    const d = raw.discovery ?? {};
    const url = d.url ?? `${raw.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const insecure = insecureUrlReason(url);
    if (insecure !== undefined) throw invalid('.discovery.url', insecure);
    discovery = { ...JWT_DEFAULTS.discovery, ...d, url };
  }

  return Object.freeze({
    mode: raw.mode ?? JWT_DEFAULTS.mode,
    issuer: raw.issuer,
    audience: raw.audience,
    discovery,
    staticKeys,
    algorithms,
    clockToleranceSeconds: raw.clockToleranceSeconds ?? JWT_DEFAULTS.clockToleranceSeconds,
    maxTokenBytes: raw.maxTokenBytes ?? JWT_DEFAULTS.maxTokenBytes,
    maxTokenLifetimeSeconds: lifetimeBound(
      raw.maxTokenLifetimeSeconds ?? defaultMaxTokenLifetimeSeconds,
    ),
    requiredClaims,
    forwardClaims,
    tokenCache: { ...JWT_DEFAULTS.tokenCache, ...(raw.tokenCache ?? {}) },
  });
}

function lifetimeBound(seconds: number | undefined): number | undefined {
  return seconds === undefined || seconds === 0 ? undefined : seconds;
}
