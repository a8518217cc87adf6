// Reads the service's OpenAPI documents once at startup. The YAML files live in the repository's
// src/payments/openapi/ folder (not copied to dist/); the package root is found by walking up from
// this module to the folder that holds package.json.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export type OpenApiDocument = Record<string, unknown>;

function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found');
    dir = parent;
  }
  return dir;
}

const cache = new Map<string, OpenApiDocument>();

/** Parsed `src/payments/openapi/<name>.yaml` (cached; callers must not mutate it). */
export function readOpenApiDocument(name: 'payment-order' | 'accounts'): OpenApiDocument {
  const hit = cache.get(name);
  if (hit) return hit;
  const file = path.join(packageRoot(), 'src', 'payments', 'openapi', `${name}.yaml`);
  const doc: unknown = parse(readFileSync(file, 'utf8'));
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new Error(`${file} is not an OpenAPI document`);
  }
  cache.set(name, doc as OpenApiDocument);
  return doc as OpenApiDocument;
}
