// The tool catalogue: GET /tools, GET /tools/{name}, PATCH /tools/{name} (admin) — applied on every
// gateway replica without a restart (ToolSettingsService).
import { Type } from '@sinclair/typebox';
import { route, type AdminRoute } from '../http/route.js';
import { ToolPatchSchema, type ToolSettingsService } from '../tool-settings.js';

const TAGS = ['tools'];
const Str = Type.String();
const OptStr = Type.Optional(Type.String());

const AdminToolSchema = Type.Object({
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
  definition: Type.Object(
    {
      hash: Type.String({
        description: 'SHA-256 of the canonical JSON (RFC 8785) of the current definition',
      }),
      pinned: Type.Optional(Type.Object({ hash: Str, at: Str, by: Str })),
      heldBack: Type.Boolean({
        description:
          'approved, but the definition differs from the pinned one: not listed, not callable until re-approved',
      }),
      changes: Type.Array(
        Type.Object({
          op: Type.Union([Type.Literal('added'), Type.Literal('removed'), Type.Literal('changed')]),
          path: Type.String({ description: 'JSON pointer into the definition' }),
          before: Type.Optional(Type.Unknown()),
          after: Type.Optional(Type.Unknown()),
        }),
        { description: 'from the pinned definition to the current one' },
      ),
    },
    { description: 'the pinned tool definition (docs/governance.md, "Pinned tool definitions")' },
  ),
});

const NameParams = Type.Object({
  name: Type.String({ description: "the tool's current or configured name" }),
});

export function toolRoutes(services: { readonly tools: ToolSettingsService }): AdminRoute[] {
  const { tools } = services;
  return [
    route({
      method: 'GET',
      path: '/tools',
      summary: 'Every tool: backend, approval state, security class, annotations, overrides',
      tags: TAGS,
      response: Type.Object({ tools: Type.Array(AdminToolSchema) }),
      handle: async () => ({ tools: await tools.list() }),
    }),
    route({
      method: 'GET',
      path: '/tools/{name}',
      summary: 'One tool (by its current or configured name)',
      tags: TAGS,
      params: NameParams,
      response: AdminToolSchema,
      errors: [404],
      handle: ({ params }) => tools.get(params.name),
    }),
    route({
      method: 'PATCH',
      path: '/tools/{name}',
      summary:
        'Change approval, security class or overrides (admin); every replica applies it without a restart. null resets a field. Approving pins the current definition (re-approves a held-back tool).',
      tags: TAGS,
      params: NameParams,
      body: ToolPatchSchema,
      bodyOptional: true,
      response: AdminToolSchema,
      errors: [400, 403, 404, 422],
      handle: ({ actor, params, body }) => tools.update(actor, params.name, body),
    }),
  ];
}
