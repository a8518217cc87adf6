// Last line of defence against secrets in logs: every serialized log line passes through the scrubber,
// which replaces registered secret values and anything shaped like a bearer token, a JWT or a toolgate
// subscription key with its masked form.
import { maskSecret } from './mask.js';

/**
 * Three base64url segments starting at a segment boundary: the shape of a JWS (and the start of a JWE).
 * Masked when the first segment decodes to a JSON object (whitespace allowed before the brace, as in
 * `eyAi…` for `{ "alg"…`), i.e. when a JOSE parser could read it as a header; host names and dotted
 * version strings with the same shape stay readable.
 */
const JOSE_SHAPED = /(?<![A-Za-z0-9_-])([A-Za-z0-9_-]{4,})\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;

function maskIfJose(match: string, header: string): string {
  const decoded = Buffer.from(header, 'base64url').toString('latin1');
  return /^[ \t\r\n]*\{/.test(decoded) ? maskSecret(match) : match;
}

/**
 * Each pattern with a literal the line must contain for the pattern to match at all: a cheap `includes`
 * (or one-character test) skips the regular expression on the many lines and fields that cannot hold it.
 */
const PATTERNS: readonly {
  readonly pattern: RegExp;
  readonly mayMatch: (line: string) => boolean;
}[] = [
  // JSON Web Tokens whose header is the usual {" (→ eyJ), wherever they start
  {
    pattern: /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g,
    mayMatch: (line) => line.includes('eyJ'),
  },
  // toolgate subscription keys
  { pattern: /tgk_[A-Za-z0-9_]{8,}/g, mayMatch: (line) => line.includes('tgk_') },
  // "Bearer <anything>" and "Basic <anything>" credentials
  {
    pattern: /(?<=\b(?:Bearer|Basic)\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
    mayMatch: (line) => WHITESPACE.test(line),
  },
  // subscription-key / api-key / apikey query parameters
  {
    pattern: /(?<=[?&](?:subscription-key|api-key|apikey|access_token)=)[^&\s"]+/gi,
    mayMatch: (line) => line.includes('='),
  },
];

const WHITESPACE = /\s/;

/** Two dots at least: what a JOSE-shaped value needs. */
function hasTwoDots(line: string): boolean {
  const first = line.indexOf('.');
  return first !== -1 && line.indexOf('.', first + 1) !== -1;
}

export class SecretScrubber {
  private readonly secrets = new Set<string>();

  constructor(initial: Iterable<string> = []) {
    for (const secret of initial) this.add(secret);
  }

  /** Registers a value that must never appear in logs (values shorter than 6 characters are ignored). */
  add(secret: string): void {
    if (secret.length >= 6) this.secrets.add(secret);
  }

  scrub(line: string): string {
    let out = line;
    for (const secret of this.secrets) {
      if (out.includes(secret)) out = out.split(secret).join(maskSecret(secret));
    }
    for (const { pattern, mayMatch } of PATTERNS)
      if (mayMatch(out)) out = out.replace(pattern, (match) => maskSecret(match));
    if (hasTwoDots(out)) out = out.replace(JOSE_SHAPED, maskIfJose);
    return out;
  }
}
