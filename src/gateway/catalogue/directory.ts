// The live view of the catalogue: which tools are approved (configuration, overridden by the stored
// approval state) and which a caller may see, with stateless cursor pagination over the sorted names. An
// approved tool whose definition no longer has its pinned hash is held back (catalogue/pins.ts). The
// upstream MCP servers' tools (federation/federated-tools.ts) are served beside the OpenAPI ones: the
// catalogue served is both, rebuilt whenever either changes, and the same approvals and pins apply.
import { GatewayError } from '../errors.js';
import type { FederatedTools } from '../federation/contracts.js';
import { catalogueOf } from './build.js';
import { definitionHash, toolDefinition } from './definition.js';
import type { CatalogueGeneration } from './generation.js';
import type { PinCandidate, PinStore } from './pins.js';
import type { Catalogue, Tool } from './types.js';

export type ApprovalState = 'approved' | 'revoked';

export interface ApprovalSource {
  load(): Promise<ReadonlyMap<string, ApprovalState>>;
}

export interface ToolPage {
  readonly tools: readonly Tool[];
  readonly nextCursor?: string | undefined;
}

/**
 * Where a new catalogue comes from when an operator asks for one (`toolgate tools reload`, or the document
 * watch): a generation number every replica reads from the shared store, and the loader that rebuilds the
 * catalogue from the backends' current OpenAPI documents.
 */
export interface CatalogueReloader {
  generation(): Promise<Pick<CatalogueGeneration, 'generation' | 'forced'>>;
  /**
   * The catalogue from the current documents, to replace `current`; refused (thrown) where the reload
   * guard refuses it (reload-guard.ts), unless the reload was forced.
   */
  load(
    current: Catalogue,
    forced: boolean,
  ): Promise<{ catalogue: Catalogue; configApproved: ReadonlySet<string> }>;
  /** A reload that failed or was refused: the replica keeps serving the catalogue it has. */
  failed(generation: number, error: unknown): void;
  /** A reload that succeeded. */
  reloaded?(generation: number, catalogue: Catalogue): void;
}

export class ToolDirectory {
  private stored: ReadonlyMap<string, ApprovalState> = new Map();
  private loadedAt = -Infinity;
  private pending: Promise<void> | undefined;
  /** The OpenAPI tools (replaced by a reload); `merged` adds the federated ones. */
  private current: Catalogue;
  private approvedByConfig: ReadonlySet<string>;
  /** The generation this replica last loaded (or tried to); undefined until the first refresh. */
  private generation: number | undefined;
  private changes = 0;
  /** Tool name → pinned definition hash (empty without a pin store). */
  private pinned: ReadonlyMap<string, string> = new Map();
  /** The catalogue whose pins were last reconciled (pinned where absent, held back where changed). */
  private reconciled: Catalogue | undefined;
  private readonly candidates = new WeakMap<Tool, PinCandidate>();
  /** The served catalogue, and the OpenAPI catalogue and federated revision it was built from. */
  private merged: { base: Catalogue; revision: number; catalogue: Catalogue } | undefined;
  private reconciling: Promise<void> | undefined;
  /** The catalogue whose pins were last tried, reconciled or not (a failure waits for the next refresh). */
  private attempted: Catalogue | undefined;

  constructor(
    catalogue: Catalogue,
    /** Tool names approved by configuration. */
    configApproved: ReadonlySet<string>,
    private readonly source?: ApprovalSource,
    private readonly refreshMs = 5000,
    private readonly now: () => number = Date.now,
    private readonly reloader?: CatalogueReloader,
    private readonly pins?: PinStore,
    /** Told when reconciling pins fails (the next refresh tries again). */
    private readonly pinFailed: (error: unknown) => void = () => undefined,
    /** The upstream MCP servers' tools, served beside the catalogue's. */
    private readonly federated?: FederatedTools,
  ) {
    this.current = catalogue;
    this.approvedByConfig = configApproved;
  }

  /**
   * A number that moves whenever what `page` and `find` answer may change: a new catalogue, or stored
   * approvals that differ from the last ones read. Listings cached under it stay right until it moves.
   */
  get revision(): number {
    // Both counters only grow, so their sum moves whenever either does.
    return this.changes + (this.federated?.revision ?? 0);
  }

  /** The catalogue being served: the OpenAPI tools (replaced as a whole by a reload) and the federated. */
  get catalogue(): Catalogue {
    const federated = this.federated;
    if (!federated) return this.current;
    const merged = this.merged;
    if (merged?.base === this.current && merged.revision === federated.revision)
      return merged.catalogue;
    // The federated tools never take an OpenAPI tool's name (federated-tools.ts); should a reload bring
    // one that an upstream tool has, the OpenAPI tool keeps it until the upstream's next refresh.
    const extra = federated.tools().filter((t) => !this.current.byName.has(t.name));
    const catalogue = catalogueOf([...this.current.tools, ...extra], this.current.warnings);
    this.merged = { base: this.current, revision: federated.revision, catalogue };
    return catalogue;
  }

  /** The OpenAPI catalogue alone (what a reload replaces and the reload guard counts). */
  get base(): Catalogue {
    return this.current;
  }

