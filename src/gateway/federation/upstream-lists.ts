// One list of one upstream MCP server (`resources/list`, `resources/templates/list`, `prompts/list`),
// cached the way the upstream tool lists are: fetched whole (every page, `listAll`: the upstream's cursors
// never reach a client), reused for the upstream's own ttlMs or else `mcp.listTtlMs`, dropped when the
// upstream says the list changed, fetched again by the next request that needs it. An upstream that
// cannot answer offers nothing until it can; the change of state is logged once, not per request.
// Plus the gateway's own cursor over a merged list (an offset, opaque to clients).
import { GatewayError } from '../errors.js';
import type { Logger } from '../../shared/log/logger.js';
import { UpstreamError, type UpstreamMcp } from './contracts.js';

/** The most items one upstream list may hold; the rest are left out (and logged). */
export const MAX_LIST_ITEMS = 10_000;

export type ListState =
  | {
      readonly kind: 'ok';
      readonly items: readonly Record<string, unknown>[];
      readonly ttlMs: number;
    }
  | { readonly kind: 'down'; readonly error: UpstreamError };

interface Cached {
  readonly items: readonly Record<string, unknown>[];
  readonly ttlMs: number;
  readonly expiresAt: number;
}

export class UpstreamList {
  private cached: Cached | undefined;
  private inFlight: Promise<ListState> | undefined;
  /** Moves on every invalidation: a fetch that started before one does not refill the cache. */
  private generation = 0;
  private lastKind: 'ok' | 'down' | undefined;

  constructor(
    private readonly upstream: UpstreamMcp,
    /** The list method, e.g. `resources/list`. */
    readonly method: string,
    /** The result key holding the items, e.g. `resources`. */
    private readonly key: string,
    private readonly fallbackTtlMs: number,
    private readonly now: () => number = Date.now,
    private readonly logger?: Logger,
  ) {}

  /** The upstream said the list changed (`notifications/…/list_changed`): the next request refetches. */
  invalidate(): void {
    this.generation++;
    this.cached = undefined;
    this.inFlight = undefined;
  }

  /** The list now: cached while fresh, otherwise fetched (concurrent requests share one fetch). */
  async current(): Promise<ListState> {
    const cached = this.cached;
    if (cached !== undefined && this.now() < cached.expiresAt)
      return { kind: 'ok', items: cached.items, ttlMs: cached.ttlMs };
    if (this.upstream.circuitOpen)
      return this.settle(
        new UpstreamError(this.upstream.backend, 'circuit_open', 'the circuit breaker is open'),
      );
    this.inFlight ??= this.fetch();
    return this.inFlight;
  }

  private async fetch(): Promise<ListState> {
    const generation = this.generation;
    try {
      const answer = await this.upstream.listAll(this.method, this.key);
      let items = answer.items;
      if (items.length > MAX_LIST_ITEMS) {
        this.logger?.warn(
          { backend: this.upstream.backend, method: this.method, items: items.length },
          `upstream list longer than ${MAX_LIST_ITEMS} items: the rest are left out`,
        );
        items = items.slice(0, MAX_LIST_ITEMS);
      }
      const ttlMs =
        typeof answer.ttlMs === 'number' && Number.isFinite(answer.ttlMs) && answer.ttlMs >= 0
          ? Math.floor(answer.ttlMs)
          : this.fallbackTtlMs;
      if (generation === this.generation) {
        this.cached = { items, ttlMs, expiresAt: this.now() + ttlMs };
        this.inFlight = undefined;
      }
      if (this.lastKind === 'down')
        this.logger?.info(
          { backend: this.upstream.backend, method: this.method, items: items.length },
          'upstream list available again',
        );
      this.lastKind = 'ok';
      return { kind: 'ok', items, ttlMs };
    } catch (error) {
      if (generation === this.generation) this.inFlight = undefined;
      // An upstream that declares resources but not templates answers resources/templates/list with
      // "method not found": it has none, it is not down.
      if (error instanceof UpstreamError && error.reason === 'rpc' && error.rpc?.code === -32601) {
        if (generation === this.generation)
          this.cached = {
            items: [],
            ttlMs: this.fallbackTtlMs,
            expiresAt: this.now() + this.fallbackTtlMs,
          };
        return { kind: 'ok', items: [], ttlMs: this.fallbackTtlMs };
      }
      return this.settle(
        error instanceof UpstreamError
          ? error
          : new UpstreamError(
              this.upstream.backend,
              'protocol',
              error instanceof Error ? error.message : String(error),
            ),
      );
    }
  }

  /** Down: nothing cached survives (a stale list could route reads the upstream no longer serves). */
  private settle(error: UpstreamError): ListState {
    this.cached = undefined;
    if (this.lastKind !== 'down')
      this.logger?.warn(
        { backend: this.upstream.backend, method: this.method, reason: error.reason },
        `upstream list unavailable, its items are left out: ${error.message}`,
      );
    this.lastKind = 'down';
    return { kind: 'down', error };
  }
}

/** The longest cursor this gateway issues (anything longer is not one of ours). */
const MAX_CURSOR_LENGTH = 128;

/**
 * One page of a merged list: an opaque cursor holding the offset of the next item. The merged list is
 * assembled afresh per request from cached upstream lists; a list that changes between two pages may skip
 * or repeat an item, as any offset paging does, never fail.
 */
export function pageOf<T>(
  items: readonly T[],
  cursor: unknown,
  size: number,
): { readonly items: readonly T[]; readonly nextCursor?: string | undefined } {
  const start = cursor === undefined ? 0 : decodeOffset(cursor);
  const end = start + size;
  const page = items.slice(start, end);
  return end < items.length ? { items: page, nextCursor: encodeOffset(end) } : { items: page };
}

function encodeOffset(offset: number): string {
  return Buffer.from(JSON.stringify({ offset }), 'utf8').toString('base64url');
}

function decodeOffset(cursor: unknown): number {
  if (typeof cursor !== 'string')
    throw new GatewayError('INVALID_CURSOR', 'Invalid params: cursor must be a string');
  try {
    if (cursor.length > MAX_CURSOR_LENGTH) throw new Error('too long');
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const offset = (value as { offset?: unknown } | null)?.offset;
    if (typeof offset === 'number' && Number.isSafeInteger(offset) && offset >= 0) return offset;
  } catch {
    // fall through
  }
  throw new GatewayError(
    'INVALID_CURSOR',
    'Invalid params: the cursor is not one this server issued',
  );
}
