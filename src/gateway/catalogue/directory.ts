// The live view of the catalogue: which tools are approved (configuration, overridden by the stored
// approval state) and which a caller may see, with stateless cursor pagination over the sorted names.
import { GatewayError } from '../errors.js';
import type { Catalogue, Tool } from './types.js';

export type ApprovalState = 'approved' | 'revoked';

export interface ApprovalSource {
  load(): Promise<ReadonlyMap<string, ApprovalState>>;
}

export interface ToolPage {
  readonly tools: readonly Tool[];
  readonly nextCursor?: string | undefined;
}

export class ToolDirectory {
  private stored: ReadonlyMap<string, ApprovalState> = new Map();
  private loadedAt = -Infinity;
  private pending: Promise<void> | undefined;

  constructor(
    readonly catalogue: Catalogue,
    /** Tool names approved by configuration. */
    private readonly configApproved: ReadonlySet<string>,
    private readonly source?: ApprovalSource,
    private readonly refreshMs = 5000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Re-reads the stored approval state when older than refreshMs (all replicas converge). */
  async refresh(force = false): Promise<void> {
    if (!this.source) return;
    if (!force && this.now() - this.loadedAt < this.refreshMs) return;
    this.pending ??= this.source
      .load()
      .then((state) => {
        this.stored = state;
        this.loadedAt = this.now();
      })
      .finally(() => {
        this.pending = undefined;
      });
    await this.pending;
  }

  isApproved(name: string): boolean {
    const state = this.stored.get(name);
    if (state !== undefined) return state === 'approved';
    return this.configApproved.has(name);
  }

  /** The tool if it exists, is approved and `visible` allows it. */
  find(name: string, visible: (name: string) => boolean): Tool | undefined {
    const tool = this.catalogue.byName.get(name);
    return tool && this.isApproved(name) && visible(name) ? tool : undefined;
  }

  page(cursor: string | undefined, size: number, visible: (name: string) => boolean): ToolPage {
    const tools = this.catalogue.tools;
    let start = 0;
    if (cursor !== undefined) start = firstAfter(tools, decodeCursor(cursor));
    const out: Tool[] = [];
    let i = start;
    for (; i < tools.length && out.length < size; i++) {
      const tool = tools[i] as Tool;
      if (this.isApproved(tool.name) && visible(tool.name)) out.push(tool);
    }
    const more = out.length === size && hasMore(this, tools, i, visible);
    const last = out[out.length - 1];
    return { tools: out, nextCursor: more && last ? encodeCursor(last.name) : undefined };
  }
}

function hasMore(
  dir: ToolDirectory,
  tools: readonly Tool[],
  from: number,
  visible: (name: string) => boolean,
): boolean {
  for (let i = from; i < tools.length; i++) {
    const name = (tools[i] as Tool).name;
    if (dir.isApproved(name) && visible(name)) return true;
  }
  return false;
}

/** Index of the first tool whose name sorts after `name` (binary search; names are sorted). */
function firstAfter(tools: readonly Tool[], name: string): number {
  let lo = 0;
  let hi = tools.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((tools[mid] as Tool).name <= name) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Opaque cursor: base64url of `{"after": <last name returned>}` — no server state needed. */
export function encodeCursor(after: string): string {
  return Buffer.from(JSON.stringify({ after }), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): string {
  try {
    if (cursor.length > 512) throw new Error('too long');
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null && 'after' in value) {
      const after = (value as { after: unknown }).after;
      if (typeof after === 'string') return after;
    }
  } catch {
    // fall through
  }
  throw new GatewayError(
    'INVALID_CURSOR',
    'Invalid params: the cursor is not one this server issued',
  );
}

/** Tool names approved by backends' `approve` settings ('all' or tool names / operationIds). */
export function configApprovals(
  catalogue: Catalogue,
  backends: readonly { readonly name: string; readonly approve: 'all' | readonly string[] }[],
): Set<string> {
  const approved = new Set<string>();
  for (const backend of backends) {
    const list = backend.approve === 'all' ? undefined : new Set(backend.approve);
    for (const tool of catalogue.tools) {
      if (tool.backend !== backend.name) continue;
      if (!list || list.has(tool.name) || (tool.operationId && list.has(tool.operationId)))
        approved.add(tool.name);
    }
  }
  return approved;
}
