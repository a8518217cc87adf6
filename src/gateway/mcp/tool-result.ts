// Backend outcome → MCP CallToolResult. 2xx JSON: structuredContent + the same JSON as text; a 2xx body
// that should be JSON and is not: isError. 4xx/5xx: isError with the status and the backend's problem
// details. Failures: isError with a plain explanation. A 2xx answer's `ETag` / `Last-Modified` go into
// `_meta["io.toolgate/http"]`, and the ETag also into a short text line after the body (docs/decisions.md, D-306).
// Backend addresses never reach the client.
import { MAX_JSON_DEPTH, jsonNestingExceeds } from '../../shared/json-depth.js';
import { reasonPhrase } from '../../shared/http/status.js';
import type { BackendOutcome } from '../upstream/backend-client.js';
import { isPlainObject } from '../../shared/is-plain-object.js';
import { withSourceText } from './raw-json.js';

export interface TextContent {
  readonly type: 'text';
  readonly text: string;
}

export interface CallToolResult {
  content: TextContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

const MAX_ERROR_TEXT = 4000;
export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

export interface MapOptions {
  /** The protocol revision has structuredContent (2025-06-18 and later). */
  readonly structured: boolean;
  /** Backend addresses to replace by `[backend]`. */
  readonly hide: readonly string[];
  /** The operation declares a JSON success response or the tool has an outputSchema. */
  readonly expectJson: boolean;
  /** How error texts name the operation (its operationId, else the tool name). */
  readonly operation: string;
}

/** The `_meta` key of the HTTP response metadata a tool result carries (`{ etag?, lastModified? }`). */
export const META_HTTP = 'io.toolgate/http';

export function mapOutcome(outcome: BackendOutcome, options: MapOptions): CallToolResult {
  if (outcome.kind === 'failure') return errorResult(outcome.message);
  const { status } = outcome;
  const isJson = /[/+]json\b/i.test(outcome.contentType);
  const body = scrub(outcome.body, options.hide);
  if (status >= 200 && status < 300)
    return withValidators(mapSuccess(status, body, isJson, options), outcome, options.hide);
  if (status >= 300 && status < 400)
    return errorResult(
      `The backend answered with a redirect (HTTP ${status}), which the gateway does not follow.`,
    );
  const head = `The backend answered HTTP ${`${status} ${reasonPhrase(status, '')}`.trim()}.`;
  let detail = '';
  if (body.trim() !== '') {
    const parsed = isJson ? tryParse(body) : { ok: false as const };
    detail = parsed.ok ? JSON.stringify(parsed.value) : body;
    if (detail.length > MAX_ERROR_TEXT) detail = `${detail.slice(0, MAX_ERROR_TEXT)}…`;
  }
  return errorResult(detail ? `${head} Problem details: ${detail}` : head);
}

/**
 * A 2xx answer. A body that should be JSON (JSON content type, or a JSON response declared by the
 * operation) but does not parse is an error, not a success: the model would otherwise take a garbled
 * or truncated answer, or an HTML page from a proxy, for the operation's result.
 */
function mapSuccess(
  status: number,
  body: string,
  isJson: boolean,
  options: MapOptions,
): CallToolResult {
  if (body.trim() === '')
    return {
      content: [{ type: 'text', text: `The operation succeeded (HTTP ${status}, no content).` }],
    };
  if (!isJson && !options.expectJson) return { content: [{ type: 'text', text: body }] };
  const parsed = tryParse(body);
  if (!parsed.ok)
    return errorResult(
      `The backend returned an unreadable response for ${options.operation} (HTTP ${status}): ${parsed.reason}. The backend reported success, so the operation was probably carried out; check its state before retrying.`,
    );
  // The backend's JSON text is the same JSON: no need to serialise it again, neither as the text nor as
  // structuredContent (the parsed value stays for output validation; the response splices the text).
  const text = body.trim();
  const result: CallToolResult = { content: [{ type: 'text', text }] };
  if (options.structured && isPlainObject(parsed.value))
    result.structuredContent = withSourceText(parsed.value, text);
  return result;
}

/**
 * A successful result with the response's validators: `_meta["io.toolgate/http"]` holds `etag` and/or
 * `lastModified` (every revision: results have had `_meta` since 2025-03-26), and a second text block
 * names the ETag, for clients that show the model the text but drop `_meta`. The first block stays the
 * body exactly (the JSON that structuredContent serialises), and structuredContent stays the backend's
 * body, valid against the tool's outputSchema. A header that could carry anything else is left out.
 */
function withValidators(
  result: CallToolResult,
  outcome: Extract<BackendOutcome, { kind: 'response' }>,
  hide: readonly string[],
): CallToolResult {
  if (result.isError === true) return result;
  const etag = safeHeader(outcome.etag, ETAG, hide);
  const lastModified = safeHeader(outcome.lastModified, HTTP_DATE, hide);
  if (etag === undefined && lastModified === undefined) return result;
  result._meta = {
    ...result._meta,
    [META_HTTP]: {
      ...(etag !== undefined ? { etag } : {}),
      ...(lastModified !== undefined ? { lastModified } : {}),
    },
  };
  if (etag !== undefined)
    result.content.push({
      type: 'text',
      text: `ETag: ${etag} (send it${etag.includes('"') ? ', quotes included,' : ''} as If-Match to change this version only)`,
    });
  return result;
}

/**
 * An entity tag (RFC 9110 §8.8.3, weak or strong; also the unquoted form some backends send): visible
 * ASCII, no spaces, at most 256 characters, so the line the model reads cannot carry other text.
 */
const ETAG = /^[\x21-\x7e]{1,256}$/;
/** An HTTP date as senders must write it (RFC 9110 §5.6.7, IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT"). */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

function safeHeader(
  value: string | undefined,
  shape: RegExp,
  hide: readonly string[],
): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (!shape.test(trimmed)) return undefined;
  // Never an address of the backend's (and never a rewritten, hence wrong, validator).
  return scrub(trimmed, hide) === trimmed ? trimmed : undefined;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  // Refused before parsing, as client input is: what follows (structuredContent, output validation,
  // serialisation) recurses and must not overflow on a hostile or broken backend.
  if (jsonNestingExceeds(text))
    return {
      ok: false,
      reason: `the body nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels`,
    };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, reason: 'the body is not valid JSON' };
  }
}

/** Removes the backend's own base URL / origin from anything shown to the client. */
function scrub(text: string, hide: readonly string[]): string {
  let out = text;
  for (const h of hide) if (h !== '' && out.includes(h)) out = out.split(h).join('[backend]');
  return out;
}
