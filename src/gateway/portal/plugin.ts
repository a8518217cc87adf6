// The portal: server-rendered pages under /portal/ on the admin listener. This plugin owns sessions,
// sign-in and sign-out, the security headers and the static files; the pages themselves (developer and
// admin views) are registered from their own modules and call the admin plane's services in-process.
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AdminOidcConfig, PortalSessionConfig } from '../../config/admin-portal.js';
import type { Database } from '../../shared/db/types.js';
import type { Actor } from '../admin/actor.js';
import type { RoleRule } from '../admin/user-actor.js';
import { runMigrations } from '../../shared/db/migrations.js';
import { loadAssets, type Assets } from './assets.js';
import { portalMigrations } from './migrations.js';
import { html, type Html } from './html.js';
import { page } from './layout.js';
import {
  applySecurityHeaders,
  clearSessionCookie,
  one,
  registerFormParser,
  sameOrigin,
  sessionIdFrom,
  setSessionCookie,
  takeReturnTo,
  type FormBody,
} from './http-security.js';
import { callbackUrl, type PortalListener } from './callback-url.js';
import { createOidcClient, type OidcClient } from './oidc-client.js';
import { registerOidcRoutes } from './oidc-routes.js';
import { OidcLoginStore } from './oidc-login-store.js';
import { csrfMatches, SessionStore, type PortalSession } from './session-store.js';
import { continuePage, signInPage } from './sign-in-pages.js';

export interface PortalDeps {
  /** The gateway database (sessions live in the `portal` component's tables). */
  readonly db: Database;
  readonly session: PortalSessionConfig;
  readonly oidc?: AdminOidcConfig | undefined;
  /** Where the admin listener is (the OpenID Connect callback is derived from it, not from Host). */
  readonly listener: PortalListener;
  /** Admin or developer, from the ID token's claims (admin.roleClaim / admin.adminRole). */
  readonly roles: RoleRule;
  /** The admin API's bearer rule: the bootstrap admin token or a user JWT; null when refused. */
  authenticateToken(token: string): Promise<Actor | null>;
  /** Registers the pages (developer and admin views) with the portal's context. */
  readonly pages?: readonly ((app: FastifyInstance, portal: PortalContext) => void)[];
  /** Milliseconds since the epoch (tests of session expiry). */
  readonly clock?: () => number;
}

/** What page modules get from the portal. */
export interface PortalContext {
  readonly assets: Assets;
  /** The session, or null after answering (redirect to sign-in, or 403 for the wrong role). */
  requireSession(
    request: FastifyRequest,
    reply: FastifyReply,
    role?: 'admin',
  ): Promise<PortalSession | null>;
  /** The session of a POST whose CSRF token matches; null after refusing it (403). */
  requireForm(
    request: FastifyRequest,
    reply: FastifyReply,
    role?: 'admin',
  ): Promise<{ session: PortalSession; form: FormBody } | null>;
  sendPage(reply: FastifyReply, markup: Html, status?: number): FastifyReply;
}

declare module 'fastify' {
  interface FastifyRequest {
    portalSession?: PortalSession | null;
  }
}

