// The portal pages that connect a user's account at an upstream MCP server's own authorization server
// (identity mode delegation, issue 28):
//   GET  /portal/federation/<backend>/connect     signed-in portal users only (else sign in, then back
//        here); starts the authorization code flow with PKCE, its state bound server-side to the signed-in
//        subject and to this browser (a Lax cookie holding a random value whose hash is stored).
//   GET  /portal/federation/callback              stores the tokens only for the subject that started the
//        flow, and only when the portal user now signed in *is* that subject and the browser is the one
//        that started it. User A's link or A's authorization URL opened by user B stores nothing for A, and
//        B's answer replayed in A's browser stores nothing for A either.
//   POST /portal/federation/<backend>/disconnect  CSRF-protected like every portal form; forgets the tokens.
// The session cookie is SameSite=Strict and the upstream's redirect back is cross-site, so the callback
// first answers with a same-site continue page when the session cookie did not come along (sign-in-pages.ts
// does the same after the portal's own sign-in).
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FrozenConfig } from '../../../config/schema.js';
import type { Database } from '../../../shared/db/types.js';
import { html, type Html } from '../html.js';
import { csrfField, page } from '../layout.js';
import { isHttps, sessionIdFrom, setReturnTo } from '../http-security.js';
import type { PortalContext } from '../plugin.js';
import type { PortalSession } from '../session-store.js';
import { adminListener, configuredDelegation } from '../../federation/delegation/configured.js';
import {
  delegationBackends,
  type DelegationProvider,
} from '../../federation/delegation/provider.js';
import { DelegationLoginStore, sha256 } from '../../federation/delegation/token-store.js';
import {
  AuthorizationServerUnavailable,
  GrantRefused,
} from '../../federation/delegation/upstream-as.js';
import {
  CALLBACK_PATH,
  CALLBACK_ROUTE,
  CONNECT_ROUTE,
  CONNECTIONS_ROUTE,
  DISCONNECT_ROUTE,
  connectPath,
  delegationCallbackUrl,
  type PortalListener,
} from '../../federation/delegation/urls.js';

/** Binds a sign-in at an upstream to the browser that started it; Lax so it survives the redirect back. */
const BINDING_COOKIE = 'toolgate_federation';
const BINDING_PATH = '/portal/federation';
/** The continue page's marker: the second, same-site visit of the callback. */
const CONTINUED = 'continued';

export interface DelegationPagesDeps {
  /** The gateway database (sign-ins in flight). */
  readonly db: Database;
  readonly delegation: DelegationProvider;
  /** The backends in identity mode delegation (names). */
  readonly backends: ReadonlySet<string>;
  readonly listener: PortalListener;
  readonly clock?: (() => number) | undefined;
}

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function setBinding(request: FastifyRequest, reply: FastifyReply, value: string, maxAge: number) {
  const secure = isHttps(request) ? '; Secure' : '';
  const current = reply.getHeader('set-cookie');
  const list = current === undefined ? [] : Array.isArray(current) ? current : [String(current)];
  reply.header('set-cookie', [
    ...list,
    `${BINDING_COOKIE}=${value}; Max-Age=${maxAge}; Path=${BINDING_PATH}; HttpOnly; SameSite=Lax${secure}`,
  ]);
}

function boundPort(app: FastifyInstance): number | undefined {
  const address = app.server.address();
  return typeof address === 'object' && address !== null ? address.port : undefined;
}

