// Stored approval state of tools (overrides configuration). Written by the CLI (and later the admin API),
// read by every gateway replica.
import type { Database, SqlExecutor } from '../../shared/db/types.js';
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

  /** With `tx`, inside that transaction (the admin API writes it together with its audit entry). */
  async set(
    toolName: string,
    state: ApprovalState,
    by: string,
    at = new Date(),
    tx: SqlExecutor = this.db,
  ): Promise<void> {
    await tx.execute(
      `INSERT INTO gateway_tool_approvals (tool_name, state, updated_at, updated_by)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (tool_name) DO UPDATE SET state = excluded.state,
         updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
      [toolName, state, at.toISOString(), by],
    );
  }

  /** Moves a stored state to a tool's new name (a rename by the admin API), inside `tx`. */
  async rename(tx: SqlExecutor, from: string, to: string): Promise<void> {
    await tx.execute('DELETE FROM gateway_tool_approvals WHERE tool_name = $1', [to]);
    await tx.execute('UPDATE gateway_tool_approvals SET tool_name = $1 WHERE tool_name = $2', [
      to,
      from,
    ]);
  }
}
