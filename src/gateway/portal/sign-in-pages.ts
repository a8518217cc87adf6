// The pages shown before a session exists: sign-in (bootstrap or personal token, OpenID Connect) and
// the hand-over page after the provider's redirect.
import { html, type Html } from './html.js';
import { field, page } from './layout.js';
import type { Assets } from './assets.js';

export function signInPage(
  assets: Assets,
  input: { oidcEnabled: boolean; error?: string | undefined; alert?: string | undefined },
): Html {
  const body = html` ${
      input.oidcEnabled
        ? html`<h2>With your organisation's account</h2>
            <p><a class="button" href="/portal/auth/oidc">Sign in with OpenID Connect</a></p>`
        : html`<p class="muted">
            No OpenID Connect provider is configured (admin.oidc); sign in with a token.
          </p>`
    }
    <h2>With a token</h2>
    <p>
      The first administrator signs in with the bootstrap admin token that
      <code>npm start</code> prints. Developers may paste a user token (<code
        >npx toolgate token --sub NAME</code
      >
      in development).
    </p>
    <form method="post" action="/portal/sign-in">
      ${field({
        name: 'token',
        label: 'Token',
        type: 'password',
        required: true,
        autocomplete: 'off',
        error: input.error,
      })}
      <p><button type="submit">Sign in</button></p>
    </form>`;
  return page(assets, { title: 'Sign in', session: null, body, alert: input.alert });
}

/** After the provider's redirect: continue with a same-site navigation so the Strict cookie is sent. */
export function continuePage(assets: Assets): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta http-equiv="refresh" content="0;url=/portal/" />
        <title>Signed in · toolgate portal</title>
        <link rel="stylesheet" href="${assets.cssHref}" />
      </head>
      <body>
        <main id="main">
          <p>Signed in. <a href="/portal/">Continue to the portal</a>.</p>
        </main>
      </body>
    </html>`;
}
