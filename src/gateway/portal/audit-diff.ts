// The audit log's before → after as a readable difference: both sides flattened to paths
// (`limits.rateLimitPerMinute`), then one line per path that changed, was added or was removed; values as
// compact JSON. Lists of scalars are compared whole (`tools: ["a"] → ["a","b"]`). Pure.

export type DiffLine =
  | {
      readonly kind: 'changed';
      readonly path: string;
      readonly before: string;
      readonly after: string;
    }
  | { readonly kind: 'added'; readonly path: string; readonly after: string }
  | { readonly kind: 'removed'; readonly path: string; readonly before: string };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function flatten(value: unknown, prefix: string, out: Map<string, string>): void {
  if (isRecord(value) && Object.keys(value).length > 0) {
    for (const [key, v] of Object.entries(value))
      flatten(v, prefix === '' ? key : `${prefix}.${key}`, out);
    return;
  }
  out.set(prefix, JSON.stringify(value) ?? 'null');
}

/** The lines of the difference; empty when both sides are absent or equal. */
export function auditDiff(before: unknown, after: unknown): DiffLine[] {
  const absent = (v: unknown) => v === undefined || v === null;
  const b = new Map<string, string>();
  const a = new Map<string, string>();
  if (!absent(before)) flatten(before, '', b);
  if (!absent(after)) flatten(after, '', a);
  const paths = [...new Set([...b.keys(), ...a.keys()])];
  const lines: DiffLine[] = [];
  for (const path of paths) {
    const was = b.get(path);
    const now = a.get(path);
    if (was === now) continue;
    if (was === undefined) lines.push({ kind: 'added', path, after: now as string });
    else if (now === undefined) lines.push({ kind: 'removed', path, before: was });
    else lines.push({ kind: 'changed', path, before: was, after: now });
  }
  // An empty object that gained (or lost) fields is said by those fields' lines alone.
  const parent = (l: DiffLine) =>
    (l.kind === 'added' ? l.after : l.kind === 'removed' ? l.before : '') === '{}' &&
    paths.some((p) => p.startsWith(`${l.path}.`));
  return lines.filter((l) => !parent(l));
}
