// Bounded JSON fetch for discovery documents and JWKS: HTTPS (or loopback) only, no redirects,
// a timeout covering headers and body, and a response-size cap enforced while streaming.
import { AuthError } from './errors.js';
import { assertSecureUrl } from './secure-url.js';

export type FetchFn = (input: string, init: RequestInit) => Promise<Response>;

export interface FetchJsonOptions {
  fetch: FetchFn;
  timeoutMs: number;
  maxBytes: number;
}

function unavailable(message: string, cause?: unknown): AuthError {
  return new AuthError('JWKS_UNAVAILABLE', message, cause === undefined ? undefined : { cause });
}

async function readCapped(res: Response, maxBytes: number, what: string): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? 'NaN');
  if (Number.isFinite(declared) && declared > maxBytes)
    throw unavailable(`${what} exceeds ${maxBytes} bytes`);
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw unavailable(`${what} exceeds ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function fetchJson(
  url: string,
  what: string,
  opts: FetchJsonOptions,
): Promise<unknown> {
  try {
    assertSecureUrl(url);
  } catch (err) {
    throw unavailable(`${what} URL rejected: ${(err as Error).message}`, err);
  }
  let res: Response;
  try {
    res = await opts.fetch(url, {
      method: 'GET',
      redirect: 'error',
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
  } catch (err) {
    throw unavailable(`${what} request failed`, err);
  }
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => undefined);
    throw unavailable(`${what} answered HTTP ${res.status}`);
  }
  let text: string;
  try {
    text = await readCapped(res, opts.maxBytes, what);
  } catch (err) {
    if (err instanceof AuthError) throw err;
    throw unavailable(`${what} body could not be read`, err);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw unavailable(`${what} is not JSON`, err);
  }
}
