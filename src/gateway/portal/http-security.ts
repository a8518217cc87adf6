// What every portal response and request goes through: security headers (strict CSP, no sniffing, no
// referrer, no framing, no caching of pages), the session cookie's attributes, a same-origin check on
// every POST, and the urlencoded form parser (repeated names become lists).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const COOKIE_SECURE = '__Host-toolgate_portal';
const COOKIE_PLAIN = 'toolgate_portal';
/** Binds an OIDC sign-in to the browser that started it; Lax so it survives the provider's redirect back. */
const OIDC_COOKIE = 'toolgate_portal_oidc';

const MAX_FORM_BYTES = 64 * 1024;
const MAX_FIELDS = 200;

export type FormBody = Record<string, string | string[]>;

export function applySecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store');
    return payload;
  });
}

export function registerFormParser(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: MAX_FORM_BYTES },
    (_request, body, done) => {
      const out: FormBody = Object.create(null) as FormBody;
      let count = 0;
      for (const [key, value] of new URLSearchParams(body as string)) {
        if (++count > MAX_FIELDS) break;
        const existing = out[key];
        if (existing === undefined) out[key] = value;
        else if (Array.isArray(existing)) existing.push(value);
        else out[key] = [existing, value];
      }
      done(null, out);
    },
  );
}

export function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

function cookies(request: FastifyRequest): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!found.has(name)) found.set(name, part.slice(eq + 1).trim());
  }
  return found;
}

export function sessionIdFrom(request: FastifyRequest): string | undefined {
  return cookies(request).get(isHttps(request) ? COOKIE_SECURE : COOKIE_PLAIN);
}

export function oidcBindingFrom(request: FastifyRequest): string | undefined {
  return cookies(request).get(OIDC_COOKIE);
}

function cookieAttributes(request: FastifyRequest, sameSite: 'Strict' | 'Lax'): string {
  // __Host- cookies must be Secure with Path=/; on plain-http localhost the name is plain and the
  // cookie stays under /portal.
  return isHttps(request)
    ? `Path=/; Secure; HttpOnly; SameSite=${sameSite}`
    : `Path=/portal; HttpOnly; SameSite=${sameSite}`;
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  id: string,
  maxAgeSeconds: number,
): void {
  const name = isHttps(request) ? COOKIE_SECURE : COOKIE_PLAIN;
  appendCookie(
    reply,
    `${name}=${id}; Max-Age=${maxAgeSeconds}; ${cookieAttributes(request, 'Strict')}`,
  );
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  const name = isHttps(request) ? COOKIE_SECURE : COOKIE_PLAIN;
  appendCookie(reply, `${name}=; Max-Age=0; ${cookieAttributes(request, 'Strict')}`);
}

export function setOidcBinding(request: FastifyRequest, reply: FastifyReply, value: string): void {
  const secure = isHttps(request) ? '; Secure' : '';
  appendCookie(
    reply,
    `${OIDC_COOKIE}=${value}; Max-Age=600; Path=/portal/auth; HttpOnly; SameSite=Lax${secure}`,
  );
}

export function clearOidcBinding(request: FastifyRequest, reply: FastifyReply): void {
  const secure = isHttps(request) ? '; Secure' : '';
  appendCookie(
    reply,
    `${OIDC_COOKIE}=; Max-Age=0; Path=/portal/auth; HttpOnly; SameSite=Lax${secure}`,
  );
}

/** Where to go after signing in (a page that sent the browser to sign in); 10 minutes, this origin only. */
const RETURN_COOKIE = 'toolgate_portal_return';

export function setReturnTo(request: FastifyRequest, reply: FastifyReply, path: string): void {
  if (sessionIdFrom(request) !== undefined) return;
  appendCookie(
    reply,
    `${RETURN_COOKIE}=${encodeURIComponent(path)}; Max-Age=600; ${cookieAttributes(request, 'Lax')}`,
  );
}

/** The return path a page asked for, when it is one of the portal's own pages that ask for it; clears it. */
export function takeReturnTo(request: FastifyRequest, reply: FastifyReply): string | undefined {
  const raw = cookies(request).get(RETURN_COOKIE);
  if (raw === undefined) return undefined;
  appendCookie(reply, `${RETURN_COOKIE}=; Max-Age=0; ${cookieAttributes(request, 'Lax')}`);
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  // The approval pages, and the connect pages of identity mode delegation (federation/delegation).
  return /^\/portal\/(approvals\/apv_[A-Za-z0-9_-]{16,64}|federation\/[A-Za-z0-9_-]{1,32}\/connect)$/.test(
    path,
  )
    ? path
    : undefined;
}

function appendCookie(reply: FastifyReply, cookie: string): void {
  const current = reply.getHeader('set-cookie');
  const list = current === undefined ? [] : Array.isArray(current) ? current : [String(current)];
  reply.header('set-cookie', [...list, cookie]);
}

/**
 * A POST must come from a page of this origin: when the browser says where it comes from (Sec-Fetch-Site,
 * else a non-null Origin), it must be here. Defence in depth next to the CSRF token, and the only guard of the
 * sign-in form, which has no session yet.
 */
export function sameOrigin(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  // With `Referrer-Policy: no-referrer` browsers send `Origin: null` on form posts: that says nothing.
  const origin = request.headers.origin;
  if (origin === undefined || origin === 'null') return true;
  return origin === `${request.protocol}://${request.host}`;
}

/** The form value as one string ('' when absent or repeated). */
export function one(body: FormBody, name: string): string {
  const value = body[name];
  return typeof value === 'string' ? value : '';
}

/** The form value as a list (checkbox groups). */
export function many(body: FormBody, name: string): string[] {
  const value = body[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
