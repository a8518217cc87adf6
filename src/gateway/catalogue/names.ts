// Tool names: `[A-Za-z0-9_-]`, 1 to 64 characters, unique across backends (docs/decisions.md, D-042).
export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const MAX = 64;

/** Replaces every disallowed character by `_`, collapses runs, trims to 64 characters. */
export function sanitizeToolName(raw: string): string {
  const cleaned = raw
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^_+|_+$/g, '');
  return (cleaned === '' ? 'operation' : cleaned).slice(0, MAX);
}

/** A name for an operation without operationId: `get_payments_externalReferenceNo`. */
export function nameFromRoute(method: string, path: string): string {
  return sanitizeToolName(`${method.toLowerCase()}_${path.replace(/[{}]/g, '')}`);
}

/**
 * Collision rule: the first operation (backends in configuration order, operations in document order)
 * keeps the name; a later one becomes `<backend>__<name>`, and if that is taken too, gets `_2`, `_3` …
 * (always trimmed so the result stays within 64 characters).
 */
export function uniqueToolName(base: string, backend: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  const prefixed = `${backend}__${base}`.slice(0, MAX);
  if (!taken.has(prefixed)) return prefixed;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = prefixed.slice(0, MAX - suffix.length) + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}
