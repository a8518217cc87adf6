// A tools/call of an upstream MCP server's tool: the request to the upstream (its own tool name, the
// validated arguments with the hidden ones, the caller's credentials, the trace context) and its answer as
// the gateway passes it on. The upstream's content goes through as given (text, images, audio, embedded
// resources, resource links), its structuredContent and isError kept; what an older client revision cannot
// read is turned into text. Every failure to get an answer becomes a tool error naming the backend and what
// happened, never a JSON-RPC error and never the upstream's address (docs/decisions.md,
// D-328).
import type { Tool } from '../catalogue/types.js';
import { isPlainObject } from '../../shared/is-plain-object.js';
import { MAX_JSON_DEPTH } from '../../shared/json-depth.js';
import { hasStructuredContent, hasToolAnnotations } from '../mcp/protocol.js';
import type { BackendAnswer } from '../governance/pipeline.js';
import {
  UpstreamError,
  type UpstreamCallOutcome,
  type UpstreamFailure,
  type UpstreamMcp,
} from './contracts.js';

export interface UpstreamCall {
  readonly tool: Tool;
  /** The validated arguments with the tool's fixed (hidden) arguments applied. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The caller's credentials for this upstream (identity.ts). */
  readonly headers: Readonly<Record<string, string>>;
  readonly traceparent?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** The result of a call to an upstream tool, as this gateway answers it (content of any MCP kind). */
export interface UpstreamToolResult {
  content: Record<string, unknown>[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** `_meta` key of a failed upstream call's result: `{ backend, failure }`. */
export const META_UPSTREAM = 'io.toolgate/upstream';

/**
 * Calls the tool at its upstream. Resolves to the upstream's result, or to the failure (with a message
 * safe to show the caller); throws only what is not an UpstreamError (a bug).
 */
export async function callUpstreamTool(
  upstream: UpstreamMcp,
  call: UpstreamCall,
  onFailure?: (error: UpstreamError) => void,
): Promise<UpstreamCallOutcome> {
  const binding = call.tool.mcp;
  if (binding === undefined) throw new Error(`tool ${call.tool.name} is not an upstream MCP tool`);
  let answer: Record<string, unknown>;
  try {
    answer = await upstream.request(
      'tools/call',
      { name: binding.name, arguments: { ...call.arguments } },
      { headers: call.headers, traceparent: call.traceparent, signal: call.signal },
    );
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    onFailure?.(error);
    return {
      kind: 'failure',
      reason: error.reason,
      message: failureMessage(upstream.backend, error),
    };
  }
  return readCallResult(upstream.backend, answer);
}

/** An upstream's tools/call result checked for the shape MCP gives it; anything else is a protocol failure. */
export function readCallResult(
  backend: string,
  answer: Readonly<Record<string, unknown>>,
): UpstreamCallOutcome {
  if (answer.resultType === 'input_required')
    // A 2026-07-28 upstream asking the user something mid-call: not relayed (yet), and not guessed at.
    return protocolFailure(
      backend,
      'it asked for input from the user (input_required), which the gateway does not relay',
    );
  const { content, structuredContent, isError } = answer;
  if (
    !Array.isArray(content) ||
    !content.every((c) => isPlainObject(c) && typeof c.type === 'string')
  )
    return protocolFailure(backend, 'its result has no valid content list');
  if (structuredContent !== undefined && !isPlainObject(structuredContent))
    return protocolFailure(backend, 'its structuredContent is not a JSON object');
  if (isError !== undefined && typeof isError !== 'boolean')
    return protocolFailure(backend, 'its isError is not a boolean');
  // What follows (masking, output validation, serialisation) recurses: bounded as for HTTP backends.
  if (
    nestsDeeperThan(content, MAX_JSON_DEPTH) ||
    nestsDeeperThan(structuredContent, MAX_JSON_DEPTH)
  )
    return protocolFailure(
      backend,
      `its result nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels`,
    );
  return {
    kind: 'result',
    content: content as Record<string, unknown>[],
    ...(structuredContent === undefined ? {} : { structuredContent }),
    isError: isError === true,
  };
}

export interface RenderOptions {
  readonly backend: string;
  /** The protocol revision the caller speaks. */
  readonly version: string;
  /** The upstream's URL, origin and host: replaced by `[backend]` wherever they appear. */
  readonly hide: readonly string[];
}

/** The outcome as the caller's tool result: masked, and in what the caller's revision can read. */
export function upstreamResult(
  outcome: UpstreamCallOutcome,
  options: RenderOptions,
): UpstreamToolResult {
  if (outcome.kind === 'failure')
    return {
      content: [{ type: 'text', text: scrub(outcome.message, options.hide) }],
      isError: true,
      _meta: { [META_UPSTREAM]: { backend: options.backend, failure: outcome.reason } },
    };
  const content = outcome.content.map((item) =>
    forRevision(scrubDeep(item, options.hide) as Record<string, unknown>, options.version),
  );
  const result: UpstreamToolResult = { content };
  if (outcome.structuredContent !== undefined) {
    const structured = scrubDeep(outcome.structuredContent, options.hide) as Record<
      string,
      unknown
    >;
    if (hasStructuredContent(options.version)) result.structuredContent = structured;
    // A revision without structuredContent reads the text; an upstream that gave none still says it all.
    else if (content.length === 0) content.push({ type: 'text', text: JSON.stringify(structured) });
  }
  if (outcome.isError) result.isError = true;
  return result;
}

/**
 * A content item a revision does not know, as text: resource links (2025-06-18) and audio (2025-03-26).
 * The model keeps what it says; the client does not reject the result for an unknown type.
 */
function forRevision(item: Record<string, unknown>, version: string): Record<string, unknown> {
  if (item.type === 'resource_link' && !hasStructuredContent(version)) {
    const name = typeof item.name === 'string' ? item.name : 'resource';
    const uri = typeof item.uri === 'string' ? item.uri : '';
    const about = typeof item.description === 'string' ? `: ${item.description}` : '';
    return { type: 'text', text: `Resource link ${name} <${uri}>${about}` };
  }
  if (item.type === 'audio' && !hasToolAnnotations(version)) {
    const mime = typeof item.mimeType === 'string' ? ` (${item.mimeType})` : '';
    return { type: 'text', text: `[audio${mime} left out: this protocol revision has no audio]` };
  }
  return item;
}

/**
 * What governance records of an upstream's answer. A result that is not an error is a success (HTTP 200
 * carried it) with its structuredContent as the body; a tool error keeps its reservation (MCP does not say
 * whether the tool did anything); a JSON-RPC error, refused credentials or an open circuit mean the tool did
 * not run; a timeout, a lost connection or a lost answer may have run it (docs/decisions.md, D-255).
 */
export function governanceAnswer(outcome: UpstreamCallOutcome): BackendAnswer {
  if (outcome.kind === 'failure')
    // Always said: the default reading of 'unavailable' (an HTTP backend's: nothing sent) is not this one.
    return { failure: outcome.reason, refused: NOT_RUN.has(outcome.reason) };
  if (outcome.isError) return { failure: 'tool_error' };
  return { status: 200, body: outcome.structuredContent };
}

/**
 * Upstream failures after which the tool certainly did not run. Not 'unavailable': for an upstream MCP
 * server it also means a connection lost after the request was sent.
 */
const NOT_RUN: ReadonlySet<UpstreamFailure> = new Set(['circuit_open', 'unauthorized', 'rpc']);

/** The text blocks of a result, joined (for an error that quotes it). */
export function resultText(result: UpstreamToolResult): string {
  return result.content
    .filter((c) => c.type === 'text' && typeof c.text === 'string')
    .map((c) => c.text as string)
    .join('\n')
    .slice(0, 4000);
}

/** The caller's message for a failure: the backend and what happened, never its address or credentials. */
function failureMessage(backend: string, error: UpstreamError): string {
  const server = `The upstream MCP server ${backend}`;
  switch (error.reason) {
    case 'unavailable':
      // The client's 'unavailable' covers a refused connection and one lost mid-answer alike.
      return `${server} is unavailable (no connection, or the connection was lost before it answered). Try again later; if the connection was lost during the call the tool may have run there, so check before retrying.`;
    case 'timeout':
      return `${server} did not answer in time; the tool may or may not have run there. Check its state before retrying.`;
    case 'circuit_open':
      return `${server} is failing and is not being called for a while (circuit breaker open); the tool was not run there. Try again later.`;
    case 'too_large':
      return `${server} answered with more data than the gateway accepts, so the answer was dropped; the tool may have run there.`;
    case 'unauthorized':
      return `${server} refused the credentials the gateway sent on your behalf (HTTP 401/403); the tool was not run there. Your access to ${backend} may be missing or expired.`;
    case 'protocol':
      return `${server} gave an answer that is not a valid MCP response; the tool may or may not have run there.`;
    case 'rpc': {
      const rpc = error.rpc;
      const detail = rpc === undefined ? '' : `: ${truncate(rpc.message, 1000)} (code ${rpc.code})`;
      return `${server} refused the call${detail}.`;
    }
  }
}

function protocolFailure(backend: string, what: string): UpstreamCallOutcome {
  return {
    kind: 'failure',
    reason: 'protocol',
    message: `The upstream MCP server ${backend} gave an answer the gateway cannot pass on: ${what}.`,
  };
}

/** Whether a JSON value nests objects/arrays deeper than `max` (iterative: a hostile value cannot overflow). */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next;
    if (typeof node !== 'object' || node === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node))
      stack.push([child, depth + 1]);
  }
  return false;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Keys whose strings are base64 payloads (image, audio, blob resources): never rewritten. */
const OPAQUE_KEYS = new Set(['data', 'blob']);

/** Every string in a JSON value with the upstream's addresses replaced by `[backend]`. */
function scrubDeep(value: unknown, hide: readonly string[], key?: string): unknown {
  if (typeof value === 'string')
    return key !== undefined && OPAQUE_KEYS.has(key) ? value : scrub(value, hide);
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, hide));
  if (isPlainObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubDeep(v, hide, k)]));
  return value;
}

function scrub(text: string, hide: readonly string[]): string {
  let out = text;
  for (const h of hide) if (h !== '' && out.includes(h)) out = out.split(h).join('[backend]');
  return out;
}
