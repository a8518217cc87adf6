// Identity-provider settings: the current version, the history, live validation, save (422 with the
// problems when validation fails) and revert — every replica applies a new version within
// gateway.auth.settingsRefreshMs (IdentityProviderService).
import { Type } from '@sinclair/typebox';
import { requireAdmin } from '../errors.js';
import { route, type AdminRoute } from '../http/route.js';
import {
  IdpRequestSchema,
  notSaved,
  reportOfRefusedRequest,
  type IdentityProviderService,
} from '../identity-provider/service.js';
import { IdpSettingsSchema } from '../identity-provider/settings.js';

const TAGS = ['identity provider'];
const Str = Type.String();
const OptStr = Type.Optional(Type.String());

const StoredSettings = Type.Union([IdpSettingsSchema, Type.Null()], {
  description: 'null: the configuration file’s settings (a revert past the first stored version)',
});

const IdpVersionSchema = Type.Object({
  version: Type.Integer(),
  settings: StoredSettings,
  createdAt: Str,
  createdBy: Str,
  revertedFrom: Type.Optional(Type.Integer()),
});

const IdpCurrentSchema = Type.Object({
  source: Type.Union([Type.Literal('stored'), Type.Literal('configuration'), Type.Literal('none')]),
  version: Type.Optional(Type.Integer()),
  createdAt: OptStr,
  createdBy: OptStr,
  revertedFrom: Type.Optional(Type.Integer()),
  settings: Type.Optional(IdpSettingsSchema),
});

const FieldProblemSchema = Type.Object({ field: Str, pointer: Str, code: Str, message: Str });

const IdpReportSchema = Type.Object({
  ok: Type.Boolean(),
  issuer: OptStr,
  jwksUri: OptStr,
  keys: Type.Array(
    Type.Object({
      kid: OptStr,
      alg: OptStr,
      kty: Str,
      crv: OptStr,
      usable: Type.Boolean(),
    }),
  ),
  sampleToken: Type.Optional(Type.Object({ ok: Type.Boolean(), subject: OptStr, error: OptStr })),
  problems: Type.Array(FieldProblemSchema),
});

export function identityProviderRoutes(services: {
  readonly identityProvider: IdentityProviderService;
}): AdminRoute[] {
  const idp = services.identityProvider;
  return [
    route({
      method: 'GET',
      path: '/identity-provider',
      summary: 'The identity-provider settings in force (admin)',
      tags: TAGS,
      response: IdpCurrentSchema,
      errors: [403],
      handle: ({ actor }) => idp.current(actor),
    }),
    route({
      method: 'PUT',
      path: '/identity-provider',
      summary:
        'Validate live and save as a new version (admin); refused with 422 and the problems when validation fails',
      tags: TAGS,
      body: IdpRequestSchema,
      response: IdpVersionSchema,
      errors: [400, 403, 422],
      // Settings that break their schema are refused like settings that fail live validation (422).
      invalidBody: (problems, actor) => {
        requireAdmin(actor);
        throw notSaved(reportOfRefusedRequest(problems));
      },
      handle: ({ actor, body }) => idp.save(actor, body),
    }),
    route({
      method: 'GET',
      path: '/identity-provider/versions',
      summary: 'Every stored version, newest first (admin)',
      tags: TAGS,
      response: Type.Object({ versions: Type.Array(IdpVersionSchema) }),
      errors: [403],
      handle: async ({ actor }) => ({ versions: await idp.versions(actor) }),
    }),
    route({
      method: 'POST',
      path: '/identity-provider/validate',
      summary:
        'Fetch discovery and keys, list the keys, verify an optional sample token — without saving (admin)',
      tags: TAGS,
      body: IdpRequestSchema,
      response: IdpReportSchema,
      errors: [400, 403],
      // Settings that break their schema get the report of unusable settings, as live problems do.
      invalidBody: (problems, actor) => {
        requireAdmin(actor);
        return reportOfRefusedRequest(problems);
      },
      handle: ({ actor, body }) => idp.validate(actor, body),
    }),
    route({
      method: 'POST',
      path: '/identity-provider/revert',
      summary: 'Restore the version before the current one, as a new version (admin)',
      tags: TAGS,
      response: IdpVersionSchema,
      errors: [403, 409],
      handle: ({ actor }) => idp.revert(actor),
    }),
  ];
}
