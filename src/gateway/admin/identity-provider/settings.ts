// Identity-provider settings as the admin API stores them, and how they become the gateway's user-JWT
// configuration: the stored fields (mode, issuer, audience, discovery URL or static keys, algorithms,
// forwarded claims) replace those of `gateway.auth.jwt`; the file keeps the tuning the admin API does not
// offer (clock tolerance, token size and lifetime bounds, required claims, caches, discovery timeouts).
import { Type, type Static } from '@sinclair/typebox';
import {
  ASYMMETRIC_ALGORITHMS,
  SYMMETRIC_ALGORITHMS,
  type JwtConfig,
  type JwtConfigInput,
} from '../../../config/gateway-jwt.js';
import type { DeepReadonly } from '../../../config/schema.js';
import { stringEnum } from '../../../shared/json-schema/string-enum.js';

export const IDP_MODES = ['required', 'anonymous', 'conditional'] as const;

const HEADER_NAME = "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$";

export const IdpSettingsSchema = Type.Object(
  {
    mode: stringEnum(IDP_MODES),
    issuer: Type.String({ minLength: 1, maxLength: 2048 }),
    audience: Type.String({ minLength: 1, maxLength: 2048 }),
    discoveryUrl: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    jwks: Type.Optional(
      Type.Object(
        {
          keys: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
            minItems: 1,
            maxItems: 32,
          }),
        },
        { additionalProperties: false },
      ),
    ),
    algorithms: Type.Optional(
      Type.Array(stringEnum([...ASYMMETRIC_ALGORITHMS, ...SYMMETRIC_ALGORITHMS]), {
        minItems: 1,
        uniqueItems: true,
      }),
    ),
    forwardClaims: Type.Array(
      Type.Object(
        {
          claim: Type.String({ minLength: 1, maxLength: 64 }),
          header: Type.String({ pattern: HEADER_NAME }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 32, default: [] },
    ),
  },
  { additionalProperties: false },
);

export type IdpSettings = Static<typeof IdpSettingsSchema>;

/** The gateway.auth.jwt input the settings make, over the file's own slice (when it has one). */
export function jwtInputOf(
  settings: IdpSettings,
  file?: DeepReadonly<JwtConfigInput> | undefined,
): JwtConfigInput {
  const { discovery: fileDiscovery, ...tuning } = structuredClone(file ?? {}) as JwtConfigInput;
  delete tuning.staticKeys;
  delete tuning.algorithms;
  const { url: _fileUrl, ...discoveryTuning } = fileDiscovery ?? {};
  const input: JwtConfigInput = {
    ...tuning,
    mode: settings.mode,
    issuer: settings.issuer,
    audience: settings.audience,
    forwardClaims: Object.fromEntries(settings.forwardClaims.map((f) => [f.claim, f.header])),
  };
  if (settings.jwks !== undefined) input.staticKeys = settings.jwks.keys.map((jwk) => ({ jwk }));
  if (settings.discoveryUrl !== undefined || settings.jwks === undefined)
    input.discovery = {
      ...discoveryTuning,
      ...(settings.discoveryUrl === undefined ? {} : { url: settings.discoveryUrl }),
    };
  if (settings.algorithms !== undefined) input.algorithms = [...settings.algorithms];
  return input;
}

/** The settings an effective JwtConfig amounts to (the configuration file's, before any stored version). */
export function settingsOf(config: JwtConfig): IdpSettings {
  const settings: IdpSettings = {
    mode: config.mode,
    issuer: config.issuer,
    audience: config.audience,
    algorithms: [...config.algorithms],
    forwardClaims: Object.entries(config.forwardClaims).map(([claim, header]) => ({
      claim,
      header,
    })),
  };
  if (config.discovery !== undefined) settings.discoveryUrl = config.discovery.url;
  const jwks = config.staticKeys.flatMap((k) => (k.jwk === undefined ? [] : [{ ...k.jwk }]));
  if (jwks.length > 0) settings.jwks = { keys: jwks };
  return settings;
}
