// OpenID Connect sign-in routes of the portal: /auth/oidc sends the browser to the provider (state,
// nonce and PKCE verifier kept server-side, state also bound to this browser by a short-lived cookie);
// /auth/callback checks the state, exchanges the code and starts a session for the actor the ID token's
// claims make (the admin plane's one rule: user-actor.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AdminError } from '../admin/errors.js';
import { userActor, type RoleRule } from '../admin/user-actor.js';
import { clearOidcBinding, oidcBindingFrom, setOidcBinding } from './http-security.js';
import type { OidcClient } from './oidc-client.js';
import type { OidcLoginStore } from './oidc-login-store.js';
import type { PortalSession } from './session-store.js';

export interface OidcRouteDeps {
  readonly oidc: OidcClient;
  readonly logins: OidcLoginStore;
  readonly roles: RoleRule;
  redirectUrl(request: FastifyRequest): string;
  refuse(reply: FastifyReply, status: number, message: string): FastifyReply;
  startSession(
    request: FastifyRequest,
    reply: FastifyReply,
    actor: PortalSession['actor'],
  ): Promise<void>;
  continuePage(reply: FastifyReply): FastifyReply;
}

export function registerOidcRoutes(app: FastifyInstance, deps: OidcRouteDeps): void {
  app.get('/auth/oidc', async (request, reply) => {
    let started;
    try {
      started = await deps.oidc.start(deps.redirectUrl(request));
    } catch (error) {
      request.log.warn({ err: error }, 'portal OIDC sign-in could not start');
      return deps.refuse(reply, 502, 'The identity provider cannot be reached. Try again later.');
    }
    await deps.logins.save(started);
    setOidcBinding(request, reply, started.state);
    return reply.redirect(started.url, 303);
  });

  // The query holds the authorization code: no access line for this route (its failures still log
  // at warn, without the URL).
  app.get('/auth/callback', { logLevel: 'warn' }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const state = typeof query.state === 'string' ? query.state : '';
    const code = typeof query.code === 'string' ? query.code : '';
    clearOidcBinding(request, reply);
    if (typeof query.error === 'string')
      return deps.refuse(reply, 401, 'The identity provider did not sign you in.');
    const pending = state === '' ? null : await deps.logins.take(state);
    if (pending === null || oidcBindingFrom(request) !== state || code === '')
      return deps.refuse(reply, 400, 'This sign-in is unknown or expired. Start again.');
    let claims;
    try {
      claims = await deps.oidc.finish({
        redirectUrl: deps.redirectUrl(request),
        parameters: new URLSearchParams(request.url.split('?')[1] ?? ''),
        state,
        ...pending,
      });
    } catch (error) {
      request.log.warn({ err: error }, 'portal OIDC sign-in failed');
      return deps.refuse(reply, 401, 'The identity provider’s answer could not be verified.');
    }
    let actor: PortalSession['actor'];
    try {
      actor = userActor(claims, deps.roles, 'oidc-session');
    } catch (error) {
      if (!(error instanceof AdminError)) throw error;
      return deps.refuse(reply, 401, `You cannot sign in: ${error.message}.`);
    }
    await deps.startSession(request, reply, actor);
    return deps.continuePage(reply);
  });
}
