// The page frame every portal page shares (skip link, navigation by role, sign-out), and the form
// pieces that carry the CSRF token and tie each error to its field (aria-describedby).
import { html, type Html, type Interpolation } from './html.js';
import type { PortalSession } from './session-store.js';
import type { Assets } from './assets.js';

export interface PageInput {
  readonly title: string;
  readonly session: PortalSession | null;
  readonly body: Html;
  /** A one-line confirmation shown above the body (role status). */
  readonly notice?: string | undefined;
  /** A one-line failure shown above the body (role alert). */
  readonly alert?: string | undefined;
  /**
   * The navigation entry (its path) this page belongs to, marked aria-current="page"; by default the
   * entry whose label is the title.
   */
  readonly current?: string | undefined;
}

const ADMIN_NAV: readonly [string, string][] = [
  ['/portal/admin/requests', 'Requests'],
  ['/portal/admin/subscriptions', 'Subscriptions'],
  ['/portal/admin/tools', 'Tools'],
  ['/portal/admin/identity-provider', 'Identity provider'],
  ['/portal/admin/policies', 'Policies'],
  ['/portal/admin/audit', 'Audit log'],
];
const DEVELOPER_NAV: readonly [string, string][] = [
  ['/portal/catalogue', 'Catalogue'],
  ['/portal/applications', 'My applications'],
  ['/portal/request', 'Request access'],
  ['/portal/usage', 'Usage'],
  ['/portal/approvals', 'Approvals'],
];

/** One navigation area (developer or admin): its label, and its links with the current one marked. */
function navArea(
  label: string,
  links: readonly [string, string][],
  current: string | undefined,
): Html {
  return html`<nav aria-label="${label}" class="area">
    <span class="area-name" aria-hidden="true">${label}</span>
    <ul>
      ${links.map(
        ([href, text]) =>
          html`<li>
            <a href="${href}" ${href === current ? html`aria-current="page"` : null}>${text}</a>
          </li>`,
      )}
    </ul>
  </nav>`;
}

export function page(assets: Assets, input: PageInput): Html {
  const admin = input.session?.actor.role === 'admin';
  const current =
    input.current ??
    [...ADMIN_NAV, ...DEVELOPER_NAV].find(([, label]) => label === input.title)?.[0];
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${input.title} · toolgate portal</title>
        <link rel="stylesheet" href="${assets.cssHref}" />
        <script src="${assets.jsHref}" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="site">
          <div class="bar">
            <a href="/portal/" class="brand"><strong>toolgate portal</strong></a>
            ${
              input.session
                ? html`<form method="post" action="/portal/sign-out" class="who">
                    ${csrfField(input.session)}<span
                      >${input.session.actor.name ?? input.session.actor.subject}
                      (${input.session.actor.role})</span
                    >
                    <button type="submit">Sign out</button>
                  </form>`
                : null
            }
          </div>
          ${input.session ? navArea('Developer', DEVELOPER_NAV, current) : null}
          ${admin ? navArea('Admin', ADMIN_NAV, current) : null}
        </header>
        <main id="main" tabindex="-1">
          <h1>${input.title}</h1>
          ${input.notice ? html`<p class="notice" role="status">${input.notice}</p>` : null}
          ${input.alert ? html`<p class="alert" role="alert">${input.alert}</p>` : null}
          ${input.body}
        </main>
      </body>
    </html> `;
}

export function csrfField(session: PortalSession): Html {
  return html`<input type="hidden" name="_csrf" value="${session.csrfToken}" />`;
}

export interface FieldInput {
  readonly name: string;
  readonly label: string;
  readonly type?: 'text' | 'email' | 'password' | 'number' | 'url' | 'textarea';
  readonly value?: string | number | undefined;
  readonly error?: string | undefined;
  readonly hint?: string | undefined;
  readonly required?: boolean;
  readonly autocomplete?: string;
}

/** A labelled control; its hint and error are tied to it with aria-describedby. */
export function field(input: FieldInput): Html {
  const id = `f-${input.name}`;
  const described = [input.hint ? `${id}-hint` : '', input.error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  const common = html`id="${id}"
  name="${input.name}"${input.required ? html` required` : null}${
    described ? html` aria-describedby="${described}"` : null
  }${input.error ? html` aria-invalid="true"` : null}${
    input.autocomplete ? html` autocomplete="${input.autocomplete}"` : null
  }`;
  const control =
    input.type === 'textarea'
      ? html`<textarea ${common}>${input.value ?? ''}</textarea>`
      : html`<input type="${input.type ?? 'text'}" ${common} value="${input.value ?? ''}" />`;
  return html`<label for="${id}">${input.label}</label>
    ${input.hint ? html`<div id="${id}-hint" class="muted">${input.hint}</div>` : null} ${control}
    ${input.error ? html`<div id="${id}-error" class="field-error">${input.error}</div>` : null}`;
}

/** A group error (checkbox sets) tied to its fieldset. */
export function groupError(name: string, error: string | undefined): Interpolation {
  return error ? html`<div id="f-${name}-error" class="field-error">${error}</div>` : null;
}

export function statusBadge(status: string): Html {
  return html`<span class="status-${status}">${status}</span>`;
}

/** Times as people read them (`26 Nov 2026, 03:37 UTC`): the one helper, in format.ts. */
export { formatTime } from './format.js';
