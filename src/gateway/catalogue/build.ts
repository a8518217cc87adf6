// Dereferenced OpenAPI documents (one per backend, configuration order) → the tool catalogue. Pure.
import { nameFromRoute, sanitizeToolName, uniqueToolName } from './names.js';
import { mapOperation, METHODS } from './operation.js';
import {
  apiKeyHeaders,
  bearerSchemes,
  requiredApiKeyHeaders,
  securityClassOf,
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
        tools.push(result.tool);
      }
    }
  }
  tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { tools, byName: new Map(tools.map((t) => [t.name, t])), warnings };
}
