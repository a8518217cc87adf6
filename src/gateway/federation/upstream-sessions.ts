// The upstream sessions of one MCP backend: one per distinct credential (the per-request headers the
// call carries), least recently used evicted first beyond `mcp.maxSessions` (docs/decisions.md,
// D-318). Pure bookkeeping; closing an evicted session (HTTP
// DELETE) is the client's, through the callback.
import { createHash } from 'node:crypto';

/** The per-request headers a session was made with (needed to close it) and its id, once known. */
export interface UpstreamSession {
  readonly key: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Settles when `initialize` has run for this credential: the Mcp-Session-Id, or undefined (none given). */
  readonly ready: Promise<string | undefined>;
}

/**
 * The session key of a credential: a SHA-256 of the header names (lower-cased) and values, sorted. The
 * key never shows a value; two header sets that differ in any value never share a key.
 */
export function credentialKey(headers: Readonly<Record<string, string>> | undefined): string {
  if (headers === undefined) return 'anonymous';
  const entries = Object.entries(headers)
    .map(([name, value]) => [name.toLowerCase(), value] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length === 0) return 'anonymous';
  return createHash('sha256').update(JSON.stringify(entries)).digest('base64url');
}

export class UpstreamSessions {
  readonly #entries = new Map<string, UpstreamSession>();

  constructor(
    private readonly maxSessions: number,
    private readonly onEvict: (session: UpstreamSession) => void,
  ) {}

  /** The session of a key, marked as the most recently used. */
  get(key: string): UpstreamSession | undefined {
    const session = this.#entries.get(key);
    if (session === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, session);
    return session;
  }

  /** Stores a session as the most recently used; the least recently used beyond the bound are evicted. */
  set(session: UpstreamSession): void {
    this.#entries.delete(session.key);
    this.#entries.set(session.key, session);
    while (this.#entries.size > this.maxSessions) {
      const oldest = this.#entries.values().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value.key);
      this.onEvict(oldest.value);
    }
  }

  /** Forgets a session (the upstream forgot it, or its initialize failed) if it is still this one. */
  forget(session: UpstreamSession): void {
    if (this.#entries.get(session.key) === session) this.#entries.delete(session.key);
  }

  /** Removes and answers every session (close). */
  drain(): UpstreamSession[] {
    const all = [...this.#entries.values()];
    this.#entries.clear();
    return all;
  }

  get size(): number {
    return this.#entries.size;
  }
}
