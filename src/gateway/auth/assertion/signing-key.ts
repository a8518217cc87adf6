// The gateway's own signing key for identity assertions: ES256 (default) or EdDSA, from configuration
// (a private JWK) or generated at startup. kid = RFC 7638 JWK thumbprint of the public key.
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type CryptoKey,
} from 'jose';
import { AuthError } from '../jwt/errors.js';

export type AssertionAlgorithm = 'ES256' | 'EdDSA';

export interface GatewaySigningKey {
  alg: AssertionAlgorithm;
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export interface SigningKeyOptions {
  /** Private JWK (EC P-256 or OKP Ed25519). When absent a fresh key pair is generated. */
  privateJwk?: JWK;
  alg?: AssertionAlgorithm;
}

function algFor(jwk: JWK, requested: AssertionAlgorithm | undefined): AssertionAlgorithm {
  const alg = requested ?? (jwk.kty === 'OKP' ? 'EdDSA' : 'ES256');
  const fits =
    (alg === 'ES256' && jwk.kty === 'EC' && jwk.crv === 'P-256') ||
    (alg === 'EdDSA' && jwk.kty === 'OKP' && jwk.crv === 'Ed25519');
  if (!fits || typeof jwk.d !== 'string')
    throw new AuthError(
      'CONFIG_INVALID',
      'assertion signing key must be a private EC P-256 (ES256) or Ed25519 (EdDSA) JWK',
    );
  return alg;
}

export function toPublicJwk(jwk: JWK): JWK {
  const { kty, crv, x, y } = jwk;
  const pub: JWK = { kty };
  if (crv !== undefined) pub.crv = crv;
  if (x !== undefined) pub.x = x;
  if (y !== undefined) pub.y = y;
  return pub;
}

export async function loadSigningKey(options: SigningKeyOptions = {}): Promise<GatewaySigningKey> {
  let privateJwk = options.privateJwk;
  let alg = options.alg ?? 'ES256';
  if (privateJwk === undefined) {
    const pair = await generateKeyPair(alg, { extractable: true });
    privateJwk = await exportJWK(pair.privateKey);
  } else {
    alg = algFor(privateJwk, options.alg);
  }
  const base = toPublicJwk(privateJwk);
  const kid = await calculateJwkThumbprint(base, 'sha256');
  const privateKey = (await importJWK({ ...privateJwk, alg }, alg)) as CryptoKey;
  return { alg, kid, privateKey, publicJwk: { ...base, kid, alg, use: 'sig' } };
}

/** A JWKS with only the public key, for the gateway's JWKS URL. */
export function publicJwksOf(key: GatewaySigningKey): { keys: JWK[] } {
  return { keys: [{ ...key.publicJwk }] };
}