  /**
   * Re-reads the stored approval state, and the catalogue generation, when older than refreshMs (all
   * replicas converge within refreshMs of a change). A generation newer than the one loaded rebuilds the
   * catalogue; the first refresh only records the generation the starting catalogue belongs to.
   */
  async refresh(force = false): Promise<void> {
    // Never waits: upstream lists that are stale are reloaded in the background.
    this.federated?.poke();
    if (!this.source) return;
    if (!force && this.now() - this.loadedAt < this.refreshMs) {
      // A federated list changed since the pins were reconciled: new upstream tools are pinned (and
      // changed ones recorded as held back) now, not a whole approval refresh later.
      if (this.pins && this.federated && this.attempted !== this.catalogue)
        await this.reconcilePins();
      return;
    }
    this.pending ??= this.reread().finally(() => {
      this.pending = undefined;
    });
    await this.pending;
  }

  private async reread(): Promise<void> {
    const [state, latest, pinned] = await Promise.all([
      this.source?.load() ?? new Map<string, ApprovalState>(),
      this.reloader?.generation(),
      this.pins?.load(),
    ]);
    const generation = latest?.generation;
    if (!sameApprovals(this.stored, state)) this.changes++;
    this.stored = state;
    if (pinned !== undefined) this.setPins(pinned);
    this.loadedAt = this.now();
    await this.reconcilePins();
    if (this.reloader === undefined || generation === undefined) return;
    if (this.generation === undefined || generation <= this.generation) {
      this.generation ??= generation;
      return;
    }
    this.generation = generation;
    // In the background: requests keep the catalogue they have until the new one is complete (a document
    // behind a URL may take seconds), then the swap is one assignment.
    this.reloading = this.reload(this.reloader, generation, latest?.forced === true);
  }

  /** The reload in progress, if any (tests and shutdown wait on it). */
  reloading: Promise<void> | undefined;

  private async reload(
    reloader: CatalogueReloader,
    generation: number,
    forced: boolean,
  ): Promise<void> {
    try {
      const next = await reloader.load(this.current, forced);
      this.current = next.catalogue;
      this.approvedByConfig = next.configApproved;
      this.changes++;
      reloader.reloaded?.(generation, next.catalogue);
      await this.reconcilePins();
    } catch (error) {
      reloader.failed(generation, error);
    }
  }

  /** Approved (stored state, else configuration) and not held back: listed and callable. */
  isApproved(name: string): boolean {
    return this.approvalOf(name) && !this.isHeldBack(name);
  }

  /** Approved, whether or not its definition still matches its pin. */
  private approvalOf(name: string): boolean {
    const state = this.stored.get(name);
    if (state !== undefined) return state === 'approved';
    return this.approvedByConfig.has(name) || this.federated?.approved().has(name) === true;
  }

  /**
   * The tool's definition differs from the one pinned when it was approved: it looks unknown to every
   * caller until someone re-approves it.
   */
  isHeldBack(name: string): boolean {
    const pin = this.pinned.get(name);
    const tool = this.catalogue.byName.get(name);
    return pin !== undefined && tool !== undefined && pin !== this.candidate(tool).hash;
  }

  private candidate(tool: Tool): PinCandidate {
    let found = this.candidates.get(tool);
    if (!found) {
      const definition = toolDefinition(tool);
      found = { name: tool.name, hash: definitionHash(definition), definition };
      this.candidates.set(tool, found);
    }
    return found;
  }

  private setPins(pinned: ReadonlyMap<string, string>): void {
    if (!sameApprovals(this.pinned, pinned)) this.changes++;
    this.pinned = pinned;
  }

  /**
   * Once per catalogue: pins the approved tools that have no pin yet, and records (audited, once across
   * replicas) the approved tools held back because their definition changed.
   */
  private async reconcilePins(): Promise<void> {
    // One at a time: a refresh and a federated change may both ask.
    while (this.reconciling) await this.reconciling;
    this.reconciling = this.reconcileOnce().finally(() => {
      this.reconciling = undefined;
    });
    await this.reconciling;
  }

  private async reconcileOnce(): Promise<void> {
    const pins = this.pins;
    const catalogue = this.catalogue;
    if (!pins || this.reconciled === catalogue) return;
    this.attempted = catalogue;
    try {
      const approved = catalogue.tools.filter((t) => this.approvalOf(t.name));
      const unpinned = approved.filter((t) => !this.pinned.has(t.name));
      const held = approved.filter((t) => this.isHeldBack(t.name));
      if (unpinned.length > 0) {
        await pins.pinIfAbsent(unpinned.map((t) => this.candidate(t)));
        this.setPins(await pins.load());
      }
      if (held.length > 0) await pins.recordHeld(held.map((t) => this.candidate(t)));
      const matching = approved.filter((t) => this.pinned.has(t.name) && !this.isHeldBack(t.name));
      if (matching.length > 0) await pins.clearHeld(matching.map((t) => this.candidate(t)));
      this.reconciled = catalogue;
    } catch (error) {
      this.pinFailed(error);
    }
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

function sameApprovals(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [name, state] of a) if (b.get(name) !== state) return false;
  return true;
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
