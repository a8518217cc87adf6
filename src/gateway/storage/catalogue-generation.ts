// The catalogue generation: one number in the gateway database that `toolgate tools reload` (or the
// document watch) raises, and every replica compares with the one it loaded (catalogue/directory.ts).
import type { Database, SqlExecutor } from '../../shared/db/types.js';

export class CatalogueGenerationRepository {
  constructor(private readonly db: Database) {}

  /** 0 until the first reload is requested. */
  async current(): Promise<number> {
    const rows = await this.db.query<{ generation: number | string }>(
      'SELECT generation FROM gateway_catalogue_generation WHERE id = 1',
    );
    return rows[0] === undefined ? 0 : Number(rows[0].generation);
  }

  /** Asks every replica to rebuild its catalogue; returns the new generation. */
  async bump(by: string, at = new Date()): Promise<number> {
    return this.db.transaction((tx) => bumpGeneration(tx, by, at));
  }
}

/** Raises the generation inside `tx` (a change that must commit with others); returns the new one. */
export async function bumpGeneration(tx: SqlExecutor, by: string, at: Date): Promise<number> {
  await tx.execute(
    `INSERT INTO gateway_catalogue_generation (id, generation, updated_at, updated_by)
         VALUES (1, 1, $1, $2)
         ON CONFLICT (id) DO UPDATE SET generation = gateway_catalogue_generation.generation + 1,
           updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    [at.toISOString(), by],
  );
  const rows = await tx.query<{ generation: number | string }>(
    'SELECT generation FROM gateway_catalogue_generation WHERE id = 1',
  );
  return Number(rows[0]?.generation ?? 0);
}
