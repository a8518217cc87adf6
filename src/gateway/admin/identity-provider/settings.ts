// Identity-provider settings as the admin API validates and stores them (the stored shape and its meaning
// for the gateway: auth/stored-identity-settings.ts).
import { Type, type Static } from '@sinclair/typebox';
import {
  ASYMMETRIC_ALGORITHMS,
  SYMMETRIC_ALGORITHMS,
  type JwtConfig,
} from '../../../config/gateway-jwt.js';
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

/** How stored settings become the gateway's user-JWT configuration is the data plane's to say. */
export { jwtInputOf } from '../../auth/stored-identity-settings.js';

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
