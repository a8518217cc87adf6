// Fastify routes of the development authorization server on the gateway's port: everything under the
// issuer path (/dev-idp) goes to oidc-provider (its own body parsing, so Fastify parses nothing there),
// except the sign-in and consent interaction, served here. The authorization server metadata is also
// answered at the RFC 8414 §3.1 path-inserted URLs clients derive from the issuer
// (`/.well-known/oauth-authorization-server/dev-idp`, `/.well-known/openid-configuration/dev-idp`) and at
// `/dev-idp/.well-known/oauth-authorization-server`: the same document as OpenID discovery.
import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { InteractionDetails, InteractionResult } from 'oidc-provider';
import type { DevUser } from '../../../config/gateway-auth.js';
import { consentPage, escapeHtml, loginPage, pageHeaders } from './pages.js';

export interface DevAuthorizationRoutesOptions {
  readonly provider: Provider;
  /** The issuer's path, e.g. `/dev-idp`. */
  readonly prefix: string;
  readonly users: readonly DevUser[];
  /** Development only (checked at startup): sign this user in and consent without a page. */
  readonly autoLogin?: string | undefined;
  /** The resources tokens may be for, the first the default (the MCP URL), named on the consent page. */
  readonly resources?: readonly string[];
}

export const INTERACTION_SEGMENT = '/interaction';
const DISCOVERY = '/.well-known/openid-configuration';

