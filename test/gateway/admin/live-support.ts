// Test support for the tool, identity-provider and usage services: a recording AuditSink (entries kept in memory, and
// dropped when the transaction it was given rolls back is not observable here, so tests assert on the
// calls), and the actors the services are called with.
import type { Actor } from '../../../src/gateway/admin/actor.js';
import type { AuditEntryInput, AuditSink } from '../../../src/gateway/admin/audit-sink.js';
import type { SqlExecutor } from '../../../src/shared/db/types.js';

export class RecordingAuditSink implements AuditSink {
  readonly entries: AuditEntryInput[] = [];
  /** Whether each entry came with a transaction (services must append inside theirs). */
  readonly inTransaction: boolean[] = [];

  append(entry: AuditEntryInput, tx?: SqlExecutor): Promise<void> {
    this.entries.push(structuredClone(entry));
    this.inTransaction.push(tx !== undefined);
    return Promise.resolve();
  }
}

export const ADMIN: Actor = {
  role: 'admin',
  subject: 'alice',
  issuer: 'https://idp.example.test',
  via: 'bearer-token',
};
export const DEVELOPER: Actor = {
  role: 'developer',
  subject: 'dev-bob',
  issuer: 'https://idp.example.test',
  via: 'oidc-session',
};
