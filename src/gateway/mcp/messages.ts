// JSON-RPC 2.0 messages as the endpoint receives them: each one classified as a request, a notification,
// a response (from the client) or invalid, before anything else looks at it. Pure.
import type { JsonRpcId } from './protocol.js';

export type Message = Record<string, unknown>;

export type Classified =
  | {
      readonly kind: 'request';
      readonly id: JsonRpcId;
      readonly method: string;
      readonly params: Message;
    }
  | { readonly kind: 'notification'; readonly method: string }
  | { readonly kind: 'response' }
  | { readonly kind: 'invalid'; readonly id: JsonRpcId | null; readonly reason: string };

export function classify(message: unknown): Classified {
  if (typeof message !== 'object' || message === null || Array.isArray(message))
    return { kind: 'invalid', id: null, reason: 'a message must be a JSON object' };
  const m = message as Message;
  const id = validId(m.id);
  if (m.jsonrpc !== '2.0') return { kind: 'invalid', id, reason: 'jsonrpc must be "2.0"' };
  if (m.method === undefined && ('result' in m || 'error' in m) && 'id' in m)
    return { kind: 'response' };
  if (typeof m.method !== 'string' || m.method === '')
    return { kind: 'invalid', id, reason: 'method must be a non-empty string' };
  if (
    m.params !== undefined &&
    (typeof m.params !== 'object' || m.params === null || Array.isArray(m.params))
  )
    return { kind: 'invalid', id, reason: 'params must be an object' };
  if (!('id' in m)) return { kind: 'notification', method: m.method };
  if (id === null)
    return { kind: 'invalid', id: null, reason: 'id must be a string or an integer' };
  return { kind: 'request', id, method: m.method, params: (m.params as Message | undefined) ?? {} };
}

/** The id of a message, when it has a valid one (to answer an error to the right request). */
export function readId(message: unknown): JsonRpcId | null {
  return typeof message === 'object' && message !== null && !Array.isArray(message)
    ? validId((message as Message).id)
    : null;
}

/** The tool a tools/call message names (the per-tool quota counts it), else undefined. */
export function calledTool(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { method, params } = message as { method?: unknown; params?: unknown };
  if (method !== 'tools/call' || typeof params !== 'object' || params === null) return undefined;
  const name = (params as { name?: unknown }).name;
  return typeof name === 'string' ? name : undefined;
}

function validId(id: unknown): JsonRpcId | null {
  if (typeof id === 'string') return id;
  if (typeof id === 'number' && Number.isInteger(id)) return id;
  return null;
}