export function portalPlugin(deps: PortalDeps): FastifyPluginAsync {
  return async (app) => {
    await runMigrations(deps.db, 'portal', portalMigrations);
    const assets = loadAssets();
    const clock = deps.clock ?? Date.now;
    const sessions = new SessionStore(
      deps.db,
      {
        idleMs: deps.session.idleMinutes * 60_000,
        absoluteMs: deps.session.absoluteHours * 3_600_000,
      },
      clock,
    );
    const logins = new OidcLoginStore(deps.db, clock);
    const oidc: OidcClient | undefined =
      deps.oidc === undefined ? undefined : createOidcClient(deps.oidc);

    applySecurityHeaders(app);
    registerFormParser(app);

    const sendPage = (reply: FastifyReply, markup: Html, status = 200) =>
      reply.code(status).type('text/html; charset=utf-8').send(markup.toString());

    async function sessionOf(request: FastifyRequest): Promise<PortalSession | null> {
      if (request.portalSession === undefined)
        request.portalSession = await sessions.find(sessionIdFrom(request));
      return request.portalSession;
    }

    function refuse(reply: FastifyReply, status: number, message: string): FastifyReply {
      return sendPage(
        reply,
        signInPage(assets, { oidcEnabled: oidc !== undefined, alert: message }),
        status,
      );
    }

    const portal: PortalContext = {
      assets,
      sendPage,
      async requireSession(request, reply, role) {
        const session = await sessionOf(request);
        if (session === null) {
          await reply.redirect('/portal/sign-in', 303);
          return null;
        }
        if (role === 'admin' && session.actor.role !== 'admin') {
          await sendPage(reply, forbidden(assets, session), 403);
          return null;
        }
        return session;
      },
      async requireForm(request, reply, role) {
        const form = (request.body ?? {}) as FormBody;
        const session = await sessionOf(request);
        if (session === null) {
          await refuse(reply, 401, 'Your session has ended. Sign in again.');
          return null;
        }
        if (!sameOrigin(request) || !csrfMatches(session, form._csrf)) {
          await sendPage(reply, csrfRefused(assets, session), 403);
          return null;
        }
        if (role === 'admin' && session.actor.role !== 'admin') {
          await sendPage(reply, forbidden(assets, session), 403);
          return null;
        }
        return { session, form };
      },
    };

    app.get('/', async (request, reply) => {
      const session = await sessionOf(request);
      if (session === null) return reply.redirect('/portal/sign-in', 303);
      const back = takeReturnTo(request, reply);
      if (back !== undefined) return reply.redirect(back, 303);
      return reply.redirect(
        session.actor.role === 'admin' ? '/portal/admin/requests' : '/portal/applications',
        303,
      );
    });

    app.get('/assets/:file', async (request, reply) => {
      const asset = assets.files.get((request.params as { file: string }).file);
      if (asset === undefined) return reply.code(404).type('text/plain').send('Not found');
      return reply
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .type(asset.contentType)
        .send(asset.body);
    });

    app.get('/sign-in', async (_request, reply) =>
      sendPage(reply, signInPage(assets, { oidcEnabled: oidc !== undefined })),
    );

    app.post('/sign-in', async (request, reply) => {
      const form = (request.body ?? {}) as FormBody;
      if (!sameOrigin(request))
        return refuse(reply, 403, 'This form must be sent from the portal itself.');
      const token = one(form, 'token').trim();
      const actor = token === '' ? null : await deps.authenticateToken(token).catch(() => null);
      if (actor === null || (actor.role !== 'admin' && actor.role !== 'developer')) {
        const error = token === '' ? 'Enter a token.' : 'This token is not accepted.';
        return sendPage(reply, signInPage(assets, { oidcEnabled: oidc !== undefined, error }), 401);
      }
      await startSession(request, reply, { ...actor, role: actor.role, via: actor.via });
      return reply.redirect('/portal/', 303);
    });

    app.post('/sign-out', async (request, reply) => {
      const ok = await portal.requireForm(request, reply);
      if (ok === null) return reply;
      await sessions.destroy(sessionIdFrom(request));
      clearSessionCookie(request, reply);
      return sendPage(
        reply,
        signInPage(assets, { oidcEnabled: oidc !== undefined, alert: undefined }),
        200,
      );
    });

    if (oidc !== undefined)
      registerOidcRoutes(app, {
        oidc,
        logins,
        roles: deps.roles,
        redirectUrl: (request) =>
          deps.oidc?.redirectUrl ?? callbackUrl(deps.listener, boundPort(app), request.host),
        refuse,
        startSession,
        continuePage: (reply) => sendPage(reply, continuePage(assets)),
      });
    else
      app.get('/auth/*', async (_request, reply) =>
        refuse(reply, 404, 'No OpenID Connect provider is configured.'),
      );

    async function startSession(
      request: FastifyRequest,
      reply: FastifyReply,
      actor: PortalSession['actor'],
    ): Promise<void> {
      await sessions.destroy(sessionIdFrom(request));
      const { id } = await sessions.create(actor);
      setSessionCookie(request, reply, id, deps.session.absoluteHours * 3600);
    }

    for (const register of deps.pages ?? []) register(app, portal);
  };
}

/** The port the admin listener is bound to (admin.port may be 0); undefined before it listens. */
function boundPort(app: FastifyInstance): number | undefined {
  const address = app.server.address();
  return typeof address === 'object' && address !== null ? address.port : undefined;
}

function forbidden(assets: Assets, session: PortalSession): Html {
  return pageWithMessage(assets, session, 'Not allowed', 'This page is for administrators.');
}

function csrfRefused(assets: Assets, session: PortalSession): Html {
  return pageWithMessage(
    assets,
    session,
    'Form refused',
    'This form was not sent from your current portal page (missing or wrong CSRF token). Reload the page and try again.',
  );
}

function pageWithMessage(
  assets: Assets,
  session: PortalSession,
  title: string,
  message: string,
): Html {
  return page(assets, {
    title,
    session,
    alert: message,
    body: html`<p><a href="/portal/">Back to the portal</a></p>`,
  });
}
