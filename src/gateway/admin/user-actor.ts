// The one rule that makes a signed-in person an actor of the admin plane, from the claims of their token:
// the admin API's bearer tokens and the portal's OpenID Connect sign-in both go through it. A user is an
// administrator when `admin.roleClaim` (an array of strings, or one space-separated string) holds
// `admin.adminRole`, else a developer; who they are is the token's issuer and subject. A subject that names
// one of toolgate's own actors (`bootstrap-admin`, `system`, `cli:…`) is refused, so the audit log's
// actors stay unambiguous.
import { checkSubject } from '../auth/jwt/subject.js';
import { isReservedSubject, type Actor } from './actor.js';
import { AdminError } from './errors.js';

export interface RoleRule {
  /** admin.roleClaim */
  readonly roleClaim: string;
  /** admin.adminRole */
  readonly adminRole: string;
}

export type UserActor = Actor & { readonly role: 'admin' | 'developer'; readonly issuer: string };

export function roleOf(claims: Readonly<Record<string, unknown>>, rule: RoleRule) {
  return rolesOf(claims, rule).includes(rule.adminRole) ? 'admin' : 'developer';
}

/** The roles `admin.roleClaim` holds: an array's strings, or a space-separated string's words. */
export function rolesOf(claims: Readonly<Record<string, unknown>>, rule: RoleRule): string[] {
  const roles = claims[rule.roleClaim];
  if (Array.isArray(roles)) return roles.filter((r): r is string => typeof r === 'string');
  if (typeof roles === 'string') return roles.split(/\s+/).filter((r) => r !== '');
  return [];
}

/** The actor verified claims stand for; UNAUTHENTICATED when they name no usable user. */
export function userActor(
  claims: Readonly<Record<string, unknown>>,
  rule: RoleRule,
  via: 'bearer-token' | 'oidc-session',
): UserActor {
  let subject: string;
  try {
    subject = checkSubject(claims['sub']);
  } catch (error) {
    throw new AdminError('UNAUTHENTICATED', `invalid user token: ${(error as Error).message}`);
  }
  if (isReservedSubject(subject))
    throw new AdminError(
      'UNAUTHENTICATED',
      `the subject "${subject}" is reserved for toolgate's own actors (the bootstrap admin, the command line, the system); a user token cannot use it`,
    );
  const issuer = claims['iss'];
  if (typeof issuer !== 'string' || issuer === '')
    throw new AdminError('UNAUTHENTICATED', 'invalid user token: the "iss" claim is missing');
  // Shown and audited as the actor's name: the e-mail address when the token has one (unique, what an
  // administrator recognises), else the display name.
  const name = [claims['email'], claims['name']].find((v) => typeof v === 'string') as
    string | undefined;
  return {
    role: roleOf(claims, rule),
    subject,
    issuer,
    via,
    ...(name === undefined ? {} : { name }),
    roles: rolesOf(claims, rule),
  };
}
