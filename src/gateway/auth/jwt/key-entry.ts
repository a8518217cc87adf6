// A verification key as both key sources (static and remote) hold it: public JWK, optional kid and
// alg, plus the imported CryptoKey per algorithm (imported lazily, once).
import { importJWK, type JWK, type CryptoKey } from 'jose';

export interface KeyEntry {
  kid: string | undefined;
  alg: string | undefined;
  jwk: JWK;
  imported: Map<string, Promise<CryptoKey | Uint8Array>>;
}

/** What a verifier asks a key source for: the token's (already allow-listed) alg and its kid. */
export interface KeyQuery {
  alg: string;
  kid: string | undefined;
}

/** Anything that can produce candidate keys for a token. */
export interface KeySource {
  /** Candidate keys (at least one) or throws AuthError KEY_NOT_FOUND / JWKS_UNAVAILABLE. */
  getKeys(query: KeyQuery): Promise<KeyEntry[]>;
  close?(): void;
}

const EC_CURVE: Record<string, string> = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' };

/** Whether a key's type (and curve) can verify signatures of `alg` — the algorithm-confusion guard. */
export function keyFitsAlg(jwk: JWK, alg: string): boolean {
  if (alg.startsWith('RS') || alg.startsWith('PS')) return jwk.kty === 'RSA';
  if (alg.startsWith('ES')) return jwk.kty === 'EC' && jwk.crv === EC_CURVE[alg];
  if (alg === 'EdDSA' || alg === 'Ed25519') return jwk.kty === 'OKP' && jwk.crv === 'Ed25519';
  if (alg.startsWith('HS')) return jwk.kty === 'oct';
  return false;
}

export function matches(entry: KeyEntry, query: KeyQuery): boolean {
  if (query.kid !== undefined && entry.kid !== query.kid) return false;
  if (entry.alg !== undefined && entry.alg !== query.alg) return false;
  if (entry.jwk.use !== undefined && entry.jwk.use !== 'sig') return false;
  if (entry.jwk.key_ops !== undefined && !entry.jwk.key_ops.includes('verify')) return false;
  return keyFitsAlg(entry.jwk, query.alg);
}

export function importFor(entry: KeyEntry, alg: string): Promise<CryptoKey | Uint8Array> {
  let key = entry.imported.get(alg);
  if (!key) {
    key = importJWK(entry.jwk, alg);
    entry.imported.set(alg, key);
    key.catch(() => entry.imported.delete(alg));
  }
  return key;
}

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth'] as const;

/** Copies the public members of a JWK; returns undefined when the JWK carries private material. */
export function publicOnly(jwk: JWK): JWK | undefined {
  if (jwk.kty === 'oct') return { ...jwk };
  if (PRIVATE_MEMBERS.some((m) => m in jwk)) return undefined;
  const { kty, crv, x, y, n, e, use, key_ops, alg, kid } = jwk;
  const out: JWK = { kty };
  Object.assign(
    out,
    Object.fromEntries(
      Object.entries({ crv, x, y, n, e, use, key_ops, alg, kid }).filter(
        ([, v]) => v !== undefined,
      ),
    ),
  );
  return out;
}
