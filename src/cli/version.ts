// The package's version, read once from its package.json (for `toolgate --version`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../shared/package-root.js';

export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}
