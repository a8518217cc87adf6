// The seam between the admin plane's services and the audit log: a service records each change it makes
// through an AuditSink, inside the same transaction as the change when it has one, so a change and its
// audit entry commit or roll back together.
import type { SqlExecutor } from '../../shared/db/types.js';
import type { Actor } from './actor.js';

export interface AuditEntryInput {
  readonly actor: Actor;
  /** Dotted verb, e.g. `access-request.approve`, `identity-provider.update`, `subscription.key.rotate`. */
  readonly action: string;
  readonly target: { readonly type: string; readonly id: string };
  /** State before and after, as plain JSON; never a key, token or secret (callers pass masked forms). */
  readonly before?: unknown;
  readonly after?: unknown;
}

export interface AuditSink {
  /** Appends one entry; with `tx`, inside that transaction. */
  append(entry: AuditEntryInput, tx?: SqlExecutor): Promise<void>;
}
