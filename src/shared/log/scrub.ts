// Last line of defence against secrets in logs: every serialized log line passes through the scrubber,
// which replaces registered secret values and anything shaped like a bearer token, a JWT or a toolgate
// subscription key with its masked form.
import { maskSecret } from './mask.js';

const PATTERNS: readonly RegExp[] = [
  // JSON Web Tokens (three base64url segments, header starting with {" → eyJ)
  /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g,
  // toolgate subscription keys
  /tgk_[A-Za-z0-9_]{8,}/g,
  // "Bearer <anything>" and "Basic <anything>" credentials
  /(?<=\b(?:Bearer|Basic)\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  // subscription-key / api-key / apikey query parameters
  /(?<=[?&](?:subscription-key|api-key|apikey|access_token)=)[^&\s"]+/gi,
];

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
    for (const pattern of PATTERNS) out = out.replace(pattern, (match) => maskSecret(match));
    return out;
  }
}
