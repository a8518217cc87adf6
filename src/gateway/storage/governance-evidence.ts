// The evidence of governed calls (governance/evidence.ts) in the audit chain: one entry per event, its
// target `call:<callId>`, recorded by the gateway itself (the caller is named in the details).
import type { Database } from '../../shared/db/types.js';
import type { EvidenceSink } from '../governance/evidence.js';
import { appendAuditEntry } from './audit-chain.js';

const GATEWAY_ACTOR = { role: 'system', subject: 'gateway', via: 'system' } as const;

export class AuditEvidence implements EvidenceSink {
  constructor(
    private readonly db: Database,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async record(
    callId: string,
    action: string,
    details: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    await this.db.transaction((tx) =>
      appendAuditEntry(
        tx,
        {
          actor: GATEWAY_ACTOR,
          action,
          target: { type: 'call', id: callId },
          after: { callId, ...details },
        },
        this.clock(),
      ),
    );
  }
}
