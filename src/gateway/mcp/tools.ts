// tools/list and tools/call: the catalogue as the caller may see it, and calls through to the backends.
import type { FastifyBaseLogger } from 'fastify';
import type { ToolDirectory } from '../catalogue/directory.js';
import { shownSchemas, type SchemaView } from '../catalogue/compact.js';
import type { Tool } from '../catalogue/types.js';
import { GatewayError } from '../errors.js';
import type { BackendClient } from '../upstream/backend-client.js';
import { ArgumentError, buildBackendRequest } from '../upstream/build-request.js';
import type { IdentityForwarder } from '../upstream/identity.js';
import { errorResult, mapOutcome, type CallToolResult } from './tool-result.js';
import { nextTraceparent } from '../upstream/trace.js';
import type { ArgumentValidator } from './arguments.js';
import { hasStructuredContent, hasToolAnnotations } from './protocol.js';
import { LruMap } from '../../shared/lru-map.js';
import { RawJson } from './raw-json.js';
import { mayUseTool, type Caller } from '../caller.js';
import type { Gatekeeper } from '../admission/gatekeeper.js';
import type { UsageEvents } from '../usage/recorder.js';

export interface ToolServiceOptions {
  readonly directory: ToolDirectory;
  readonly validator: ArgumentValidator;
  readonly clients: ReadonlyMap<string, BackendClient>;
  /** Authorizes each call before its backend is reached (the tool's security class). */
  readonly gatekeeper: Pick<Gatekeeper, 'authorize'>;
  readonly identity: IdentityForwarder;
  readonly pageSize: number;
  /** Backend base URLs/origins never shown to clients. */
  readonly hidden: readonly string[];
  /** How tools/list shows schemas (default `compact`); calls are validated on the full ones either way. */
  readonly schemaView?: SchemaView | undefined;
  /** Told the outcome and latency of every call that reached a catalogue tool (usage recording). */
  readonly usage?: Pick<UsageEvents, 'call'> | undefined;
}

export interface CallTrace {
  readonly traceparent?: string | undefined;
  readonly tracestate?: string | undefined;
  readonly log?: FastifyBaseLogger | undefined;
  /** Adds fields to the request's access line (tool, backend, upstream outcome and time). */
  readonly annotate?: ((fields: Readonly<Record<string, unknown>>) => void) | undefined;
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

export class ToolService {
  /** Per revision family, each tool's listing JSON; keyed by the Tool object, so a reload starts afresh. */
  private readonly shapes = new Map<string, WeakMap<Tool, string>>();
  /** Assembled pages by listing key (see `list`). */
  private readonly pages = new LruMap<string, CachedPage>(MAX_CACHED_PAGES);
  /** A short name per subscription view (the set of tools it may use), by the set object. */
  private readonly viewNames = new WeakMap<ReadonlySet<string>, string>();
  /** View names by content, so equal sets share cached pages; bounded (cleared when full). */
  private readonly viewsByContent = new Map<string, string>();
  private nextView = 0;

  constructor(private readonly options: ToolServiceOptions) {}

  /**
   * One page of the tools the caller may use. A page is assembled once per directory revision (a new
   * catalogue or changed approvals moves it), revision family, subscription view and cursor, and kept,
   * encoded, in a small LRU: a repeated tools/list costs a lookup and a copy of the bytes, not a pass over
   * the catalogue and the assembly of hundreds of kilobytes.
   */
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
    const key = `${directory.revision}|${family}|${this.viewOf(caller.subscription.tools)}|${cursor ?? ''}`;
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

  async call(
    caller: Caller,
    params: Record<string, unknown>,
    version: string,
    trace: CallTrace = {},
  ): Promise<CallToolResult> {
    const usage = this.options.usage;
    const found: { tool?: Tool } = {};
    const started = usage ? performance.now() : 0;
    let result: CallToolResult | undefined;
    try {
      result = await this.callTool(caller, params, version, trace, found);
    } finally {
      // Calls of a catalogue tool only; a refusal after the tool was found (security class) is an error.
      if (usage && found.tool)
        usage.call(
          caller.subscription.id,
          found.tool.name,
          result === undefined || result.isError === true ? 'error' : 'ok',
          performance.now() - started,
        );
    }
    if (result.isError === true) trace.annotate?.({ toolError: true });
    return result;
  }

