// Locates and parses the service's OpenAPI documents. The YAML files are read from the repository's
// src/ folder at runtime (they are not copied to dist/), so the package root is found by walking up
// from this module to the folder that holds package.json.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { packageRoot } from '../../shared/package-root.js';
import { parse } from 'yaml';
import { isPlainObject } from '../../shared/is-plain-object.js';

const openApiDir = path.join(packageRoot(), 'src', 'payments', 'openapi');

/** Absolute path of the Payment Order Service document (payment-order.yaml). */
export const paymentOrderDocumentPath: string = path.join(openApiDir, 'payment-order.yaml');

/** Absolute path of the accounts API document (accounts.yaml). */
export const accountsDocumentPath: string = path.join(openApiDir, 'accounts.yaml');

/** Reads and parses an OpenAPI YAML document as-is ($refs are left in place). */
export async function loadOpenApiDocument(file: string): Promise<Record<string, unknown>> {
  const text = await readFile(file, 'utf8');
  const doc: unknown = parse(text);
  if (!isPlainObject(doc) || typeof doc['openapi'] !== 'string') {
    throw new Error(`${file} is not an OpenAPI document`);
  }
  return doc;
}

/**
 * Turns the document's `components.schemas` into one JSON Schema 2020-12 resource whose `$defs` hold
 * the component schemas, with every `#/components/schemas/X` reference rewritten to `#/$defs/X`.
 * Add the result to Ajv once, then compile `{ $ref: `${id}#/$defs/Name` }` for any component.
 */
export function componentSchemaBundle(
  doc: Record<string, unknown>,
  id: string,
): { $id: string; $defs: Record<string, unknown> } {
  const components = doc['components'];
  const schemas = isPlainObject(components) ? components['schemas'] : undefined;
  if (!isPlainObject(schemas)) return { $id: id, $defs: {} };
  const rewritten: unknown = JSON.parse(
    JSON.stringify(schemas).replaceAll('"#/components/schemas/', '"#/$defs/'),
  );
  return { $id: id, $defs: isPlainObject(rewritten) ? rewritten : {} };
}
