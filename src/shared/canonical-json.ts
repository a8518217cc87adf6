// Canonical JSON for hashing (RFC 8785 for values parsed from JSON): object keys sorted by UTF-16 code
// units at every depth, undefined members left out, no whitespace, numbers and strings as ECMAScript
// serialises them. Two equal values always give the same text, whatever order their keys were built in.

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  const members = Object.keys(value)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${members.join(',')}}`;
}
