// User-JWT verification. Order of checks (cheapest and most dangerous first):
// size cap → cache → 3 base64url segments → header JSON → alg allow-list (never "none") → crit →
// kid shape → key selection by jose from the configured keys only (jku/x5u/jwk/x5c are never used) →
// signature and claims via jose (iss exact, aud contains, exp/nbf with tolerance, required claims) →
// iat and lifetime bounds (token-times.ts) → a subject that reaches backends unchanged (subject.ts).
// The checks before key selection are ours so that a token refused on its face costs no key fetch and
// gets its own error code; jose repeats some of them.
import { errors, jwtVerify, type JWTPayload, type JWTVerifyOptions } from 'jose';
import { AuthError } from './errors.js';
import type { JwtConfig } from '../../../config/gateway-jwt.js';
import type { FetchFn } from './fetch-json.js';
import type { KeySource } from './key-entry.js';
import { createKeySource } from './key-source.js';
import { createTokenCache, sha256Hex } from './token-cache.js';
import { checkSubject } from './subject.js';
import { checkTokenTimes } from './token-times.js';
import type { VerifiedUser } from '../user.js';

export interface JwtVerifierDeps {
  fetch?: FetchFn;
  /** Milliseconds since the epoch. */
  clock?: () => number;
  /** Replaces the configured key sources (tests, or a gateway sharing one key set). */
  keySource?: KeySource;
  onError?: (error: AuthError) => void;
  /** Called after every successful refresh of the provider's keys (metrics). */
  onLoaded?: () => void;
}

export interface JwtVerifier {
  readonly config: JwtConfig;
  /**
   * `audiences`: the token's `aud` must name one of these instead of the configured audience (a tool
   * bundle's own resource URL, federation/bundles.ts); absent: the configured audience.
   */
  verify(token: string, audiences?: readonly string[]): Promise<VerifiedUser>;
  close(): void;
}

const SEGMENT = /^[A-Za-z0-9_-]+$/;
const MAX_KID_LENGTH = 256;

function malformed(message: string): AuthError {
  return new AuthError('TOKEN_MALFORMED', message);
}

