// The catalogue generation in the gateway database (one row): the number `toolgate tools reload`, the
// document watch and the admin API's tool settings raise, whether that reload was forced, and the tools per
// backend of the catalogue last accepted — what `tools reload` compares a new catalogue with.
import type { Database, SqlExecutor } from '../../shared/db/types.js';
import type { CatalogueGeneration, CatalogueGenerations } from '../catalogue/generation.js';
import type { ToolCounts } from '../catalogue/reload-guard.js';

interface Row {
  generation: number | string;
  forced: number | string;
  tool_counts: string | null;
}

export class CatalogueGenerationRepository implements CatalogueGenerations {
  constructor(private readonly db: Database) {}

  /** 0 until the first reload is requested. */
  async current(): Promise<number> {
    return (await this.read()).generation;
  }

  async read(): Promise<CatalogueGeneration> {
    const [row] = await this.db.query<Row>(
      'SELECT generation, forced, tool_counts FROM gateway_catalogue_generation WHERE id = 1',
    );
    if (row === undefined) return { generation: 0, forced: false, toolCounts: null };
    return {
      generation: Number(row.generation),
      forced: Number(row.forced) === 1,
      toolCounts: row.tool_counts === null ? null : (JSON.parse(row.tool_counts) as ToolCounts),
    };
  }

  /** Asks every replica to rebuild its catalogue; returns the new generation. */
  async bump(
    by: string,
    change: { readonly toolCounts?: ToolCounts; readonly forced?: boolean } = {},
    at = new Date(),
  ): Promise<number> {
    return this.db.transaction((tx) => bumpGeneration(tx, by, at, change));
  }

  async recordIfAbsent(toolCounts: ToolCounts): Promise<void> {
    await this.db.execute(
      `INSERT INTO gateway_catalogue_generation (id, generation, updated_at, updated_by, tool_counts)
         VALUES (1, 0, $1, 'gateway', $2)
         ON CONFLICT (id) DO UPDATE SET tool_counts = excluded.tool_counts
         WHERE gateway_catalogue_generation.tool_counts IS NULL`,
      [new Date().toISOString(), JSON.stringify(toolCounts)],
    );
  }
}

/**
 * Raises the generation inside `tx` (a change that must commit with others); returns the new one. A
 * reload is forced only when asked; counts given replace the recorded ones (others keep them).
 */
export async function bumpGeneration(
  tx: SqlExecutor,
  by: string,
  at: Date,
  change: { readonly toolCounts?: ToolCounts; readonly forced?: boolean } = {},
): Promise<number> {
  const counts = change.toolCounts === undefined ? null : JSON.stringify(change.toolCounts);
  await tx.execute(
    `INSERT INTO gateway_catalogue_generation (id, generation, updated_at, updated_by, forced, tool_counts)
         VALUES (1, 1, $1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET generation = gateway_catalogue_generation.generation + 1,
           updated_at = excluded.updated_at, updated_by = excluded.updated_by, forced = excluded.forced,
           tool_counts = COALESCE(excluded.tool_counts, gateway_catalogue_generation.tool_counts)`,
    [at.toISOString(), by, change.forced === true ? 1 : 0, counts],
  );
  const rows = await tx.query<{ generation: number | string }>(
    'SELECT generation FROM gateway_catalogue_generation WHERE id = 1',
  );
  return Number(rows[0]?.generation ?? 0);
}
