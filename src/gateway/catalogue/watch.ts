// gateway.mcp.watchDocuments: when a backend's OpenAPI document file changes, check that the catalogue
// still builds and that the reload guard accepts it against the catalogue this replica serves
// (reload-guard.ts) and, if so, raise the catalogue generation, so every replica reloads (as
// `toolgate tools reload` does); a document that does not build, or a catalogue the guard refuses, is
// reported and changes nothing. Every replica that watches the file checks and reports on its own.
// Folders are watched rather than files, since editors and deploy tools replace a file by renaming.
import { watch, type FSWatcher } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname } from 'node:path';
import type { FrozenConfig } from '../../config/schema.js';
import type { Logger } from '../../shared/log/logger.js';
import type { CatalogueGenerations } from './generation.js';
import { loadCatalogue, resolveDocumentPath } from './load.js';
import { checkCatalogue, toolCounts } from './reload-guard.js';
import type { Catalogue } from './types.js';

const SETTLE_MS = 300;

export interface DocumentWatchOptions {
  readonly backends: FrozenConfig['gateway']['backends'];
  readonly logger: Logger;
  readonly generations: Pick<CatalogueGenerations, 'bump'>;
  /** The catalogue this replica serves: what a new one is compared with. */
  readonly served: () => Catalogue;
  /** gateway.mcp.reloadMaxLoss */
  readonly maxLoss: number;
}

export function watchDocuments(options: DocumentWatchOptions): { close(): void } {
  const { backends, logger, generations } = options;
  const files = backends.flatMap((b) =>
    b.openapi !== undefined && 'file' in b.openapi ? [resolveDocumentPath(b.openapi.file)] : [],
  );
  const byFolder = new Map<string, Set<string>>();
  for (const file of files) {
    const names = byFolder.get(dirname(file)) ?? new Set<string>();
    names.add(basename(file));
    byFolder.set(dirname(file), names);
  }
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const changed = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => void rebuild(), SETTLE_MS);
  };
  const rebuild = async () => {
    if (closed) return;
    try {
      const counts = toolCounts(await loadCatalogue(backends), backends);
      checkCatalogue(counts, toolCounts(options.served(), backends), options.maxLoss);
      const generation = await generations.bump(`watch:${hostname()}`, {
        toolCounts: counts,
        forced: false,
      });
      logger.info({ generation }, 'OpenAPI document changed: catalogue reload requested');
    } catch (error) {
      logger.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'OpenAPI document changed but the catalogue does not build or is refused: keeping the current one',
      );
    }
  };
  const watchers: FSWatcher[] = [];
  for (const [folder, names] of byFolder) {
    const watcher = watch(folder, (_event, name) => {
      if (name !== null && names.has(name.toString())) changed();
    });
    watcher.on('error', (error) =>
      logger.warn({ folder, reason: error.message }, 'document watch'),
    );
    watchers.push(watcher);
  }
  return {
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
