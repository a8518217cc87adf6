// Stored approval state of tools (overrides configuration). Written by the CLI (and later the admin API),
// read by every gateway replica.
import type { Database } from '../../shared/db/types.js';
import type { ApprovalSource, ApprovalState } from '../catalogue/directory.js';

export interface ApprovalRecord {
  readonly toolName: string;
  readonly state: ApprovalState;
  readonly updatedAt: string;
  readonly updatedBy: string;
}

export class ApprovalRepository implements ApprovalSource {
  constructor(private readonly db: Database) {}

  async load(): Promise<ReadonlyMap<string, ApprovalState>> {
    const rows = await this.db.query<{ tool_name: string; state: string }>(
      'SELECT tool_name, state FROM gateway_tool_approvals',
    );
    return new Map(rows.map((r) => [r.tool_name, r.state === 'approved' ? 'approved' : 'revoked']));
  }

  async list(): Promise<ApprovalRecord[]> {
    const rows = await this.db.query<{
      tool_name: string;
      state: string;
      updated_at: string;
      updated_by: string;
    }>(
      'SELECT tool_name, state, updated_at, updated_by FROM gateway_tool_approvals ORDER BY tool_name',
    );
    return rows.map((r) => ({
      toolName: r.tool_name,
      state: r.state === 'approved' ? 'approved' : 'revoked',
      updatedAt: r.updated_at,
      updatedBy: r.updated_by,
    }));
  }

  async set(toolName: string, state: ApprovalState, by: string, at = new Date()): Promise<void> {
    await this.db.execute(
      `INSERT INTO gateway_tool_approvals (tool_name, state, updated_at, updated_by)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (tool_name) DO UPDATE SET state = excluded.state,
         updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
      [toolName, state, at.toISOString(), by],
    );
  }
}
