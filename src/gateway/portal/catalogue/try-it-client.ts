// "Try it": one tool call through a gateway's own MCP endpoint, as an MCP client makes it over plain
// HTTP — initialize, notifications/initialized, tools/call — with the developer's subscription key and,
// when given, their user token. The key and token go only into these requests' headers: never stored,
// never logged, never put in the answer (docs/decisions.md, D-300). Bounded: one
// deadline for the whole exchange, and each response body read up to a size limit.
import type { JsonObject } from '../../catalogue/types.js';

export const TRY_IT_TIMEOUT_MS = 20_000;
export const TRY_IT_MAX_RESPONSE_BYTES = 1024 * 1024;
const PROTOCOL_VERSION = '2025-06-18';
const CLIENT_INFO = { name: 'toolgate-portal-try-it', version: '1' };

export interface TryItRequest {
  /** The MCP endpoint of the environment's gateway. */
  readonly url: string;
  readonly subscriptionKey: string;
  readonly userToken?: string | undefined;
  readonly tool: string;
  readonly arguments: JsonObject;
}

/** What the portal shows: the tool result, or the JSON-RPC error, or why no answer came. */
export interface RpcError {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly data?: unknown;
}

export type TryItOutcome =
  | { readonly kind: 'result'; readonly status: number; readonly result: JsonObject }
  | {
      readonly kind: 'error';
      readonly status: number;
      readonly step: 'initialize' | 'tools/call';
      readonly error: RpcError;
    }
  | { readonly kind: 'unreachable'; readonly message: string };

export interface TryItOptions {
  readonly timeoutMs?: number;
  readonly maxResponseBytes?: number;
  readonly fetch?: typeof fetch;
}

class TryItFailure extends Error {}

export async function tryToolCall(
  request: TryItRequest,
  options: TryItOptions = {},
): Promise<TryItOutcome> {
  const timeoutMs = options.timeoutMs ?? TRY_IT_TIMEOUT_MS;
  const limit = options.maxResponseBytes ?? TRY_IT_MAX_RESPONSE_BYTES;
  const doFetch = options.fetch ?? fetch;
  const signal = AbortSignal.timeout(timeoutMs);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'ocp-apim-subscription-key': request.subscriptionKey,
  };
  if (request.userToken) headers.authorization = `Bearer ${request.userToken}`;

  const post = async (body: JsonObject, version?: string) => {
    const response = await doFetch(request.url, {
      method: 'POST',
      headers: version ? { ...headers, 'mcp-protocol-version': version } : headers,
      body: JSON.stringify(body),
      signal,
      redirect: 'error',
    });
    const text = await readLimited(response, limit);
    return {
      status: response.status,
      message: text === '' ? undefined : messageOf(text, response),
    };
  };

  try {
    const init = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO },
    });
    const initError = errorOf(init.message);
    if (initError !== undefined || init.message === undefined)
      return {
        kind: 'error',
        status: init.status,
        step: 'initialize',
        error: initError ?? { message: `HTTP ${init.status} without a JSON-RPC answer` },
      };
    const result = init.message.result;
    const version =
      typeof result === 'object' &&
      result !== null &&
      typeof (result as JsonObject).protocolVersion === 'string'
        ? ((result as JsonObject).protocolVersion as string)
        : PROTOCOL_VERSION;
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, version);
    const call = await post(
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: request.tool, arguments: request.arguments },
      },
      version,
    );
    const callError = errorOf(call.message);
    if (callError !== undefined || call.message === undefined)
      return {
        kind: 'error',
        status: call.status,
        step: 'tools/call',
        error: callError ?? { message: `HTTP ${call.status} without a JSON-RPC answer` },
      };
    const callResult = call.message.result;
    return {
      kind: 'result',
      status: call.status,
      result:
        typeof callResult === 'object' && callResult !== null ? (callResult as JsonObject) : {},
    };
  } catch (error) {
    if (error instanceof TryItFailure) return { kind: 'unreachable', message: error.message };
    if (signal.aborted)
      return {
        kind: 'unreachable',
        message: `the gateway did not answer within ${timeoutMs / 1000} s`,
      };
    // The cause (ECONNREFUSED, a DNS failure) says more than fetch's own "fetch failed".
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    const detail =
      typeof cause?.code === 'string'
        ? cause.code
        : typeof cause?.message === 'string'
          ? cause.message
          : (error as Error).message;
    return { kind: 'unreachable', message: `the gateway could not be reached (${detail})` };
  }
}

function errorOf(message: JsonObject | undefined): RpcError | undefined {
  const error = message?.error;
  return typeof error === 'object' && error !== null ? (error as RpcError) : undefined;
}

/** The body, up to `limit` bytes (more is a failure: the exchange stops there). */
async function readLimited(response: Response, limit: number): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new TryItFailure(`the gateway's answer is larger than ${Math.round(limit / 1024)} KiB`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The JSON-RPC message of a JSON body, or of the first `data:` event of an event stream. */
function messageOf(text: string, response: Response): JsonObject | undefined {
  const type = response.headers.get('content-type') ?? '';
  let json = text;
  if (type.includes('text/event-stream')) {
    const event = text.split(/\r?\n\r?\n/).find((block) => /^data:/m.test(block));
    if (event === undefined) return undefined;
    json = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
  }
  try {
    const parsed = JSON.parse(json) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as JsonObject)
      : undefined;
  } catch {
    return undefined;
  }
}