  private async callTool(
    caller: Caller,
    params: Record<string, unknown>,
    version: string,
    trace: CallTrace,
    found: { tool?: Tool },
  ): Promise<CallToolResult> {
    const name = params.name;
    if (typeof name !== 'string' || name === '')
      throw new GatewayError('INVALID_PARAMS', 'Invalid params: "name" must be a non-empty string');
    const args = params.arguments ?? {};
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      throw new GatewayError('INVALID_PARAMS', 'Invalid params: "arguments" must be an object');
    await this.options.directory.refresh();
    const tool = this.options.directory.find(name, (n) => mayUseTool(caller, n));
    if (!tool) throw new GatewayError('UNKNOWN_TOOL', `Unknown tool: ${name}`);
    found.tool = tool;
    trace.annotate?.({ tool: tool.name, backend: tool.backend });
    this.options.gatekeeper.authorize(caller, tool);

    const problems = this.options.validator.validate(tool, args);
    if (problems)
      return errorResult(
        `Invalid arguments for tool ${tool.name} (the backend was not called):\n- ${problems.join('\n- ')}`,
      );
    const client = this.options.clients.get(tool.backend);
    if (!client) throw new GatewayError('INTERNAL', 'Internal error: the tool has no backend');
    let request;
    try {
      // Hidden arguments (operator overrides) last: an agent cannot replace a fixed value.
      const sent = tool.fixedArguments
        ? { ...(args as Record<string, unknown>), ...tool.fixedArguments }
        : (args as Record<string, unknown>);
      request = buildBackendRequest(tool.operation, sent);
    } catch (error) {
      if (error instanceof ArgumentError)
        return errorResult(`Invalid arguments for tool ${tool.name}: ${error.message}`);
      throw error;
    }
    const headers: Record<string, string> = {
      ...request.headers,
      ...client.injectHeaders,
      ...(await this.options.identity(caller, tool)),
      accept: 'application/json, application/problem+json;q=0.9, */*;q=0.1',
      'x-request-id': caller.requestId,
      traceparent: nextTraceparent(trace.traceparent),
    };
    if (trace.tracestate !== undefined && trace.tracestate.length <= 512)
      headers.tracestate = trace.tracestate;
    const started = process.hrtime.bigint();
    const outcome = await client.send({ ...request, headers });
    trace.annotate?.({
      upstream: outcome.kind === 'response' ? outcome.status : outcome.reason,
      upstreamMs: Math.round(Number(process.hrtime.bigint() - started) / 1e3) / 1e3,
    });
    const result = mapOutcome(outcome, {
      structured: hasStructuredContent(version),
      hide: this.options.hidden,
      expectJson: tool.operation.jsonResponse === true || tool.outputSchema !== undefined,
      operation: tool.operationId ?? tool.name,
    });
    if (result.structuredContent !== undefined) {
      const problems = this.options.validator.validateOutput(tool, result.structuredContent);
      if (problems) {
        trace.log?.warn(
          { tool: tool.name, problems },
          'backend response does not match outputSchema',
        );
        return errorResult(
          `The backend's response does not match the operation's declared response schema (${problems.join('; ')}). Response: ${result.content[0]?.text ?? ''}`,
        );
      }
    }
    return result;
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
 * The tool as tools/list shows it: `current` for 2025-06-18 and later (title, outputSchema), else
 * 2025-03-26. The schemas are the `view` of the tool's own (catalogue/compact.ts); arguments and results
 * are validated against the full ones (arguments.ts), whatever is shown.
 */
/**
 * The tool as the given protocol revision describes it: title, outputSchema and structuredContent arrived
 * in 2025-06-18 (before that the title travels in the annotations), annotations in 2025-03-26.
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
