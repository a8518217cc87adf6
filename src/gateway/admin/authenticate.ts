// Who is calling the admin API: `Authorization: Bearer <token>` only (cookies are never read, so a
// browser cannot be made to send a state-changing request with ambient credentials). The token is the
// bootstrap admin token (role admin, subject `bootstrap-admin`) or a user JWT verified by the gateway's
// verifier (role admin when the configured claim holds the admin role, else developer).
import { parseBearer } from '../auth/jwt/bearer.js';
import { isAuthError } from '../auth/jwt/errors.js';
import type { JwtVerifier } from '../auth/jwt/verify.js';
import type { VerifiedUser } from '../auth/user.js';
import type { Actor } from './actor.js';
import type { BootstrapTokens } from './bootstrap-token.js';
import { ADMIN_TOKEN_PREFIX } from './bootstrap-token.js';
import { AdminError } from './errors.js';

export interface AdminAuthOptions {
  readonly bootstrapTokens: BootstrapTokens;
  /** Returns the current verifier (null: no identity provider, only the bootstrap token works). */
  readonly verifier: () => JwtVerifier | null;
  readonly roleClaim: string;
  readonly adminRole: string;
}

export const BOOTSTRAP_SUBJECT = 'bootstrap-admin';

export class AdminAuthenticator {
  constructor(private readonly options: AdminAuthOptions) {}

  async authenticate(authorization: string | readonly string[] | undefined): Promise<Actor> {
    let token: string | null;
    try {
      token = parseBearer(authorization);
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
    return actorFromUser(user, this.options.roleClaim, this.options.adminRole, 'bearer-token');
  }
}

/** The actor a verified user token stands for (shared with the portal's OIDC sessions). */
export function actorFromUser(
  user: VerifiedUser,
  roleClaim: string,
  adminRole: string,
  via: Actor['via'],
): Actor {
  const roles = user.claims[roleClaim];
  const isAdmin = Array.isArray(roles)
    ? roles.includes(adminRole)
    : typeof roles === 'string'
      ? roles.split(/\s+/).includes(adminRole)
      : false;
  const name = [user.claims['name'], user.claims['email']].find((v) => typeof v === 'string') as
    string | undefined;
  return {
    role: isAdmin ? 'admin' : 'developer',
    subject: user.subject,
    via,
    ...(name === undefined ? {} : { name }),
  };
}
