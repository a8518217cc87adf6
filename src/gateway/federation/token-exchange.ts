// Identity mode `token-exchange` (issue 28): the credentials a call to an upstream MCP server carries are
// an access token the configured authorization server issues for the caller in exchange for the caller's
// own token (RFC 8693), addressed to the upstream (`audience` / `resource`), so the upstream sees the user
// and never the token the gateway accepted. The gateway authenticates with client_secret_basic. Exchanged
// tokens are reused per (subject token, backend) until shortly before they expire. docs/configuration.md,
// "Federating MCP servers"; decisions in docs/decisions.md, D-344 to D-347.
import { createHash } from 'node:crypto';
import { request } from 'undici';
import type { TokenExchangeConfig } from '../../config/gateway-federation.js';
import type { Caller } from '../caller.js';
import { GatewayError } from '../errors.js';
import type { UpstreamCredentials, UpstreamIdentity } from './contracts.js';

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
const JWT_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:jwt';

/** A token response is a few kilobytes; anything larger is not one. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** Longer than any access token a header should carry. */
const MAX_TOKEN_LENGTH = 16 * 1024;
/** Renew this long before expiry (at most; a tenth of a short lifetime instead). */
const RENEWAL_MARGIN_MS = 30_000;

export interface TokenExchangeBackend {
  readonly name: string;
  readonly identity: { readonly mode: string; readonly tokenExchange?: TokenExchangeConfig };
}

export interface TokenExchangeProviderOptions {
  /** Exchanged tokens kept (least recently used dropped first). Default 10,000. */
  readonly maxEntries?: number;
  /** Epoch milliseconds; Date.now unless a test drives time. */
  readonly now?: () => number;
}

interface Entry {
  readonly credentials: UpstreamCredentials;
  readonly renewAt: number;
}

/**
 * The credentials of a call to a backend in identity mode token-exchange: `Authorization: Bearer <the
 * exchanged token>`. An anonymous caller (no verified user token) is refused with FORBIDDEN
 * (`data.reason: USER_TOKEN_REQUIRED`); the authorization server's refusal with FORBIDDEN
 * (`TOKEN_EXCHANGE_REFUSED`, its OAuth error code in `data.error`); a server that does not answer usably
 * with UPSTREAM_UNAVAILABLE (`TOKEN_EXCHANGE_UNAVAILABLE`). Messages name the backend, never a token.
 */
export function tokenExchangeProvider(
  backends: readonly TokenExchangeBackend[],
  options: TokenExchangeProviderOptions = {},
): UpstreamIdentity {
  const settings = new Map<string, TokenExchangeConfig>();
  for (const backend of backends)
    if (backend.identity.mode === 'token-exchange' && backend.identity.tokenExchange !== undefined)
      settings.set(backend.name, backend.identity.tokenExchange);
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, Entry>();
  // Concurrent calls of one user to one backend share one exchange.
  const pending = new Map<string, Promise<UpstreamCredentials>>();

  function remember(key: string, entry: Entry): void {
    cache.delete(key);
    cache.set(key, entry);
    while (cache.size > maxEntries) {
      const oldest = cache.keys().next();
      if (oldest.done === true) break;
      cache.delete(oldest.value);
    }
  }

  return async (caller: Caller, backend: string): Promise<UpstreamCredentials> => {
    const config = settings.get(backend);
    if (config === undefined)
      throw new GatewayError(
        'INTERNAL',
        `backend ${backend} does not use identity mode token-exchange`,
      );
    const subjectToken = bearerOf(caller);
    if (subjectToken === undefined)
      throw new GatewayError(
        'FORBIDDEN',
        `backend ${backend} acts for the signed-in user (identity mode token-exchange): call it with a user token`,
        { reason: 'USER_TOKEN_REQUIRED', backend },
      );
    const key = `${createHash('sha256').update(subjectToken).digest('hex')}\u0000${backend}`;
    const cached = cache.get(key);
    if (cached !== undefined) {
      if (cached.renewAt > now()) {
        remember(key, cached);
        return cached.credentials;
      }
      cache.delete(key);
    }
    const running = pending.get(key);
    if (running !== undefined) return running;
    const exchange = (async () => {
      const startedAt = now();
      const issued = await exchangeToken(backend, config, subjectToken);
      const credentials: UpstreamCredentials = {
        kind: 'headers',
        headers: { authorization: `Bearer ${issued.accessToken}` },
      };
      if (issued.expiresInSeconds !== undefined) {
        const lifetimeMs = issued.expiresInSeconds * 1000;
        const renewAt = startedAt + lifetimeMs - Math.min(RENEWAL_MARGIN_MS, lifetimeMs / 10);
        remember(key, { credentials, renewAt });
      }
      return credentials;
    })();
    pending.set(key, exchange);
    try {
      return await exchange;
    } finally {
      pending.delete(key);
    }
  };
}

/** The caller's own access token, when the caller is a verified user who sent one as a Bearer token. */
function bearerOf(caller: Caller): string | undefined {
  if (caller.user === null || caller.authorization === undefined) return undefined;
  const match = /^Bearer +([^\s]+)\s*$/i.exec(caller.authorization);
  return match?.[1];
}

interface IssuedToken {
  readonly accessToken: string;
  readonly expiresInSeconds: number | undefined;
}

