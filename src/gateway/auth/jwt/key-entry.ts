// The keys a verifier selects from. Selection and import are jose's: a JSON Web Key Set made with
// createLocalJWKSet picks the key by kid and alg, with a type and curve that fit the alg (RFC 8725 §3.1,
// no algorithm confusion) and use/key_ops that allow verifying, imports it once per alg and refuses private
// keys. A key source is jose's key resolver, handed to jwtVerify as it is. Here: that type, the filter
// every key set from outside goes through, how a failed selection becomes this library's error, and the
// fit rule admin validation reports with.
import {
  errors,
  type CompactJWSHeaderParameters,
  type CryptoKey,
  type FlattenedJWSInput,
  type JWK,
  type LocalJWKSet,
} from 'jose';
import { AuthError } from './errors.js';

/**
 * Resolves the key for a token from its protected header (a jose key resolver, JWTVerifyGetKey); throws
 * AuthError KEY_NOT_FOUND or JWKS_UNAVAILABLE, or jose's JWKSMultipleMatchingKeys, which yields every
 * candidate.
 */
export type KeySource = (
  header: CompactJWSHeaderParameters,
  token?: FlattenedJWSInput,
) => Promise<CryptoKey | Uint8Array>;

const MAX_KEYS = 100;
const ASYMMETRIC_KTY = new Set(['RSA', 'EC', 'OKP']);
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'priv'] as const;

/** Whether a JWK carries private key material. */
export function carriesPrivateKey(jwk: object): boolean {
  return PRIVATE_MEMBERS.some((member) => member in jwk);
}

/**
 * The keys of a set published by someone else (a provider's JWKS, the gateway's for a backend) that a
 * verifier may use: public asymmetric keys, at most 100. Symmetric and private keys are dropped, never
 * used (RFC 8725 §3.1: a published secret would let anyone sign). Throws JWKS_UNAVAILABLE without a
 * `keys` array.
 */
export function publicKeySet(body: unknown): { keys: JWK[] } {
  const keys = (body as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new AuthError('JWKS_UNAVAILABLE', 'JWKS has no "keys" array');
  return {
    keys: keys
      .slice(0, MAX_KEYS)
      .filter(
        (jwk): jwk is JWK =>
          typeof jwk === 'object' &&
          jwk !== null &&
          ASYMMETRIC_KTY.has((jwk as JWK).kty as string) &&
          !carriesPrivateKey(jwk as object),
      ),
  };
}

/**
 * The key `set` selects for the token: jose's choice, or AuthError KEY_NOT_FOUND with `notFound` when none
 * fits (or the alg has no place in a key set, as HS* in a published one). Several fitting keys are
 * jose's JWKSMultipleMatchingKeys, passed on for the verifier to try each.
 */
export async function selectKey(
  set: LocalJWKSet,
  header: CompactJWSHeaderParameters,
  notFound: string,
): Promise<CryptoKey> {
  try {
    return await set(header);
  } catch (error) {
    if (error instanceof errors.JWKSMultipleMatchingKeys) throw error;
    if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JOSENotSupported)
      throw new AuthError('KEY_NOT_FOUND', notFound);
    throw new AuthError('KEY_NOT_FOUND', 'no usable key matches the token', { cause: error });
  }
}

const EC_CURVE: Record<string, string> = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' };

/**
 * Whether a key's type (and curve) can verify signatures of `alg`: the rule jose applies when it selects a
 * key, for reports that list which configured keys can verify which algorithms.
 */
export function keyFitsAlg(jwk: JWK, alg: string): boolean {
  if (alg.startsWith('RS') || alg.startsWith('PS')) return jwk.kty === 'RSA';
  if (alg.startsWith('ES')) return jwk.kty === 'EC' && jwk.crv === EC_CURVE[alg];
  if (alg === 'EdDSA' || alg === 'Ed25519') return jwk.kty === 'OKP' && jwk.crv === 'Ed25519';
  if (alg.startsWith('HS')) return jwk.kty === 'oct';
  return false;
}
