// Pre-serialised JSON fragments spliced into responses verbatim: tools/list pages are assembled from each
// tool's cached JSON text, and a tools/call result's structuredContent is the backend's own JSON text,
// instead of re-serialising hundreds of schemas or the parsed backend body per request (Node 20 has no
// JSON.rawJSON). `toJSON` hands the text over, so serialisation needs no replacer function walking every
// key of the response.
import { randomBytes } from 'node:crypto';

// A per-process token no client or backend can guess, so a string they chose can never collide with it.
const TOKEN = `\u0000raw-${randomBytes(12).toString('hex')}\u0000`;
const QUOTED_TOKEN = JSON.stringify(TOKEN);

/** The texts handed over by `toJSON` during the current `stringifyWithRaw` (null outside one). */
let collected: string[] | null = null;

/** Inside `stringifyWithRaw`: keeps `text` and stands in for it; elsewhere: undefined. */
function handOver(text: string): string | undefined {
  if (collected === null) return undefined;
  collected.push(text);
  return TOKEN;
}

export class RawJson {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return handOver(this.text) ?? (JSON.parse(this.text) as unknown);
  }
}

/**
 * Marks `value` (parsed from `text`, and not changed since) so that `stringifyWithRaw` writes `text`
 * instead of serialising it again; a plain JSON.stringify still serialises the value. The mark is a
 * non-enumerable `toJSON`, invisible to validation, comparison and enumeration.
 */
export function withSourceText<T extends object>(value: T, text: string): T {
  // A body with its own "toJSON" member keeps it (and is serialised the ordinary way).
  if (Object.hasOwn(value, 'toJSON')) return value;
  Object.defineProperty(value, 'toJSON', {
    value(this: T): unknown {
      return handOver(text) ?? this;
    },
    enumerable: false,
    configurable: true,
  });
  return value;
}

/** JSON.stringify that splices RawJson values (and `withSourceText` values) in verbatim. */
export function stringifyWithRaw(value: unknown): string {
  const outer = collected;
  const raws: string[] = [];
  collected = raws;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    collected = outer;
  }
  if (raws.length === 0) return text;
  let i = 0;
  return text
    .split(QUOTED_TOKEN)
    .reduce((out, part, index) => (index === 0 ? part : out + (raws[i++] ?? 'null') + part), '');
}
