// The development sign-in and consent pages: server-rendered HTML, every value escaped, no script. Pure:
// values in, markup out; the headers that go with them (CSP) come from pageHeaders.
import type { DevUser } from '../../../config/gateway-auth.js';

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}
button{font:inherit;padding:.5rem 1rem;margin:.25rem 0;cursor:pointer}li{margin:.5rem 0}
.note{color:#666;font-size:.9rem}</style></head>
<body>${body}</body></html>`;
}

export interface LoginPageInput {
  readonly action: string;
  readonly clientName: string;
  readonly users: readonly DevUser[];
}

export function loginPage(input: LoginPageInput): string {
  const items = input.users
    .map(
      (user) =>
        `<li><button type="submit" name="sub" value="${escapeHtml(user.sub)}">${escapeHtml(
          user.name ?? user.sub,
        )}</button> <span class="note">${escapeHtml(user.email ?? user.sub)}</span></li>`,
    )
    .join('');
  return layout(
    'Sign in — toolgate development',
    `<h1>Sign in</h1><p><strong>${escapeHtml(input.clientName)}</strong> asks you to sign in to the toolgate gateway.</p>
<form method="post" action="${escapeHtml(input.action)}"><ul>${items}</ul></form>
<p class="note">Development identity provider: these are the users of <code>gateway.auth.devIdentityProvider.users</code>; no password is asked.</p>`,
  );
}

export interface ConsentPageInput {
  readonly action: string;
  readonly clientName: string;
  readonly user: string;
  readonly scopes: readonly string[];
  /** The resources (MCP endpoints) the token will be for; never empty (routes.ts falls back). */
  readonly resources: readonly string[];
}

/** What each OpenID scope lets the client do, in words (issue 27, trap 3). */
const OIDC_SCOPE_WORDS: Readonly<Record<string, string>> = {
  openid: 'Know who you are (your user name)',
  profile: 'See your name and email address',
  email: 'See your email address',
  offline_access:
    'Stay signed in: renew its access without asking you again, until the grant expires or is revoked',
};

const ACTION_WORDS: Readonly<Record<string, string>> = {
  read: 'See',
  write: 'Create and change',
  create: 'Create',
  update: 'Change',
  delete: 'Delete',
  manage: 'Manage',
};

/**
 * A scope in words: the OpenID ones by their meaning, a tool scope `<thing>:<action>` (`accounts:read`)
 * as "See your accounts", any other as the tools that need it.
 */
export function scopeInWords(scope: string): string {
  const known = OIDC_SCOPE_WORDS[scope];
  if (known !== undefined) return known;
  const match = /^([a-z][a-z0-9_-]*)[:.]([a-z][a-z0-9_-]*)$/i.exec(scope);
  const verb = match === null ? undefined : ACTION_WORDS[(match[2] ?? '').toLowerCase()];
  if (match !== null && verb !== undefined)
    return `${verb} your ${(match[1] ?? '').replace(/[_-]/g, ' ')} through the gateway’s tools`;
  return 'Use the gateway’s tools that need this permission';
}

export function consentPage(input: ConsentPageInput): string {
  const scopes = input.scopes
    .map(
      (s) =>
        `<li>${escapeHtml(scopeInWords(s))} <span class="note">(<code>${escapeHtml(s)}</code>)</span></li>`,
    )
    .join('');
  const resources = input.resources
    .map((r) => `<li>the toolgate gateway at <code>${escapeHtml(r)}</code></li>`)
    .join('');
  const asked =
    input.scopes.length === 0
      ? '<p>It asks for no permission beyond calling the gateway as you.</p>'
      : `<p>It will be allowed to:</p><ul>${scopes}</ul>`;
  return layout(
    'Allow access — toolgate development',
    `<h1>Allow access?</h1><p>Signed in as <strong>${escapeHtml(input.user)}</strong>.</p>
<p><strong>${escapeHtml(input.clientName)}</strong> asks to call tools as you at:</p><ul>${resources}</ul>
${asked}
<form method="post" action="${escapeHtml(input.action)}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button></form>
<p class="note">Development authorization server: you can withdraw this by signing out of the client; the grant ends when its refresh token expires.</p>`,
  );
}

/**
 * Headers for the pages: no script at all, styles inline only, forms post back here, and the redirect
 * that follows a form may go to the client's redirect URI (form-action covers redirects).
 */
export function pageHeaders(redirectUri: string | undefined): Record<string, string> {
  let target = '';
  if (redirectUri !== undefined && URL.canParse(redirectUri)) {
    const url = new URL(redirectUri);
    if (url.protocol === 'http:' || url.protocol === 'https:') target = ` ${url.origin}`;
    else target = ` ${url.protocol}`;
  }
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${target}; frame-ancestors 'none'; base-uri 'none'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}
