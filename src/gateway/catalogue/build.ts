// Dereferenced OpenAPI documents (one per backend, configuration order) → the tool catalogue. Pure.
import { toJsonSchema } from './json-schema.js';
import { nameFromRoute, sanitizeToolName, uniqueToolName } from './names.js';
import { mapOperation, METHODS } from './operation.js';
import {
  apiKeyHeaders,
  bearerSchemes,
  requiredApiKeyHeaders,
  securityClassOf,
  requiredScopesOf,
} from './security.js';
import type { BackendDocument, Catalogue, Tool } from './types.js';
import { isPlainObject } from '../../shared/is-plain-object.js';

export function buildCatalogue(documents: readonly BackendDocument[]): Catalogue {
  const tools: Tool[] = [];
  const taken = new Set<string>();
  const warnings: string[] = [];

  for (const { backend, document, injectedHeaders } of documents) {
    const bearer = bearerSchemes(document);
    const apiKeys = apiKeyHeaders(document);
    const injected = new Set(injectedHeaders.map((h) => h.toLowerCase()));
    const hidden = new Set([...injected, ...[...apiKeys.values()].map((h) => h.toLowerCase())]);
    const schemaNames = componentNames(document);
    const paths = isPlainObject(document.paths) ? document.paths : {};
    for (const [path, pathItem] of Object.entries(paths)) {
      if (!isPlainObject(pathItem)) continue;
      for (const method of METHODS) {
        const operation = pathItem[method.toLowerCase()];
        if (!isPlainObject(operation)) continue;
        const where = `${backend} ${method} ${path}`;
        const raw =
          typeof operation.operationId === 'string' && operation.operationId !== ''
            ? sanitizeToolName(operation.operationId)
            : nameFromRoute(method, path);
        const name = uniqueToolName(raw, backend, taken);
        if (name !== operation.operationId)
          warnings.push(
            `${where}: tool name "${name}" (operationId "${String(operation.operationId ?? '')}")`,
          );
        for (const header of requiredApiKeyHeaders(operation, document, apiKeys)) {
          if (!injected.has(header.toLowerCase()))
            warnings.push(`${where}: credential header ${header} is not in injectHeaders`);
        }
        const result = mapOperation({
          backend,
          name,
          method,
          path,
          pathItem,
          operation,
          securityClass: securityClassOf(operation, document, bearer),
          hiddenHeaders: hidden,
        });
        if ('skipped' in result) {
          warnings.push(`${where}: skipped (${result.skipped})`);
          continue;
        }
        taken.add(name);
        const scopes = requiredScopesOf(operation, document);
        const tool = scopes.length > 0 ? { ...result.tool, scopes } : result.tool;
        tools.push(schemaNames.size > 0 ? { ...tool, schemaNames } : tool);
      }
    }
  }
  return catalogueOf(tools, warnings);
}

/** A catalogue of these tools: sorted by name (the cursor order of tools/list) and indexed by it. */
export function catalogueOf(tools: Tool[], warnings: readonly string[]): Catalogue {
  tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { tools, byName: new Map(tools.map((t) => [t.name, t])), warnings };
}

/**
 * `components.schemas` names by the JSON text each component becomes as a tool input and output schema:
 * the dereferenced document reuses the component's object wherever it was referenced, so an inline copy
 * converts to the same text. The first name (alphabetically) wins when two components convert alike.
 */
function componentNames(document: BackendDocument['document']): Map<string, string> {
  const names = new Map<string, string>();
  const schemas = isPlainObject(document.components) ? document.components.schemas : undefined;
  if (!isPlainObject(schemas)) return names;
  for (const name of Object.keys(schemas).sort()) {
    for (const mode of ['input', 'output'] as const) {
      const text = JSON.stringify(toJsonSchema(schemas[name], mode));
      if (!names.has(text)) names.set(text, name);
    }
  }
  return names;
}
