// WWW-Authenticate challenges for 401 responses: RFC 6750 §3 (Bearer, error codes) and
// RFC 9728 §5.1 (resource_metadata pointing at the protected-resource metadata document).
import type { AuthError, AuthErrorCode } from './errors.js';

/** RFC 6750 §3: error_description is limited to %x20-21 / %x23-5B / %x5D-7E (no `"` or `\`). */
function describe(text: string): string {
  return text
    .replace(/[^\x20-\x7e]/g, ' ')
    .replace(/["\\]/g, "'")
    .slice(0, 200);
}

/** RFC 9110 §5.6.4 quoted-string. */
function quote(value: string): string {
  return `"${value.replace(/[\r\n]/g, '').replace(/(["\\])/g, '\\$1')}"`;
}

export interface ChallengeOptions {
  /** URL of the RFC 9728 protected-resource metadata document. */
  resourceMetadata?: string;
  realm?: string;
  /** RFC 6750 §3: the scopes the request needs (space-separated in the header). */
  scope?: readonly string[];
}

function trailing(options: ChallengeOptions): string[] {
  const params: string[] = [];
  if (options.resourceMetadata !== undefined)
    params.push(`resource_metadata=${quote(options.resourceMetadata)}`);
  if (options.scope !== undefined && options.scope.length > 0)
    params.push(`scope=${quote(options.scope.join(' '))}`);
  return params;
}

/** Challenge when no token was sent to a tool that requires one (RFC 6750 §3.1: no error attribute). */
export function missingTokenChallenge(options: ChallengeOptions = {}): string {
  const params: string[] = [];
  if (options.realm !== undefined) params.push(`realm=${quote(options.realm)}`);
  params.push(...trailing(options));
  return params.length === 0 ? 'Bearer' : `Bearer ${params.join(', ')}`;
}

/** Challenge for a token that was sent but rejected: error="invalid_token" (RFC 6750 §3.1). */
export function invalidTokenChallenge(
  description: string,
  options: ChallengeOptions = {},
  error: 'invalid_token' | 'invalid_request' = 'invalid_token',
): string {
  const params: string[] = [];
  if (options.realm !== undefined) params.push(`realm=${quote(options.realm)}`);
  params.push(`error="${error}"`);
  params.push(`error_description=${quote(describe(description))}`);
  params.push(...trailing(options));
  return `Bearer ${params.join(', ')}`;
}

/**
 * Challenge for a valid token that lacks scopes (RFC 6750 §3.1 insufficient_scope, sent with 403): the
 * scope attribute names what to ask for, so a client can step up (MCP authorization, scope challenges).
 */
export function insufficientScopeChallenge(
  description: string,
  options: ChallengeOptions & { scope: readonly string[] },
): string {
  const params: string[] = [];
  if (options.realm !== undefined) params.push(`realm=${quote(options.realm)}`);
  params.push('error="insufficient_scope"');
  params.push(`error_description=${quote(describe(description))}`);
  params.push(...trailing(options));
  return `Bearer ${params.join(', ')}`;
}

/**
 * Codes where the request itself is wrong rather than the token (RFC 6750 §3.1 "invalid_request"),
 * e.g. a non-Bearer scheme. Everything else is "invalid_token".
 */
export function challengeErrorFor(code: AuthErrorCode): 'invalid_request' | 'invalid_token' {
  return code === 'SCHEME_NOT_BEARER' ? 'invalid_request' : 'invalid_token';
}

/** The WWW-Authenticate value for a 401 caused by `error`. */
export function challengeFor(error: AuthError, options: ChallengeOptions = {}): string {
  if (error.code === 'TOKEN_MISSING') return missingTokenChallenge(options);
  return invalidTokenChallenge(error.message, options, challengeErrorFor(error.code));
}
