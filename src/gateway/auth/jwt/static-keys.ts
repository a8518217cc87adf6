// Statically configured verification keys: JWK (public, or "oct" for explicitly enabled HS*) or PEM
// (SPKI public key or X.509 certificate). Several keys may be configured; selection is by kid and
// by key type fitting the token's alg.
import { createPublicKey, type JsonWebKey } from 'node:crypto';
import type { JWK } from 'jose';
import { AuthError } from './errors.js';
import type { StaticKeyConfig } from '../../../config/gateway-jwt.js';
import { matches, publicOnly, type KeyEntry, type KeyQuery, type KeySource } from './key-entry.js';

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

export function loadStaticKeys(configs: readonly StaticKeyConfig[]): KeyEntry[] {
  return configs.map((config, index) => {
    const where = `gateway.auth.jwt.staticKeys.${index}`;
    const source = config.pem !== undefined ? pemToJwk(config.pem, index) : (config.jwk as JWK);
    if (typeof source.kty !== 'string')
      throw new AuthError('CONFIG_INVALID', `${where}.jwk: "kty" is required`);
    const jwk = publicOnly(source);
    if (!jwk)
      throw new AuthError(
        'CONFIG_INVALID',
        `${where}: contains private key material; configure the public key only`,
      );
    if (jwk.kty === 'oct') {
      const minBytes = config.alg ? (MIN_HMAC_BYTES[config.alg] ?? 32) : 32;
      const bytes = typeof jwk.k === 'string' ? Buffer.from(jwk.k, 'base64url').length : 0;
      if (bytes < minBytes)
        throw new AuthError(
          'CONFIG_INVALID',
          `${where}: symmetric key must be at least ${minBytes} bytes (RFC 7518 §3.2)`,
        );
    }
    const kid = config.kid ?? jwk.kid;
    const alg = config.alg ?? jwk.alg;
    try {
      createPublicKeyCheck(jwk);
    } catch {
      throw new AuthError('CONFIG_INVALID', `${where}: key cannot be imported`);
    }
    return { kid, alg, jwk, imported: new Map() };
  });
}

function createPublicKeyCheck(jwk: JWK): void {
  if (jwk.kty === 'oct') return;
  createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
}

export function createStaticKeySource(configs: readonly StaticKeyConfig[]): KeySource {
  const entries = loadStaticKeys(configs);
  return {
    getKeys(query: KeyQuery): Promise<KeyEntry[]> {
      const found = entries.filter((e) => matches(e, query));
      if (found.length === 0)
        return Promise.reject(
          new AuthError('KEY_NOT_FOUND', 'no configured key matches the token'),
        );
      return Promise.resolve(found);
    },
  };
}
