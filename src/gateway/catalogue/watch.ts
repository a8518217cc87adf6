// gateway.mcp.watchDocuments: when a backend's OpenAPI document file changes, check that the catalogue
// still builds and, if it does, raise the catalogue generation, so every replica reloads (as
// `toolgate tools reload` does); a document that does not build is reported and changes nothing.
// Folders are watched rather than files, since editors and deploy tools replace a file by renaming.
import { watch, type FSWatcher } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname } from 'node:path';
import type { FrozenConfig } from '../../config/schema.js';
import type { Logger } from '../../shared/log/logger.js';
import type { CatalogueGenerationRepository } from '../storage/catalogue-generation.js';
import { loadCatalogue, resolveDocumentPath } from './load.js';

const SETTLE_MS = 300;

export function watchDocuments(
  backends: FrozenConfig['gateway']['backends'],
  logger: Logger,
  generations: CatalogueGenerationRepository,
): { close(): void } {
  const files = backends.flatMap((b) =>
    'file' in b.openapi ? [resolveDocumentPath(b.openapi.file)] : [],
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
      await loadCatalogue(backends);
      const generation = await generations.bump(`watch:${hostname()}`);
      logger.info({ generation }, 'OpenAPI document changed: catalogue reload requested');
    } catch (error) {
      logger.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'OpenAPI document changed but the catalogue does not build: keeping the current one',
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
