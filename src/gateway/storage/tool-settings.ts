// Stored tool settings (gateway_tool_settings): written by the admin API, read by every replica when it
// builds its catalogue (catalogue/tool-settings.ts applies them).
import type { Database, SqlExecutor } from '../../shared/db/types.js';
import type { StoredToolSettings, ToolSettingsMap } from '../catalogue/tool-settings.js';

export interface ToolSettingsRecord {
  readonly toolName: string;
  readonly settings: StoredToolSettings;
  readonly updatedAt: string;
  readonly updatedBy: string;
}

export class ToolSettingsRepository {
  constructor(private readonly db: Database) {}

  async load(tx: SqlExecutor = this.db): Promise<ToolSettingsMap> {
    return new Map((await this.list(tx)).map((r) => [r.toolName, r.settings]));
  }

  async list(tx: SqlExecutor = this.db): Promise<ToolSettingsRecord[]> {
    const rows = await tx.query<{
      tool_name: string;
      settings: string;
      updated_at: string;
      updated_by: string;
    }>(
      'SELECT tool_name, settings, updated_at, updated_by FROM gateway_tool_settings ORDER BY tool_name',
    );
    return rows.map((r) => ({
      toolName: r.tool_name,
      settings: JSON.parse(r.settings) as StoredToolSettings,
      updatedAt: r.updated_at,
      updatedBy: r.updated_by,
    }));
  }

  /** Replaces the settings of one tool (by configured name); empty settings delete the row. */
  async put(
    tx: SqlExecutor,
    toolName: string,
    settings: StoredToolSettings,
    by: string,
    at: Date,
  ): Promise<void> {
    if (Object.keys(settings).length === 0) {
      await tx.execute('DELETE FROM gateway_tool_settings WHERE tool_name = $1', [toolName]);
      return;
    }
    await tx.execute(
      `INSERT INTO gateway_tool_settings (tool_name, settings, updated_at, updated_by)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (tool_name) DO UPDATE SET settings = excluded.settings,
         updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
      [toolName, JSON.stringify(settings), at.toISOString(), by],
    );
  }
}
