// Upstream resources as the gateway offers them (issue 28), pure: which URIs and URI templates a
// backend's `mcp.resources.approve` prefixes let through, whether a URI is one a template expands to
// (RFC 6570), and the shape of a resource or template for the caller's protocol revision. URIs are kept as
// the upstream gives them: clients and upstreams both rely on them, so the gateway never rewrites one.
import { isPlainObject } from '../../shared/is-plain-object.js';
import { hasStructuredContent } from '../mcp/protocol.js';

/** Whether one of the prefixes starts the URI ("" approves every URI). */
export function uriApproved(uri: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => uri.startsWith(prefix));
}

/** The literal head of a URI template: everything before its first expression. */
export function templateHead(uriTemplate: string): string {
  const brace = uriTemplate.indexOf('{');
  return brace === -1 ? uriTemplate : uriTemplate.slice(0, brace);
}

/**
 * A template is offered only when every URI it can expand to is approved: its literal head starts with an
 * approved prefix. (A template whose head is shorter than the prefix could expand to URIs outside it.)
 */
export function templateApproved(uriTemplate: string, prefixes: readonly string[]): boolean {
  return uriApproved(templateHead(uriTemplate), prefixes);
}

/** The most expressions one template may have before it is treated as matching nothing. */
const MAX_EXPRESSIONS = 32;

/** Per RFC 6570 operator, what its expansion can look like (a value, or a list of them). */
const EXPRESSION_PATTERNS: Readonly<Record<string, string>> = {
  // simple string expansion: reserved characters are percent-encoded, so no / ? # appear
  '': '[^/?#]*',
  // reserved (+) and fragment (#) expansion keep reserved characters
  '+': '.*',
  '#': '(?:#.*)?',
  '.': '(?:\\.[^/?#]*)*',
  '/': '(?:/[^/?#]*)*',
  ';': '(?:;[^/?#]*)*',
  '?': '(?:\\?[^#]*)?',
  '&': '(?:&[^#]*)*',
};

/**
 * Whether `uri` is an expansion of the RFC 6570 template (levels 1–4; explode and prefix modifiers are
 * covered by each operator's shape). Matching is on shape, not on variable values: it says which upstream
 * template a URI belongs to, the upstream decides whether the resource exists.
 */
export function templateMatches(uriTemplate: string, uri: string): boolean {
  const parts = uriTemplate.split(/(\{[^{}]*\})/);
  if (parts.length > MAX_EXPRESSIONS * 2 + 1) return false;
  let source = '^';
  for (const part of parts) {
    if (part.startsWith('{') && part.endsWith('}')) {
      const body = part.slice(1, -1);
      const operator = /^[+#./;?&]/.test(body) ? body[0]! : '';
      const pattern = EXPRESSION_PATTERNS[operator];
      if (pattern === undefined) return false;
      source += pattern;
    } else source += part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`${source}$`, 's').test(uri);
}

/** The fields of a resource the revisions know: title and icons arrived in 2025-06-18 / 2025-11-25. */
const RESOURCE_FIELDS = ['uri', 'name', 'description', 'mimeType', 'size', 'annotations', '_meta'];
const TEMPLATE_FIELDS = ['uriTemplate', 'name', 'description', 'mimeType', 'annotations', '_meta'];

/** A resource as listed to the caller's revision; undefined when the upstream's item is unusable. */
export function shapeResource(
  item: Readonly<Record<string, unknown>>,
  version: string,
): Record<string, unknown> | undefined {
  if (typeof item.uri !== 'string' || item.uri === '' || typeof item.name !== 'string')
    return undefined;
  return pick(item, RESOURCE_FIELDS, version);
}

/** A resource template as listed to the caller's revision; undefined when unusable. */
export function shapeTemplate(
  item: Readonly<Record<string, unknown>>,
  version: string,
): Record<string, unknown> | undefined {
  if (typeof item.uriTemplate !== 'string' || item.uriTemplate === '') return undefined;
  if (typeof item.name !== 'string') return undefined;
  return pick(item, TEMPLATE_FIELDS, version);
}

/** The known fields (an upstream's own extensions stay upstream), plus title/icons where known. */
export function pick(
  item: Readonly<Record<string, unknown>>,
  fields: readonly string[],
  version: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) if (item[field] !== undefined) out[field] = item[field];
  if (hasStructuredContent(version)) {
    if (typeof item.title === 'string') out.title = item.title;
    if (version !== '2025-06-18' && Array.isArray(item.icons)) out.icons = item.icons;
  }
  if (out.annotations !== undefined && !isPlainObject(out.annotations)) delete out.annotations;
  if (out._meta !== undefined && !isPlainObject(out._meta)) delete out._meta;
  return out;
}

/**
 * The `contents` of a `resources/read` answer: each one an object with a string `uri` and `text` or `blob`
 * (anything else means the upstream's answer is not one the gateway can pass on).
 */
export function readContents(result: Readonly<Record<string, unknown>>): unknown[] | undefined {
  const contents = result.contents;
  if (!Array.isArray(contents)) return undefined;
  const usable = contents.every(
    (c) =>
      isPlainObject(c) &&
      typeof c.uri === 'string' &&
      (typeof c.text === 'string' || typeof c.blob === 'string'),
  );
  return usable ? contents : undefined;
}
