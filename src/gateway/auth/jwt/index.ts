export { AuthError, isAuthError, type AuthErrorCode } from './errors.js';
export {
  JwtConfigSchema,
  resolveJwtConfig,
  JWT_DEFAULTS,
  type JwtConfig,
  type JwtConfigInput,
} from './config.js';
export {
  createJwtVerifier,
  type JwtVerifier,
  type JwtVerifierDeps,
  type VerifiedUser,
} from './verify.js';
export { createRemoteKeySet, type RemoteKeySet, type RemoteKeySetOptions } from './discovery.js';
export { createStaticKeySource } from './static-keys.js';
export { createKeySource } from './key-source.js';
export type { KeySource, KeyQuery, KeyEntry } from './key-entry.js';
export { createTokenCache, sha256Hex } from './token-cache.js';
export { parseBearer } from './bearer.js';
export {
  missingTokenChallenge,
  invalidTokenChallenge,
  challengeErrorFor,
} from './www-authenticate.js';
export {
  buildProtectedResourceMetadata,
  protectedResourceMetadataUrls,
  PROTECTED_RESOURCE_WELL_KNOWN,
  type ProtectedResourceMetadata,
} from './protected-resource.js';
export { isLoopbackHost, assertSecureUrl } from './secure-url.js';
export { challengeFor } from './www-authenticate.js';
export {
  authenticateRequest,
  ANONYMOUS_USER_ID,
  type RequestIdentity,
  type AuthenticateInput,
} from './authenticate.js';
