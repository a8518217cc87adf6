// Development identity provider for `npm start` and `toolgate token`: an ES256 signing key persisted
// in <dataDir>/dev-idp-signing-key.json (created with mode 0600 on first start, reused afterwards),
// the public JWKS, and token minting. The authorization server (authorization-server.ts) signs with the
// same key and serves discovery and the JWKS. Never meant for production.
import { join } from 'node:path';
import {
  SignJWT,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JWK,
} from 'jose';
import { AuthError } from '../jwt/errors.js';
import { readOrCreateJwkFile } from '../key-file.js';

export const DEV_IDP_KEY_FILE = 'dev-idp-signing-key.json';
const ALG = 'ES256';
const RESERVED = new Set(['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti']);

export interface MintTokenInput {
  sub: string;
  /** Default 3600. */
  ttlSeconds?: number;
  claims?: Record<string, string>;
  audience: string;
  issuer: string;
}

export interface DevIdp {
  readonly kid: string;
  readonly keyFile: string;
  /** true when the key file was created by this call (first start). */
  readonly created: boolean;
  jwks(): { keys: JWK[] };
  /** The private signing key as a JWK with kid/alg/use, for the development authorization server. */
  signingJwk(): JWK;
  mintToken(input: MintTokenInput): Promise<string>;
}

export async function createDevIdp(options: {
  dataDir: string;
  clock?: () => number;
}): Promise<DevIdp> {
  const keyFile = join(options.dataDir, DEV_IDP_KEY_FILE);
  const { jwk, created } = await readOrCreateJwkFile(keyFile, async () =>
    exportJWK((await generateKeyPair(ALG, { extractable: true })).privateKey),
  );
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.d !== 'string')
    throw new AuthError('CONFIG_INVALID', `${keyFile} does not hold an EC P-256 private JWK`);
  const publicJwk: JWK = { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
  const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
  const privateKey = (await importJWK(jwk, ALG)) as CryptoKey;
  const clock = options.clock ?? Date.now;

  return {
    kid,
    keyFile,
    created,
    jwks() {
      return { keys: [{ ...publicJwk, kid, alg: ALG, use: 'sig' }] };
    },
    signingJwk() {
      return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: jwk.d, kid, alg: ALG, use: 'sig' };
    },
    async mintToken(input) {
      const ttl = input.ttlSeconds ?? 3600;
      if (!Number.isInteger(ttl) || ttl < 1)
        throw new AuthError('CONFIG_INVALID', 'ttl must be ≥ 1');
      if (input.sub.length === 0) throw new AuthError('CLAIM_MISSING', 'sub is empty');
      const claims = Object.fromEntries(
        Object.entries(input.claims ?? {}).filter(([name]) => !RESERVED.has(name)),
      );
      const now = Math.floor(clock() / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: ALG, kid, typ: 'JWT' })
        .setIssuer(input.issuer)
        .setAudience(input.audience)
        .setSubject(input.sub)
        .setIssuedAt(now)
        .setExpirationTime(now + ttl)
        .sign(privateKey);
    },
  };
}