/** One RFC 8693 request (§2.1) and its checked answer (§2.2). */
async function exchangeToken(
  backend: string,
  config: TokenExchangeConfig,
  subjectToken: string,
): Promise<IssuedToken> {
  const where = endpointName(config.tokenEndpoint);
  const secrets = [subjectToken, config.clientSecret];
  const unavailable = (why: string): GatewayError =>
    new GatewayError(
      'UPSTREAM_UNAVAILABLE',
      `backend ${backend}: the token exchange at ${where} failed: ${why}`,
      { reason: 'TOKEN_EXCHANGE_UNAVAILABLE', backend },
    );
  const form = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE_GRANT,
    subject_token: subjectToken,
    subject_token_type: ACCESS_TOKEN_TYPE,
    requested_token_type: ACCESS_TOKEN_TYPE,
  });
  if (config.audience !== undefined) form.set('audience', config.audience);
  if (config.resource !== undefined) form.set('resource', config.resource);
  if (config.scope !== undefined) form.set('scope', config.scope);

  let status: number;
  let contentType: string;
  let text: string;
  try {
    const response = await request(config.tokenEndpoint, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basicCredentials(config.clientId, config.clientSecret)}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
      headersTimeout: config.timeoutMs,
      bodyTimeout: config.timeoutMs,
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    status = response.statusCode;
    contentType = String(response.headers['content-type'] ?? '');
    text = await readLimited(response.body, MAX_RESPONSE_BYTES);
  } catch (error) {
    if (error instanceof TooLarge)
      throw unavailable(`the answer exceeds ${MAX_RESPONSE_BYTES} bytes`);
    const name = (error as { name?: unknown }).name;
    if (name === 'TimeoutError' || name === 'AbortError' || /Timeout/.test(String(name)))
      throw unavailable(`no answer within ${config.timeoutMs} ms`);
    throw unavailable(`no answer (${String((error as { code?: unknown }).code ?? name)})`);
  }

  const body = contentType.toLowerCase().includes('json') ? parseObject(text) : undefined;
  if (status !== 200) {
    // RFC 6749 §5.2 errors (RFC 8693 §2.2.2): 400 or 401 with an `error` code.
    const error = typeof body?.error === 'string' ? safeText(body.error, secrets, 64) : undefined;
    if (error === undefined || (status !== 400 && status !== 401))
      throw unavailable(`HTTP ${status}`);
    const description =
      typeof body?.error_description === 'string'
        ? ` (${safeText(body.error_description, secrets, 300)})`
        : '';
    const hint =
      error === 'invalid_client' || error === 'unauthorized_client'
        ? `: the gateway's client ${config.clientId} was refused (check identity.tokenExchange.clientId and clientSecret)`
        : ": the user's token was not exchanged";
    throw new GatewayError(
      'FORBIDDEN',
      `backend ${backend}: the authorization server at ${where} answered ${error}${description}${hint}`,
      { reason: 'TOKEN_EXCHANGE_REFUSED', backend, error },
    );
  }
  if (body === undefined) throw unavailable('the answer is not a JSON object');

  const accessToken = body.access_token;
  if (
    typeof accessToken !== 'string' ||
    accessToken.length === 0 ||
    accessToken.length > MAX_TOKEN_LENGTH ||
    !/^[\x21-\x7E]+$/.test(accessToken)
  )
    throw unavailable('the answer has no usable access_token');
  if (body.issued_token_type !== ACCESS_TOKEN_TYPE && body.issued_token_type !== JWT_TOKEN_TYPE)
    throw unavailable(
      `issued_token_type is ${describe(body.issued_token_type, secrets)}, not ${ACCESS_TOKEN_TYPE}`,
    );
  // Bearer, or N_A (RFC 8693 §2.2.1: not an OAuth access token type, but the token is still sent as one).
  const tokenType = typeof body.token_type === 'string' ? body.token_type.toLowerCase() : '';
  if (tokenType !== 'bearer' && tokenType !== 'n_a')
    throw unavailable(
      `token_type is ${describe(body.token_type, secrets)}; only Bearer (or N_A) tokens can be sent`,
    );
  const expiresIn = body.expires_in;
  if (
    expiresIn !== undefined &&
    (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn <= 0)
  )
    throw unavailable(`expires_in is ${describe(expiresIn, secrets)}, not a positive number`);
  return { accessToken, expiresInSeconds: expiresIn };
}

/** RFC 6749 §2.3.1: client id and secret form-encoded, then Basic. */
function basicCredentials(clientId: string, clientSecret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64');
}

/** The endpoint without query or credentials, for messages. */
function endpointName(endpoint: string): string {
  const url = URL.parse(endpoint);
  return url === null ? 'the token endpoint' : `${url.origin}${url.pathname}`;
}

class TooLarge extends Error {}

async function readLimited(body: AsyncIterable<Buffer>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) throw new TooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Text from the authorization server made fit for a message: control characters dropped, cut to `max`,
 * and anything token-like removed — the secrets sent, and any JWT — should the server echo one.
 */
function safeText(text: string, secrets: readonly string[], max: number): string {
  let safe = text;
  for (const secret of secrets) if (secret.length > 0) safe = safe.split(secret).join('…');
  safe = [...safe.replace(/eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g, '…')]
    .map((char) => (char < ' ' || char === '\u007f' ? ' ' : char))
    .join('');
  return safe.length > max ? `${safe.slice(0, max)}…` : safe;
}

function describe(value: unknown, secrets: readonly string[]): string {
  if (value === undefined) return 'missing';
  return typeof value === 'string' ? `"${safeText(value, secrets, 64)}"` : typeof value;
}