/** A portal page module (portal-app.ts `pages`): the connect, callback and disconnect routes. */
export function registerDelegationPages(
  deps: DelegationPagesDeps,
): (app: FastifyInstance, portal: PortalContext) => void {
  return (app, portal) => {
    const logins = new DelegationLoginStore(deps.db, deps.clock);
    const message = (
      reply: FastifyReply,
      session: PortalSession | null,
      status: number,
      title: string,
      text: string,
    ) =>
      portal.sendPage(
        reply,
        page(portal.assets, {
          title,
          session,
          ...(status < 300 ? { notice: text } : { alert: text }),
          body: html`<p><a href="/portal/">Back to the portal</a></p>`,
        }),
        status,
      );

    app.get(CONNECT_ROUTE, async (request, reply) => {
      const { backend } = request.params as { backend: string };
      if (!deps.backends.has(backend))
        return message(
          reply,
          null,
          404,
          'Unknown service',
          'No service of this gateway signs users in there.',
        );
      // Not signed in: sign in to the portal first, then come back here.
      setReturnTo(request, reply, connectPath(backend));
      const session = await portal.requireSession(request, reply);
      if (session === null) return reply;
      if (session.actor.issuer === undefined)
        return message(
          reply,
          session,
          403,
          'Sign in as yourself',
          `Connecting an account at ${backend} is for users signed in with their own identity, not with an administrator token.`,
        );
      let started;
      const redirectUri = delegationCallbackUrl(deps.listener, boundPort(app), request.host);
      try {
        started = await deps.delegation.authorizationServer(backend).start(redirectUri);
      } catch (error) {
        request.log.warn(
          { backend, reason: error instanceof Error ? error.message : String(error) },
          'delegation sign-in could not start',
        );
        return message(
          reply,
          session,
          502,
          'Cannot connect now',
          `The sign-in service of ${backend} cannot be reached. Try again later.`,
        );
      }
      const binding = randomBytes(32).toString('base64url');
      await logins.save(started.state, {
        subject: session.actor.subject,
        backend,
        bindingHash: sha256(binding),
        redirectUri,
        nonce: started.nonce,
        codeVerifier: started.codeVerifier,
      });
      setBinding(request, reply, binding, 600);
      return reply.redirect(started.url, 303);
    });

    // The query holds the authorization code: no access line for this route (failures log at warn).
    app.get(CALLBACK_ROUTE, { logLevel: 'warn' }, async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const state = typeof query.state === 'string' ? query.state : '';
      const parameters = new URLSearchParams(request.url.split('?')[1] ?? '');
      const continued = parameters.has(CONTINUED);
      parameters.delete(CONTINUED);
      if (sessionIdFrom(request) === undefined && !continued) {
        // The Strict session cookie does not come along on the cross-site redirect back: continue
        // with a same-site navigation, which carries it.
        parameters.set(CONTINUED, '1');
        return portal.sendPage(
          reply,
          continuePage(portal, `${CALLBACK_PATH}?${parameters.toString()}`),
        );
      }
      const session = await portal.requireSession(request, reply);
      if (session === null) return reply;
      const pending = state === '' ? null : await logins.peek(state);
      if (pending === null)
        return message(
          reply,
          session,
          400,
          'Sign-in expired',
          'This sign-in is unknown or expired. Start again from the link your agent gave you.',
        );
      // The security core: the answer is stored only for the subject that started this sign-in, and only
      // when that subject is the one signed in here, in the browser that started it.
      if (pending.subject !== session.actor.subject) {
        await logins.take(state); // spent: it can no longer complete for anyone
        request.log.warn(
          { backend: pending.backend },
          'delegation callback refused: another user started this sign-in',
        );
        return message(
          reply,
          session,
          403,
          'Not your sign-in',
          'This sign-in was started by another user. Nothing was stored. Open the connect link yourself to connect your own account.',
        );
      }
      const binding = cookieOf(request, BINDING_COOKIE);
      if (binding === undefined || sha256(binding) !== pending.bindingHash) {
        request.log.warn(
          { backend: pending.backend },
          'delegation callback refused: not the browser that started it',
        );
        return message(
          reply,
          session,
          400,
          'Sign-in not started here',
          'This sign-in was not started in this browser. Nothing was stored. Start again from the link your agent gave you.',
        );
      }
      const taken = await logins.take(state);
      setBinding(request, reply, '', 0);
      if (taken === null)
        return message(
          reply,
          session,
          400,
          'Sign-in expired',
          'This sign-in is unknown or expired. Start again from the link your agent gave you.',
        );
      const backend = taken.backend;
      if (typeof query.error === 'string')
        return message(
          reply,
          session,
          401,
          'Not connected',
          `The sign-in service of ${backend} did not sign you in. Nothing was stored.`,
        );
      let tokens;
      try {
        tokens = await deps.delegation.authorizationServer(backend).finish({
          redirectUri: taken.redirectUri,
          parameters,
          state,
          nonce: taken.nonce,
          codeVerifier: taken.codeVerifier,
        });
      } catch (error) {
        request.log.warn(
          { backend, reason: error instanceof Error ? error.message : String(error) },
          'delegation code exchange failed',
        );
        if (error instanceof GrantRefused || error instanceof AuthorizationServerUnavailable)
          return message(
            reply,
            session,
            502,
            'Not connected',
            `The sign-in at ${backend} could not be completed. Nothing was stored. Start again from the link your agent gave you.`,
          );
        throw error;
      }
      await deps.delegation.store.put(taken.subject, backend, {
        ...tokens,
        issuer: session.actor.issuer,
      });
      request.log.info({ backend }, 'delegated upstream account connected');
      return portal.sendPage(reply, connectedPage(portal, session, backend));
    });

    // The signed-in user's connections: each delegation backend, connected or not.
    app.get(CONNECTIONS_ROUTE, async (request, reply) => {
      const session = await portal.requireSession(request, reply);
      if (session === null) return reply;
      const connected = new Set(await deps.delegation.store.backendsOf(session.actor.subject));
      const rows = [...deps.backends].sort().map(
        (backend) =>
          html`<tr>
            <td>${backend}</td>
            <td>${connected.has(backend) ? 'connected' : 'not connected'}</td>
            <td>
              ${
                connected.has(backend)
                  ? html`<form
                      method="post"
                      action="/portal/federation/${encodeURIComponent(backend)}/disconnect"
                    >
                      ${csrfField(session)}<button type="submit">Disconnect</button>
                    </form>`
                  : html`<a href="${connectPath(backend)}">Connect</a>`
              }
            </td>
          </tr>`,
      );
      return portal.sendPage(
        reply,
        page(portal.assets, {
          title: 'Connected services',
          session,
          body: html`<p>
              Services behind this gateway that act on your own account there. The gateway keeps
              your sign-in to each, encrypted, and uses it only for your calls.
            </p>
            <table>
              <thead>
                <tr>
                  <th>Service</th>
                  <th>Status</th>
                  <th></th>
                </tr>
              </thead>
              <tbody>
                ${rows}
              </tbody>
            </table>`,
        }),
      );
    });

    app.post(DISCONNECT_ROUTE, async (request, reply) => {
      const { backend } = request.params as { backend: string };
      const ok = await portal.requireForm(request, reply);
      if (ok === null) return reply;
      if (!deps.backends.has(backend))
        return message(
          reply,
          ok.session,
          404,
          'Unknown service',
          'No service of this gateway signs users in there.',
        );
      await deps.delegation.store.remove(ok.session.actor.subject, backend);
      return message(
        reply,
        ok.session,
        200,
        'Disconnected',
        `Your account at ${backend} is disconnected: the gateway forgot its tokens. Your agent will ask you to sign in there again.`,
      );
    });
  };
}

