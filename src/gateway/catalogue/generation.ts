// The catalogue generation as the catalogue reads and raises it: one shared number that `toolgate tools
// reload` and the document watch raise and every replica compares with the one it loaded (directory.ts),
// with what the reload guard needs (reload-guard.ts). The gateway database keeps it
// (storage/catalogue-generation.ts implements this interface).
import type { ToolCounts } from './reload-guard.js';

export interface CatalogueGeneration {
  /** 0 until the first reload is requested. */
  readonly generation: number;
  /** The reload was forced (`tools reload --force`): replicas serve it even where the guard would refuse. */
  readonly forced: boolean;
  /** Tools per backend of the catalogue last accepted (null until one is recorded). */
  readonly toolCounts: ToolCounts | null;
}

export interface CatalogueGenerations {
  read(): Promise<CatalogueGeneration>;
  /** Asks every replica to reload the catalogue checked (its counts); returns the new generation. */
  bump(
    by: string,
    change: { readonly toolCounts: ToolCounts; readonly forced: boolean },
  ): Promise<number>;
  /** Records the counts of the catalogue being served when none are recorded yet (a first start). */
  recordIfAbsent(toolCounts: ToolCounts): Promise<void>;
}
