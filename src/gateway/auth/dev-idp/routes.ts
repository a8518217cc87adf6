// Fastify plugin serving the development identity provider's discovery document and JWKS.
// Register it with the prefix the issuer URL ends in (none for an issuer that is a bare origin).
import type { FastifyPluginAsync } from 'fastify';
import type { DevIdp } from './idp.js';

export interface DevIdpRoutesOptions {
  /** Issuer URL (or a function returning it, for servers listening on port 0). When absent it is
   * derived from the request's protocol, Host and the plugin prefix — acceptable for a loopback
   * development server only. */
  issuer?: string | (() => string);
}

export function devIdpRoutes(idp: DevIdp, options: DevIdpRoutesOptions = {}): FastifyPluginAsync {
  return async (app) => {
    const prefix = app.prefix;
    const issuerFor = (protocol: string, host: string): string => {
      if (typeof options.issuer === 'function') return options.issuer();
      if (typeof options.issuer === 'string') return options.issuer;
      return `${protocol}://${host}${prefix}`;
    };
    app.get('/.well-known/openid-configuration', async (request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return idp.discoveryDocument(issuerFor(request.protocol, request.host));
    });
    app.get('/jwks.json', async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return idp.jwks();
    });
  };
}
