// Pre-serialised JSON fragments: tools/list pages are assembled from each tool's cached JSON text instead
// of re-serialising hundreds of schemas per request (Node 20 has no JSON.rawJSON).
import { randomBytes } from 'node:crypto';

export class RawJson {
  constructor(readonly text: string) {}
}

// A per-process token no client can guess, so a client-chosen id can never collide with it.
const TOKEN = `\u0000raw-${randomBytes(12).toString('hex')}\u0000`;
const QUOTED_TOKEN = JSON.stringify(TOKEN);

/** JSON.stringify that splices RawJson values in verbatim. */
export function stringifyWithRaw(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof RawJson) {
      raws.push(v.text);
      return TOKEN;
    }
    return v;
  });
  if (raws.length === 0) return text;
  let i = 0;
  return text
    .split(QUOTED_TOKEN)
    .reduce((out, part, index) => (index === 0 ? part : out + (raws[i++] ?? 'null') + part), '');
}