function continuePage(portal: PortalContext, target: string): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta http-equiv="refresh" content="0;url=${target}" />
        <title>Connecting · toolgate portal</title>
        <link rel="stylesheet" href="${portal.assets.cssHref}" />
      </head>
      <body>
        <main id="main">
          <p>Almost done. <a href="${target}">Continue</a>.</p>
        </main>
      </body>
    </html>`;
}

function connectedPage(portal: PortalContext, session: PortalSession, backend: string): Html {
  return page(portal.assets, {
    title: `Connected to ${backend}`,
    session,
    notice: `Your account at ${backend} is connected.`,
    body: html`<p>Go back to your agent and try again: its calls to ${backend} now act as you.</p>
      <p><a href="/portal/federation">Your connected services</a></p>
      <form method="post" action="/portal/federation/${encodeURIComponent(backend)}/disconnect">
        ${csrfField(session)}
        <p><button type="submit">Disconnect ${backend}</button></p>
      </form>`,
  });
}

/** The connect pages for the configured delegation backends (none when no backend uses the mode). */
export function configuredDelegationPages(
  config: FrozenConfig,
  db: Database,
): ((app: FastifyInstance, portal: PortalContext) => void)[] {
  const delegation = configuredDelegation(config, db);
  if (delegation === undefined) return [];
  return [
    registerDelegationPages({
      db,
      delegation,
      backends: new Set(delegationBackends(config.gateway.backends).keys()),
      listener: adminListener(config),
    }),
  ];
}
