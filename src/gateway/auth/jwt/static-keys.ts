// Statically configured verification keys: JWK (public, or "oct" for explicitly enabled HS*) or PEM
// (SPKI public key or X.509 certificate). Checked when the verifier is built (private material, HMAC key
// length, importability), then selected by jose: the asymmetric keys form a local JSON Web Key Set; HMAC
// secrets, which jose keeps out of key sets, are picked here by kid and alg.
import { createPublicKey, type JsonWebKey } from 'node:crypto';
import { createLocalJWKSet, errors, type JWK } from 'jose';
import { AuthError } from './errors.js';
import type { StaticKeyConfig } from '../../../config/gateway-jwt.js';
import { carriesPrivateKey, selectKey, type KeySource } from './key-entry.js';

/** A checked static key: its public JWK (or HMAC secret) with the configured kid and alg applied. */
export interface StaticKey {
  readonly kid: string | undefined;
  readonly alg: string | undefined;
  readonly jwk: JWK;
}

const MIN_HMAC_BYTES: Record<string, number> = { HS256: 32, HS384: 48, HS512: 64 };

function pemToJwk(pem: string, index: number): JWK {
  try {
    // createPublicKey accepts both "PUBLIC KEY" (SPKI) and "CERTIFICATE" PEM blocks.
    if (/PRIVATE KEY-----/.test(pem)) throw new Error('private key');
    return createPublicKey(pem).export({ format: 'jwk' }) as JWK;
  } catch {
    throw new AuthError(
      'CONFIG_INVALID',
      `gateway.auth.jwt.staticKeys.${index}.pem: not a PEM public key or X.509 certificate`,
    );
  }
}

export function loadStaticKeys(configs: readonly StaticKeyConfig[]): StaticKey[] {
  return configs.map((config, index) => {
    const where = `gateway.auth.jwt.staticKeys.${index}`;
    const source = config.pem !== undefined ? pemToJwk(config.pem, index) : (config.jwk as JWK);
    if (typeof source.kty !== 'string')
      throw new AuthError('CONFIG_INVALID', `${where}.jwk: "kty" is required`);
    if (source.kty !== 'oct' && carriesPrivateKey(source))
      throw new AuthError(
        'CONFIG_INVALID',
        `${where}: contains private key material; configure the public key only`,
      );
    if (source.kty === 'oct') {
      const minBytes = config.alg ? (MIN_HMAC_BYTES[config.alg] ?? 32) : 32;
      const bytes = typeof source.k === 'string' ? Buffer.from(source.k, 'base64url').length : 0;
      if (bytes < minBytes)
        throw new AuthError(
          'CONFIG_INVALID',
          `${where}: symmetric key must be at least ${minBytes} bytes (RFC 7518 §3.2)`,
        );
    } else {
      try {
        createPublicKey({ key: source as JsonWebKey, format: 'jwk' });
      } catch {
        throw new AuthError('CONFIG_INVALID', `${where}: key cannot be imported`);
      }
    }
    const kid = config.kid ?? source.kid;
    const alg = config.alg ?? source.alg;
    const jwk: JWK = { ...source };
    if (kid === undefined) delete jwk.kid;
    else jwk.kid = kid;
    if (alg === undefined) delete jwk.alg;
    else jwk.alg = alg;
    return { kid, alg, jwk };
  });
}

const NOT_FOUND = 'no configured key matches the token';

export function createStaticKeySource(configs: readonly StaticKeyConfig[]): KeySource {
  const keys = loadStaticKeys(configs);
  const asymmetric = createLocalJWKSet({
    keys: keys.filter((k) => k.jwk.kty !== 'oct').map((k) => k.jwk),
  });
  const secrets = keys
    .filter(({ jwk }) => jwk.kty === 'oct' && (jwk.use ?? 'sig') === 'sig')
    .filter(({ jwk }) => jwk.key_ops === undefined || jwk.key_ops.includes('verify'))
    .map((k) => ({ kid: k.kid, alg: k.alg, secret: Buffer.from(String(k.jwk.k), 'base64url') }));
  return async (header) => {
    if (!header.alg?.startsWith('HS')) return selectKey(asymmetric, header, NOT_FOUND);
    const fitting = secrets.filter(
      (s) =>
        (header.kid === undefined || s.kid === header.kid) &&
        (s.alg === undefined || s.alg === header.alg),
    );
    const [only] = fitting;
    if (only === undefined) throw new AuthError('KEY_NOT_FOUND', NOT_FOUND);
    if (fitting.length === 1) return only.secret;
    // As jose does for a key set: every candidate, for the verifier to try in turn.
    throw Object.assign(new errors.JWKSMultipleMatchingKeys(), {
      async *[Symbol.asyncIterator]() {
        for (const s of fitting) yield s.secret;
      },
    });
  };
}
