// Validated tool arguments → the exact backend request (pure): path parameters as opaque segments, query
// from declared query parameters, declared headers, JSON body. Nothing from the client's HTTP request.
import type { OperationBinding } from '../catalogue/types.js';

export interface BackendRequest {
  readonly method: string;
  /** Path and query, relative to the backend base URL path, e.g. `/payments/PO%201?x=1`. */
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | undefined;
}

export class ArgumentError extends Error {
  constructor(
    readonly argument: string,
    message: string,
  ) {
    super(message);
    this.name = 'ArgumentError';
  }
}

// RFC 9110 field values: visible ASCII, space and tab; no CR/LF (header injection).
const SAFE_HEADER_VALUE = /^[\t\x20-\x7e]*$/;

export function buildBackendRequest(
  binding: OperationBinding,
  args: Readonly<Record<string, unknown>>,
): BackendRequest {
  let path = binding.pathTemplate;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const p of binding.parameters) {
    const value = args[p.argument];
    if (value === undefined || value === null) continue;
    if (p.in === 'path') {
      path = path.split(`{${p.name}}`).join(encodePathSegment(scalar(value)));
    } else if (p.in === 'query') {
      appendQuery(query, p.name, value, p.explode);
    } else {
      const text = Array.isArray(value) ? value.map(scalar).join(',') : scalar(value);
      if (!SAFE_HEADER_VALUE.test(text))
        throw new ArgumentError(
          p.argument,
          `${p.argument} contains characters not allowed in a header`,
        );
      headers[p.name] = text;
    }
  }
  let body: string | undefined;
  if (binding.body && args[binding.body.argument] !== undefined) {
    body = JSON.stringify(args[binding.body.argument]);
    headers['content-type'] = binding.body.contentType;
  }
  const search = query.toString();
  return { method: binding.method, path: search ? `${path}?${search}` : path, headers, body };
}

/**
 * A path parameter's value as one opaque piece of a segment: it can never change which path is called.
 * encodeURIComponent covers `/`, `?`, `#` and `%`, but leaves `.` alone, so a value `..` would produce
 * a dot segment (`/payments/../cancel`) that any path-normalising proxy or framework between the gateway
 * and the backend resolves to another route. A value made only of dots is therefore sent as `%2E`s.
 */
export function encodePathSegment(value: string): string {
  if (/^\.+$/.test(value)) return value.replace(/\./g, '%2E');
  return encodeURIComponent(value);
}

function scalar(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function appendQuery(query: URLSearchParams, name: string, value: unknown, explode: boolean): void {
  if (Array.isArray(value)) {
    if (explode) for (const item of value) query.append(name, scalar(item));
    else query.append(name, value.map(scalar).join(','));
  } else if (typeof value === 'object' && value !== null) {
    // deepObject-style for object-valued query parameters.
    for (const [k, v] of Object.entries(value)) query.append(`${name}[${k}]`, scalar(v));
  } else {
    query.append(name, scalar(value));
  }
}