function parseHeader(token: string): { header: Record<string, unknown>; unsigned: boolean } {
  const parts = token.split('.');
  if (parts.length !== 3) throw malformed('a JWT has three dot-separated segments');
  const [header, payload, signature] = parts as [string, string, string];
  if (!SEGMENT.test(header) || !SEGMENT.test(payload) || !/^[A-Za-z0-9_-]*$/.test(signature))
    throw malformed('JWT segments must be base64url');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
  } catch {
    throw malformed('JWT header is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw malformed('JWT header is not a JSON object');
  return { header: parsed as Record<string, unknown>, unsigned: signature === '' };
}

function mapJoseError(err: unknown): AuthError {
  if (err instanceof AuthError) return err;
  if (err instanceof errors.JWTExpired)
    return new AuthError('TOKEN_EXPIRED', 'the token has expired');
  if (err instanceof errors.JWTClaimValidationFailed) {
    const { claim, reason } = err;
    if (reason === 'missing')
      return new AuthError('CLAIM_MISSING', `the "${claim}" claim is missing`);
    if (claim === 'nbf' && reason === 'check_failed')
      return new AuthError('TOKEN_NOT_YET_VALID', 'the token is not valid yet');
    if (claim === 'aud')
      return new AuthError('AUDIENCE_MISMATCH', 'the token audience is not accepted');
    if (claim === 'iss')
      return new AuthError('ISSUER_MISMATCH', 'the token issuer is not accepted');
    if (claim === 'typ') return new AuthError('TYPE_MISMATCH', 'the token type is not accepted');
    return new AuthError('CLAIM_INVALID', `the "${claim}" claim is invalid`);
  }
  if (err instanceof errors.JWSSignatureVerificationFailed)
    return new AuthError('SIGNATURE_INVALID', 'the token signature is invalid');
  if (err instanceof errors.JOSEAlgNotAllowed)
    return new AuthError('ALG_NOT_ALLOWED', 'the token algorithm is not allowed');
  if (err instanceof errors.JWTInvalid || err instanceof errors.JWSInvalid)
    return malformed('the token is not a valid JWT');
  if (err instanceof errors.JWKSNoMatchingKey)
    return new AuthError('KEY_NOT_FOUND', 'no usable key matches the token');
  return new AuthError('SIGNATURE_INVALID', 'the token could not be verified');
}

export interface VerifyCoreOptions {
  issuer: string;
  /** One of them must be in `aud`. */
  audience: string | string[];
  algorithms: readonly string[];
  clockToleranceSeconds: number;
  maxTokenBytes: number;
  requiredClaims: string[];
  typ?: string;
  maxTokenAgeSeconds?: number;
  clock: () => number;
}

/** Verification without cache; shared with the assertion verifier. Returns the payload. */
export async function verifyJwtCore(
  token: string,
  keys: KeySource,
  opts: VerifyCoreOptions,
): Promise<JWTPayload> {
  if (typeof token !== 'string' || token.length === 0) throw malformed('the token is empty');
  if (Buffer.byteLength(token, 'utf8') > opts.maxTokenBytes)
    throw new AuthError('TOKEN_TOO_LARGE', `the token exceeds ${opts.maxTokenBytes} bytes`);
  const { header, unsigned } = parseHeader(token);
  const { alg, crit, kid } = header;
  if (typeof alg !== 'string' || alg.toLowerCase() === 'none' || !opts.algorithms.includes(alg))
    throw new AuthError('ALG_NOT_ALLOWED', 'the token algorithm is not allowed');
  if (unsigned) throw malformed('the token has no signature');
  if (crit !== undefined)
    throw new AuthError('CRIT_UNSUPPORTED', 'the token requires unsupported header extensions');
  if (
    kid !== undefined &&
    (typeof kid !== 'string' || kid.length === 0 || kid.length > MAX_KID_LENGTH)
  )
    throw malformed('the "kid" header is invalid');

  const options: JWTVerifyOptions = {
    issuer: opts.issuer,
    audience: opts.audience,
    algorithms: [alg],
    clockTolerance: opts.clockToleranceSeconds,
    requiredClaims: opts.requiredClaims,
    currentDate: new Date(opts.clock()),
    ...(opts.typ !== undefined ? { typ: opts.typ } : {}),
    ...(opts.maxTokenAgeSeconds !== undefined ? { maxTokenAge: opts.maxTokenAgeSeconds } : {}),
  };
  try {
    return (await jwtVerify(token, keys, options)).payload;
  } catch (error) {
    if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw mapJoseError(error);
    // Several keys fit (no kid, or a kid shared across a rotation): the first whose signature holds.
    let last: unknown = new AuthError('KEY_NOT_FOUND', 'no usable key matches the token');
    for await (const key of error) {
      try {
        return (await jwtVerify(token, key, options)).payload;
      } catch (attempt) {
        last = attempt;
        if (!(attempt instanceof errors.JWSSignatureVerificationFailed)) break;
      }
    }
    throw mapJoseError(last);
  }
}

export function createJwtVerifier(config: JwtConfig, deps: JwtVerifierDeps = {}): JwtVerifier {
  const clock = deps.clock ?? Date.now;
  const keys = deps.keySource ?? createKeySource(config, { ...deps, clock });
  const cache = createTokenCache<VerifiedUser>({ ...config.tokenCache, clock });
  const core: VerifyCoreOptions = {
    issuer: config.issuer,
    audience: config.audience,
    algorithms: config.algorithms,
    clockToleranceSeconds: config.clockToleranceSeconds,
    maxTokenBytes: config.maxTokenBytes,
    requiredClaims: config.requiredClaims,
    clock,
  };

  async function verify(token: string, audiences?: readonly string[]): Promise<VerifiedUser> {
    if (typeof token !== 'string' || token.length === 0) throw malformed('the token is empty');
    if (Buffer.byteLength(token, 'utf8') > config.maxTokenBytes)
      throw new AuthError('TOKEN_TOO_LARGE', `the token exceeds ${config.maxTokenBytes} bytes`);
    const tokenHash = sha256Hex(token);
    // A token verified for one audience is not thereby valid for another: cached per audience.
    const cacheKey = audiences === undefined ? tokenHash : `${audiences.join(' ')}\n${tokenHash}`;
    const cached = cache.get(cacheKey);
    if (cached) return cached;

    const payload = await verifyJwtCore(
      token,
      keys,
      audiences === undefined ? core : { ...core, audience: [...audiences] },
    );
    const { exp } = payload;
    const sub = checkSubject(payload.sub);
    checkTokenTimes(payload, Math.floor(clock() / 1000), config);
    if (typeof exp !== 'number') throw new AuthError('CLAIM_MISSING', 'the "exp" claim is missing');
    const user: VerifiedUser = Object.freeze({
      subject: sub,
      claims: Object.freeze({ ...payload }),
      expiresAt: exp,
      tokenHash,
    });
    cache.set(cacheKey, user, exp * 1000);
    return user;
  }

  return {
    config,
    verify,
    close() {
      cache.clear();
    },
  };
}
