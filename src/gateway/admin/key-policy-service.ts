// Reading and changing the key rotation policy (audited).
import type { Database } from '../../shared/db/types.js';
import type { Actor } from './actor.js';
import type { AuditSink } from './audit-sink.js';
import { requireAdmin } from './errors.js';
import { readKeyPolicy, writeKeyPolicy, type KeyPolicy } from './key-policy.js';

export class KeyPolicyService {
  constructor(
    private readonly db: Database,
    private readonly audit: AuditSink,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  get(): Promise<KeyPolicy> {
    return readKeyPolicy(this.db);
  }

  async set(actor: Actor, policy: KeyPolicy): Promise<KeyPolicy> {
    requireAdmin(actor);
    return this.db.transaction(async (tx) => {
      const before = await readKeyPolicy(tx);
      await writeKeyPolicy(tx, policy, actor.subject, this.clock());
      await this.audit.append(
        {
          actor,
          action: 'key-policy.update',
          target: { type: 'key-policy', id: 'default' },
          before,
          after: policy,
        },
        tx,
      );
      return policy;
    });
  }
}
