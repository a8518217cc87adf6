// The folder holding the package's package.json, found by walking up from this module. Files that are not
// compiled (OpenAPI documents, the portal's CSS and script) stay in src/ and are read from there at run
// time, whether the code runs from dist/ or elsewhere.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let found: string | undefined;

export function packageRoot(): string {
  if (found !== undefined) return found;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return (found = dir);
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`package.json not found above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}