export function devAuthorizationRoutes(options: DevAuthorizationRoutesOptions): FastifyPluginAsync {
  const { provider, prefix } = options;
  const callback = provider.callback();
  const users = new Map(options.users.map((u) => [u.sub, u]));

  /** Hands the raw request to oidc-provider as if it were mounted at `prefix`. */
  const pass = (request: FastifyRequest, reply: FastifyReply, url: string): void => {
    reply.hijack();
    const raw = request.raw as IncomingMessage & { originalUrl?: string };
    raw.originalUrl = `${prefix}${url}`;
    raw.url = url;
    void callback(raw, reply.raw);
  };
  const query = (request: FastifyRequest): string => {
    const at = request.url.indexOf('?');
    return at === -1 ? '' : request.url.slice(at);
  };

  return async (app) => {
    await app.register(async (scope) => {
      // oidc-provider reads request bodies itself: leave the stream untouched.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
      scope.all(`${prefix}/*`, async (request, reply) => {
        pass(request, reply, request.url.slice(prefix.length));
      });
      const metadataRoutes = [
        `/.well-known/oauth-authorization-server${prefix}`,
        `${DISCOVERY}${prefix}`,
        `${prefix}/.well-known/oauth-authorization-server`,
      ];
      for (const route of metadataRoutes)
        scope.get(route, async (request, reply) => {
          pass(request, reply, `${DISCOVERY}${query(request)}`);
        });
    });

    await app.register(async (scope) => {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 4096 },
        (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );
      const base = `${prefix}${INTERACTION_SEGMENT}/:uid`;

      scope.get(base, async (request, reply) => {
        const details = await detailsOf(request, reply);
        if (details === null) return reply;
        if (options.autoLogin !== undefined) {
          const accountId = details.session?.accountId ?? options.autoLogin;
          const result =
            details.prompt.name === 'login'
              ? { login: { accountId: options.autoLogin } }
              : { consent: { grantId: await grantFor(details, accountId) } };
          return finish(request, reply, result);
        }
        const clientName = await clientNameOf(details);
        const action = `${prefix}${INTERACTION_SEGMENT}/${encodeURIComponent(details.uid)}`;
        reply.headers(pageHeaders(stringParam(details, 'redirect_uri')));
        if (details.prompt.name === 'login')
          return loginPage({ action: `${action}/login`, clientName, users: options.users });
        const missing = details.prompt.details;
        return consentPage({
          action: `${action}/consent`,
          clientName,
          user: details.session?.accountId ?? '',
          scopes: [
            ...new Set([
              ...(missing.missingOIDCScope ?? []),
              ...Object.values(missing.missingResourceScopes ?? {}).flat(),
            ]),
          ],
          resources: resourcesOf(details, options.resources),
        });
      });

      scope.post(`${base}/login`, async (request, reply) => {
        const details = await detailsOf(request, reply);
        if (details === null) return reply;
        const sub = formField(request, 'sub');
        if (sub === undefined || !users.has(sub))
          return refuse(reply, 400, 'Choose one of the listed users.');
        return finish(request, reply, { login: { accountId: sub } });
      });

      scope.post(`${base}/consent`, async (request, reply) => {
        const details = await detailsOf(request, reply);
        if (details === null) return reply;
        const accountId = details.session?.accountId;
        if (accountId === undefined) return refuse(reply, 400, 'Sign in first.');
        if (formField(request, 'decision') !== 'allow')
          return finish(request, reply, {
            error: 'access_denied',
            error_description: 'the user denied access',
          });
        return finish(request, reply, { consent: { grantId: await grantFor(details, accountId) } });
      });
    });
  };

  /** The interaction the cookie and the URL name; null (answered 400) when it is unknown or expired. */
  async function detailsOf(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<InteractionDetails | null> {
    const uid = (request.params as { uid?: string }).uid;
    try {
      const details = await provider.interactionDetails(request.raw, reply.raw);
      if (details.uid === uid) return details;
    } catch {
      // SessionNotFound: no interaction cookie, or it expired.
    }
    refuse(
      reply,
      400,
      'This sign-in has expired or was started elsewhere. Start again from your client.',
    );
    return null;
  }

  async function finish(
    request: FastifyRequest,
    reply: FastifyReply,
    result: InteractionResult,
  ): Promise<FastifyReply> {
    const to = await provider.interactionResult(request.raw, reply.raw, result, {
      mergeWithLastSubmission: true,
    });
    return reply.header('cache-control', 'no-store').redirect(to, 303);
  }

  /** Grants everything the client asked for (the user allowed it, or autoLogin in development). */
  async function grantFor(details: InteractionDetails, accountId: string): Promise<string> {
    const clientId = stringParam(details, 'client_id') ?? '';
    const existing =
      details.grantId === undefined ? undefined : await provider.Grant.find(details.grantId);
    const grant = existing ?? new provider.Grant({ accountId, clientId });
    const missing = details.prompt.details;
    if (missing.missingOIDCScope !== undefined && missing.missingOIDCScope.length > 0)
      grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(resource, scopes.join(' '));
    return grant.save();
  }

  async function clientNameOf(details: InteractionDetails): Promise<string> {
    const clientId = stringParam(details, 'client_id') ?? 'an unknown client';
    const client = await provider.Client.find(clientId).catch(() => undefined);
    return client?.clientName ?? clientId;
  }
}

/**
 * The resources the consent is for: those with scopes to consent to, else the ones the client named
 * (`resource`), else the default resource a token without one is issued for (issue 27, trap 3: the page
 * named none when the client asked for no tool scope).
 */
function resourcesOf(
  details: InteractionDetails,
  configured: readonly string[] | undefined,
): string[] {
  const withScopes = Object.keys(details.prompt.details.missingResourceScopes ?? {});
  if (withScopes.length > 0) return withScopes;
  const named = details.params.resource;
  const asked = (Array.isArray(named) ? named : [named]).filter(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  if (asked.length > 0) return asked;
  return configured?.[0] === undefined ? [] : [configured[0]];
}

function stringParam(details: InteractionDetails, name: string): string | undefined {
  const value = details.params[name];
  return typeof value === 'string' ? value : undefined;
}

function formField(request: FastifyRequest, name: string): string | undefined {
  const body = request.body;
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

function refuse(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply
    .code(status)
    .headers(pageHeaders(undefined))
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in problem</title></head><body><p>${escapeHtml(message)}</p></body></html>`,
    );
}
