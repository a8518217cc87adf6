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
  readonly via: ActorCredential;
  /** Display name or e-mail when known. */
  readonly name?: string | undefined;
}

export const SYSTEM_ACTOR: Actor = { role: 'system', subject: 'system', via: 'system' };
