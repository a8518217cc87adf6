// tools/list: the catalogue as the caller may see it, one page at a time. A page is assembled once per
// directory revision (a new catalogue or changed approvals moves it), revision family, subscription view
// and cursor, and kept, encoded, in a small LRU: a repeated tools/list costs a lookup and a copy of the
// bytes, not a pass over the catalogue and the assembly of hundreds of kilobytes.
import type { ToolDirectory } from '../catalogue/directory.js';
import { shownSchemas, type SchemaView } from '../catalogue/compact.js';
import type { Tool } from '../catalogue/types.js';
import { GatewayError } from '../errors.js';
import { hasStructuredContent, hasToolAnnotations } from './protocol.js';
import { LruMap } from '../../shared/lru-map.js';
import { RawJson } from './raw-json.js';
import { mayUseTool, type Caller } from '../caller.js';

export interface ToolListingOptions {
  readonly directory: ToolDirectory;
  readonly pageSize: number;
  /** How tools/list shows schemas (default `compact`); calls are validated on the full ones either way. */
  readonly schemaView?: SchemaView | undefined;
}

/** How many assembled tools/list pages are kept (views × revision families × pages, in practice). */
const MAX_CACHED_PAGES = 64;

/** How many distinct subscription views get names before the naming starts afresh. */
const MAX_VIEWS = 1024;

interface CachedPage {
  readonly tools: RawJson;
  readonly nextCursor: string | undefined;
}

/** The revision family: the revisions within one describe a tool alike. */
function familyOf(version: string): string {
  return hasStructuredContent(version)
    ? 'current'
    : hasToolAnnotations(version)
      ? '2025-03-26'
      : '2024-11-05';
}

/**
 * The same JSON with every non-ASCII character written as a \u escape: one such character (in an
 * OpenAPI description, say) would otherwise make a whole page a two-byte string, twice the memory and
 * slower to encode on every send.
 */
export function asciiJson(json: string): string {
  return json.replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export class ToolListing {
  /** Per revision family, each tool's listing JSON; keyed by the Tool object, so a reload starts afresh. */
  private readonly shapes = new Map<string, WeakMap<Tool, string>>();
  /** Assembled pages by listing key (see `list`). */
  private readonly pages = new LruMap<string, CachedPage>(MAX_CACHED_PAGES);
  /** A short name per subscription view (the set of tools it may use), by the set object. */
  private readonly viewNames = new WeakMap<ReadonlySet<string>, string>();
  /** View names by content, so equal sets share cached pages; bounded (cleared when full). */
  private readonly viewsByContent = new Map<string, string>();
  private nextView = 0;

  constructor(private readonly options: ToolListingOptions) {}

  /** One page of the tools the caller may use. */
  async list(
    caller: Caller,
    params: Record<string, unknown>,
    version: string,
  ): Promise<Record<string, unknown>> {
    const cursor = params.cursor;
    if (cursor !== undefined && typeof cursor !== 'string')
      throw new GatewayError('INVALID_CURSOR', 'Invalid params: cursor must be a string');
    const { directory } = this.options;
    await directory.refresh();
    const family = familyOf(version);
    // A tool bundle's endpoint lists its own pages (its scope follows the revision, federation/bundles.ts).
    const key = `${directory.revision}|${family}|${this.viewOf(caller.subscription.tools)}|${caller.bundle?.name ?? ''}|${cursor ?? ''}`;
    let cached = this.pages.get(key);
    if (cached === undefined) {
      const page = directory.page(cursor, this.options.pageSize, (n) => mayUseTool(caller, n));
      const tools = new RawJson(`[${page.tools.map((t) => this.shape(t, version)).join(',')}]`);
      cached = { tools, nextCursor: page.nextCursor };
      this.pages.set(key, cached);
    }
    const { tools, nextCursor } = cached;
    return nextCursor === undefined ? { tools } : { tools, nextCursor };
  }

  /** The caller's view for page keys: `all`, or a short name shared by every equal set of tools. */
  private viewOf(tools: ReadonlySet<string> | 'all'): string {
    if (tools === 'all') return 'all';
    const known = this.viewNames.get(tools);
    if (known !== undefined) return known;
    const content = [...tools].sort().join('\n');
    if (this.viewsByContent.size >= MAX_VIEWS) this.viewsByContent.clear();
    let name = this.viewsByContent.get(content);
    if (name === undefined) {
      name = `v${this.nextView++}`;
      this.viewsByContent.set(content, name);
    }
    this.viewNames.set(tools, name);
    return name;
  }

  /** The tool's JSON as the given protocol revision describes it (cached per revision family: the
   * revisions within a family describe a tool alike). */
  private shape(tool: Tool, version: string): string {
    const family = familyOf(version);
    let cache = this.shapes.get(family);
    if (!cache) {
      cache = new WeakMap();
      this.shapes.set(family, cache);
    }
    let shaped = cache.get(tool);
    if (!shaped) {
      shaped = asciiJson(
        JSON.stringify(describeTool(tool, version, this.options.schemaView ?? 'compact')),
      );
      cache.set(tool, shaped);
    }
    return shaped;
  }
}

/**
 * The tool as the given protocol revision describes it: title, outputSchema and structuredContent arrived
 * in 2025-06-18 (before that the title travels in the annotations), annotations in 2025-03-26. The
 * schemas are the `view` of the tool's own (catalogue/compact.ts); arguments and results are validated
 * against the full ones (arguments.ts), whatever is shown.
 */
export function describeTool(
  tool: Tool,
  version: string,
  view: SchemaView = 'compact',
): Record<string, unknown> {
  const current = hasStructuredContent(version);
  const shown = shownSchemas(current ? tool : { ...tool, outputSchema: undefined }, view);
  const out: Record<string, unknown> = { name: tool.name };
  if (current && tool.title) out.title = tool.title;
  if (tool.description) out.description = tool.description;
  out.inputSchema = shown.inputSchema;
  if (shown.outputSchema) out.outputSchema = shown.outputSchema;
  if (!hasToolAnnotations(version)) return out;
  const annotations: Record<string, unknown> = { ...tool.annotations };
  if (!current && tool.title && annotations.title === undefined) annotations.title = tool.title;
  out.annotations = annotations;
  return out;
}
