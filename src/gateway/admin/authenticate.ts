// Who is calling the admin API: `Authorization: Bearer <token>` only (cookies are never read, so a
// browser cannot be made to send a state-changing request with ambient credentials), and exactly one such
// header. The token is the bootstrap admin token (role admin, subject `bootstrap-admin`) or a user JWT
// verified with the identity-provider settings in force (user-tokens.ts), whose claims make the actor
// (user-actor.ts: role from admin.roleClaim, reserved subjects refused).
import { parseBearer } from '../auth/jwt/bearer.js';
import { isAuthError } from '../auth/jwt/errors.js';
import type { JwtVerifier } from '../auth/jwt/verify.js';
import type { VerifiedUser } from '../auth/user.js';
import { BOOTSTRAP_SUBJECT, type Actor } from './actor.js';
import type { BootstrapTokens } from './bootstrap-token.js';
import { ADMIN_TOKEN_PREFIX } from './bootstrap-token.js';
import { AdminError } from './errors.js';
import { userActor, type RoleRule } from './user-actor.js';

export interface AdminAuthOptions {
  readonly bootstrapTokens: BootstrapTokens;
  /** Returns the current verifier (null: no identity provider, only the bootstrap token works). */
  readonly verifier: () => JwtVerifier | null;
  readonly roles: RoleRule;
}

export class AdminAuthenticator {
  constructor(private readonly options: AdminAuthOptions) {}

  /**
   * The actor of a request's `Authorization` headers: every one the request carried (Node's parsed
   * headers keep only the first), so a second header is refused rather than ignored.
   */
  async authenticate(authorization: readonly string[]): Promise<Actor> {
    if (authorization.length > 1)
      throw new AdminError(
        'UNAUTHENTICATED',
        'the request carries more than one Authorization header; send exactly one',
      );
    return this.authenticateToken(bearerOf(authorization[0]));
  }

  /** The actor of a bearer token (the portal's token sign-in uses this too). */
  async authenticateToken(token: string): Promise<Actor> {
    if (token.startsWith(ADMIN_TOKEN_PREFIX) || !token.includes('.')) {
      if (await this.options.bootstrapTokens.verify(token))
        return { role: 'admin', subject: BOOTSTRAP_SUBJECT, via: 'bootstrap-token' };
      throw new AdminError('UNAUTHENTICATED', 'the admin token is not valid');
    }
    const verifier = this.options.verifier();
    if (verifier === null)
      throw new AdminError(
        'UNAUTHENTICATED',
        'no identity provider is configured; use the bootstrap admin token',
      );
    let user: VerifiedUser;
    try {
      user = await verifier.verify(token);
    } catch (error) {
      throw new AdminError(
        'UNAUTHENTICATED',
        isAuthError(error) ? `invalid user token: ${error.message}` : 'invalid user token',
      );
    }
    return userActor(user.claims, this.options.roles, 'bearer-token');
  }
}

function bearerOf(header: string | undefined): string {
  let token: string | null;
  try {
    token = parseBearer(header);
  } catch (error) {
    throw new AdminError(
      'UNAUTHENTICATED',
      isAuthError(error) ? error.message : 'invalid Authorization header',
    );
  }
  if (token === null)
    throw new AdminError(
      'UNAUTHENTICATED',
      'send Authorization: Bearer <admin token or user token>',
    );
  return token;
}
