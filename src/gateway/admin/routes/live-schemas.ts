// Response schemas of the live admin routes (tools, identity provider, usage) for the OpenAPI document.
// Request bodies are the TypeBox schemas the services validate with (one definition for both).
import { Type } from '@sinclair/typebox';
import { IdpSettingsSchema } from '../identity-provider/settings.js';

const Str = Type.String();
const OptStr = Type.Optional(Type.String());

export const AdminToolSchema = Type.Object({
  name: Str,
  configuredName: Type.String({ description: 'the name configuration gives the tool' }),
  backend: Str,
  operationId: OptStr,
  title: OptStr,
  description: OptStr,
  operation: Type.Object({ method: Str, path: Str }),
  approval: Type.Object({
    state: Type.Union([Type.Literal('approved'), Type.Literal('revoked')]),
    source: Type.Union([Type.Literal('configuration'), Type.Literal('stored')]),
    updatedAt: OptStr,
    updatedBy: OptStr,
  }),
  securityClass: Type.Union([
    Type.Literal('public'),
    Type.Literal('user'),
    Type.Literal('optional'),
  ]),
  annotations: Type.Record(Type.String(), Type.Unknown()),
  hiddenArguments: Type.Array(Str),
  overrides: Type.Record(Type.String(), Type.Unknown(), {
    description: 'overrides stored through the admin API',
  }),
});

export const ToolListSchema = Type.Object({ tools: Type.Array(AdminToolSchema) });

const StoredSettings = Type.Union([IdpSettingsSchema, Type.Null()], {
  description: 'null: the configuration file’s settings (a revert past the first stored version)',
});

export const IdpVersionSchema = Type.Object({
  version: Type.Integer(),
  settings: StoredSettings,
  createdAt: Str,
  createdBy: Str,
  revertedFrom: Type.Optional(Type.Integer()),
});

export const IdpCurrentSchema = Type.Object({
  source: Type.Union([Type.Literal('stored'), Type.Literal('configuration'), Type.Literal('none')]),
  version: Type.Optional(Type.Integer()),
  createdAt: OptStr,
  createdBy: OptStr,
  revertedFrom: Type.Optional(Type.Integer()),
  settings: Type.Optional(IdpSettingsSchema),
});

const Problem = Type.Object({ field: Str, message: Str });

export const IdpReportSchema = Type.Object({
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
  problems: Type.Array(Problem),
});

const RotationDue = Type.Union([Type.Literal('ok'), Type.Literal('warn'), Type.Literal('expired')]);

export const UsageReportSchema = Type.Object({
  subscriptions: Type.Array(
    Type.Object({
      id: Str,
      application: Str,
      environment: Str,
      status: Str,
      rotationDue: RotationDue,
      keys: Type.Array(
        Type.Object({ slot: Str, masked: Str, ageDays: Type.Integer(), rotationDue: RotationDue }),
      ),
    }),
    { description: 'the subscriptions of the rows, with key age under the rotation policy' },
  ),
  window: Type.Union([Type.Literal('hour'), Type.Literal('day')]),
  since: Str,
  until: Str,
  rows: Type.Array(
    Type.Object({
      subscriptionId: Str,
      tool: Str,
      requests: Type.Integer(),
      quotaRefusals: Type.Integer(),
      errors: Type.Integer(),
      latency: Type.Object({
        count: Type.Integer(),
        avgMs: Type.Union([Type.Number(), Type.Null()]),
        p50Ms: Type.Union([Type.Number(), Type.Null()]),
        p95Ms: Type.Union([Type.Number(), Type.Null()]),
      }),
    }),
  ),
});
