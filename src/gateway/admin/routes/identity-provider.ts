// Identity-provider settings: the current version, the history, live validation, save (422 with the
// problems when validation fails) and revert — every replica applies a new version within
// gateway.auth.settingsRefreshMs (IdentityProviderService).
import type { FastifyPluginAsync } from 'fastify';
import { actorOf, type AdminRouteModule } from '../http/module.js';
import { operation } from '../http/openapi.js';
import { IdpRequestSchema, type IdentityProviderService } from '../identity-provider/service.js';
import { IdpSettingsSchema } from '../identity-provider/settings.js';
import { IdpCurrentSchema, IdpReportSchema, IdpVersionSchema } from './live-schemas.js';
import { Type } from '@sinclair/typebox';

const TAGS = ['identity provider'];
const RequestBody = {
  ...IdpRequestSchema,
  properties: { ...IdpRequestSchema.properties, settings: IdpSettingsSchema },
};

export function identityProviderRoutes(deps: {
  readonly identityProvider: IdentityProviderService;
}): AdminRouteModule {
  const idp = deps.identityProvider;
  const plugin: FastifyPluginAsync = async (app) => {
    app.get('/identity-provider', async (request) => idp.current(actorOf(request)));
    app.get('/identity-provider/versions', async (request) => ({
      versions: await idp.versions(actorOf(request)),
    }));
    app.post('/identity-provider/validate', async (request) =>
      idp.validate(actorOf(request), request.body),
    );
    app.put('/identity-provider', async (request) => idp.save(actorOf(request), request.body));
    app.post('/identity-provider/revert', async (request) => idp.revert(actorOf(request)));
  };
  return {
    name: 'identity-provider',
    plugin,
    openApiPaths: {
      '/identity-provider': {
        get: operation({
          summary: 'The identity-provider settings in force (admin)',
          tags: TAGS,
          response: IdpCurrentSchema,
          errors: [403],
        }),
        put: operation({
          summary:
            'Validate live and save as a new version (admin); refused with 422 and the problems when validation fails',
          tags: TAGS,
          body: RequestBody,
          response: IdpVersionSchema,
          errors: [400, 403, 422],
        }),
      },
      '/identity-provider/versions': {
        get: operation({
          summary: 'Every stored version, newest first (admin)',
          tags: TAGS,
          response: Type.Object({ versions: Type.Array(IdpVersionSchema) }),
          errors: [403],
        }),
      },
      '/identity-provider/validate': {
        post: operation({
          summary:
            'Fetch discovery and keys, list the keys, verify an optional sample token — without saving (admin)',
          tags: TAGS,
          body: RequestBody,
          response: IdpReportSchema,
          errors: [400, 403],
        }),
      },
      '/identity-provider/revert': {
        post: operation({
          summary: 'Restore the version before the current one, as a new version (admin)',
          tags: TAGS,
          response: IdpVersionSchema,
          errors: [403, 409],
        }),
      },
    },
  };
}
