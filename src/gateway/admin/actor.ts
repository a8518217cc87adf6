// Who performs an administrative or self-service action. Every service of the admin plane takes one,
// and every audit entry records one. Kept free of I/O so the CLI, the admin API and the portal share it.

export type ActorRole = 'admin' | 'developer' | 'system';

/** How the actor proved who they are (recorded in the audit log; never the credential itself). */
export type ActorCredential =
  'bootstrap-token' | 'oidc-session' | 'bearer-token' | 'cli' | 'system';

export interface Actor {
  readonly role: ActorRole;
  /** Stable identifier: the token subject, `bootstrap-admin`, `cli:<os user>` or `system`. */
  readonly subject: string;
  /**
   * The issuer of the user's token (its `iss`): with the subject, who the user is. Absent for toolgate's own
   * actors (the bootstrap admin, the command line, the system), so no token can ever stand for one.
   */
  readonly issuer?: string | undefined;
  readonly via: ActorCredential;
  /** Display name or e-mail when known. */
  readonly name?: string | undefined;
  /**
   * A signed-in user's roles: the values of `admin.roleClaim` in their token (governed actions' approvers
   * are told by them). Absent for toolgate's own actors.
   */
  readonly roles?: readonly string[] | undefined;
}

export const SYSTEM_ACTOR: Actor = { role: 'system', subject: 'system', via: 'system' };

export const BOOTSTRAP_SUBJECT = 'bootstrap-admin';

/** Subjects of toolgate's own actors: a user token or ID token naming one is refused (user-actor.ts). */
export function isReservedSubject(subject: string): boolean {
  return (
    subject === BOOTSTRAP_SUBJECT || subject === SYSTEM_ACTOR.subject || subject.startsWith('cli:')
  );
}

/**
 * Who owns what an actor creates (applications, access requests): issuer and subject. Toolgate's own
 * actors have the issuer "" — no token has an empty issuer, so their records are never a user's.
 */
export interface Owner {
  readonly issuer: string;
  readonly subject: string;
}

export function ownerOf(actor: Actor): Owner {
  return { issuer: actor.issuer ?? '', subject: actor.subject };
}

/**
 * Whether a record owned by (issuer, subject) is the actor's: the same subject from the same issuer. A
 * record from before owners had issuers (issuer null) is matched by subject alone, as it was then.
 */
export function isOwner(
  actor: Actor,
  owner: { readonly issuer: string | null; readonly subject: string },
): boolean {
  return (
    owner.subject === actor.subject &&
    (owner.issuer === null || owner.issuer === ownerOf(actor).issuer)
  );
}

/**
 * The SQL condition "owned by the actor" on the given issuer and subject columns, its two parameters
 * numbered from `first` (the same rule as isOwner).
 */
export function ownedBySql(issuerColumn: string, subjectColumn: string, first: number): string {
  return `${subjectColumn} = $${first} AND (${issuerColumn} = $${first + 1} OR ${issuerColumn} IS NULL)`;
}

/** The parameters of ownedBySql, in order. */
export function ownerParams(actor: Actor): [string, string] {
  const owner = ownerOf(actor);
  return [owner.subject, owner.issuer];
}
