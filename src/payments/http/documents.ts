// Reads the service's OpenAPI documents once at startup. The YAML files live in the repository's
// src/payments/openapi/ folder (not copied to dist/), found from the package root.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../shared/package-root.js';
import { parse } from 'yaml';

export type OpenApiDocument = Record<string, unknown>;

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
