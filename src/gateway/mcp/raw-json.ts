// Pre-serialised JSON fragments spliced into responses verbatim: tools/list pages are assembled from each
// tool's cached JSON text, and a tools/call result's structuredContent is the backend's own JSON text,
// instead of re-serialising hundreds of schemas or the parsed backend body per request (Node 20 has no
// JSON.rawJSON). `toJSON` hands the text over, so serialisation needs no replacer function walking every
// key of the response. `encodeWithRaw` writes the response straight to bytes: a RawJson keeps its UTF-8
// encoding once made, so a cached tools/list page of hundreds of kilobytes is copied into the response
// buffer, not re-encoded (and first flattened into one string) on every send.
import { randomBytes } from 'node:crypto';

// A per-process token no client or backend can guess, so a string they chose can never collide with it.
const TOKEN = `\u0000raw-${randomBytes(12).toString('hex')}\u0000`;
const QUOTED_TOKEN = JSON.stringify(TOKEN);

/** A fragment handed over during serialisation: a RawJson, or a source text. */
type Fragment = RawJson | string;

/** The fragments handed over by `toJSON` during the current serialisation (null outside one). */
let collected: Fragment[] | null = null;

/** Inside `encodeWithRaw`: keeps the fragment and stands in for it; elsewhere: undefined. */
function handOver(fragment: Fragment): string | undefined {
  if (collected === null) return undefined;
  collected.push(fragment);
  return TOKEN;
}

export class RawJson {
  private encoded: Buffer | undefined;

  constructor(readonly text: string) {}

  /** The text as UTF-8, encoded once and kept (a RawJson is immutable). */
  get bytes(): Buffer {
    this.encoded ??= Buffer.from(this.text, 'utf8');
    return this.encoded;
  }

  toJSON(): unknown {
    return handOver(this) ?? (JSON.parse(this.text) as unknown);
  }
}

/**
 * Marks `value` (parsed from `text`, and not changed since) so that `encodeWithRaw` writes `text`
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

/**
 * JSON.stringify as UTF-8 bytes, RawJson values (and `withSourceText` values) spliced in verbatim: each
 * RawJson copied in from its kept encoding. A response with no RawJson in it (a tools/call result, whose
 * source text is a string) is joined into one string and encoded once.
 */
export function encodeWithRaw(value: unknown): Buffer {
  const pieces = piecesOf(value);
  if (!pieces.some((piece) => piece instanceof RawJson)) return Buffer.from(pieces.join(''));
  return Buffer.concat(
    pieces.map((piece) => (piece instanceof RawJson ? piece.bytes : Buffer.from(piece))),
  );
}

/** The serialised value as its pieces in order: the JSON text around each fragment, and the fragments. */
function piecesOf(value: unknown): Fragment[] {
  const { text, fragments } = serialise(value);
  if (fragments.length === 0) return [text];
  const pieces: Fragment[] = [];
  text.split(QUOTED_TOKEN).forEach((part, index) => {
    if (index > 0) pieces.push(fragments[index - 1] ?? 'null');
    if (part.length > 0) pieces.push(part);
  });
  return pieces;
}

function serialise(value: unknown): { text: string; fragments: Fragment[] } {
  const outer = collected;
  const fragments: Fragment[] = [];
  collected = fragments;
  try {
    return { text: JSON.stringify(value), fragments };
  } finally {
    collected = outer;
  }
}
