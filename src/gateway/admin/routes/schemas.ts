// Request and response schemas of the access-request, subscription and governance routes: TypeBox for
// requests, so one definition validates them and appears in the OpenAPI document (http/route.ts).
import { Type } from '@sinclair/typebox';

export const Environment = Type.Union(
  [Type.Literal('development'), Type.Literal('staging'), Type.Literal('production')],
  { description: 'deployment environment' },
);
export const ToolName = Type.String({
  pattern: '^(product:)?[A-Za-z0-9_-]{1,64}$',
  description: 'a tool name, or product:NAME for every tool of a product',
});
export const ToolList = Type.Array(ToolName, { minItems: 1, maxItems: 500, uniqueItems: true });
export const ApplicationName = Type.String({
  pattern: '^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$',
  description: '1-100 characters: letters, digits, space, ".", "_" or "-"',
});
/** Tool bundle names (gateway.bundles). */
export const BundleList = Type.Array(Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,31}$' }), {
  minItems: 1,
  maxItems: 100,
  uniqueItems: true,
});
const RateLimit = Type.Integer({
  minimum: 1,
  maximum: 1_000_000,
  description: 'requests per minute',
});

export const AccessRequestBody = Type.Object(
  {
    application: ApplicationName,
    owner: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 200 }),
        email: Type.String({ format: 'email', maxLength: 320 }),
      },
      { additionalProperties: false },
    ),
    tools: Type.Union([ToolList, Type.Literal('all')]),
    environments: Type.Array(Environment, { minItems: 1, maxItems: 3, uniqueItems: true }),
    justification: Type.String({ minLength: 1, maxLength: 4000 }),
    bundles: Type.Optional({
      ...BundleList,
      description:
        'tool bundles (gateway.bundles) the subscriptions are to be limited to; absent: every endpoint',
    }),
  },
  { additionalProperties: false },
);

export const ApprovalBody = Type.Object(
  {
    tools: Type.Optional(Type.Union([ToolList, Type.Literal('all')])),
    rateLimitPerMinute: Type.Optional(Type.Union([RateLimit, Type.Null()])),
    note: Type.Optional(Type.String({ maxLength: 4000 })),
  },
  { additionalProperties: false },
);

export const RejectionBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 4000 }) },
  { additionalProperties: false },
);

export const SubscriptionPatchBody = Type.Object(
  {
    tools: Type.Optional(
      Type.Union([ToolList, Type.Null()], { description: 'null: every approved tool' }),
    ),
    rateLimitPerMinute: Type.Optional(
      Type.Union([RateLimit, Type.Null()], { description: "null: the gateway's default quota" }),
    ),
    bundles: Type.Optional(
      Type.Union([BundleList, Type.Null()], {
        description:
          'limit the subscription to these tool bundles (their endpoints only); null: not limited',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const KeyPolicyBody = Type.Object(
  {
    rotationDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650, default: 90 })),
    warnDays: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650, default: 14 })),
    enforce: Type.Optional(
      Type.Object(
        {
          development: Type.Optional(Type.Boolean()),
          staging: Type.Optional(Type.Boolean()),
          production: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** Path parameters of routes on one resource: `/…/{id}`. */
export const IdParams = Type.Object({ id: Type.String() });

/** `{ <key>: [item, …] }`: the list answers. */
export function listSchema(key: string, items: unknown): Record<string, unknown> {
  return {
    type: 'object',
    required: [key],
    properties: { [key]: { type: 'array', items } },
  };
}

const Nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });

export const ActorSchema = {
  type: 'object',
  required: ['role', 'subject', 'via'],
  properties: {
    role: { enum: ['admin', 'developer', 'system'] },
    subject: { type: 'string' },
    issuer: {
      type: 'string',
      description: "the user token's issuer (absent for toolgate's own actors)",
    },
    via: { type: 'string' },
    name: { type: 'string' },
    roles: {
      type: 'array',
      items: { type: 'string' },
      description: "a user's roles (admin.roleClaim of their token)",
    },
  },
};

export const KeyViewSchema = {
  type: 'object',
  properties: {
    slot: { enum: ['primary', 'secondary'] },
    masked: { type: 'string', examples: ['tgk_…1234'] },
    createdAt: { type: 'string', format: 'date-time' },
    lastUsedAt: Nullable({ type: 'string', format: 'date-time' }),
    ageDays: { type: 'integer' },
    rotationDue: { enum: ['ok', 'warn', 'expired'] },
  },
};

export const SubscriptionViewSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    application: { type: 'string' },
    environment: Environment,
    status: { enum: ['active', 'suspended', 'revoked'] },
    tools: Nullable({ type: 'array', items: { type: 'string' } }),
    bundles: Nullable({ type: 'array', items: { type: 'string' } }),
    rateLimitPerMinute: Nullable({ type: 'integer' }),
    lockoutExempt: { type: 'boolean' },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
    keys: { type: 'array', items: KeyViewSchema },
  },
};

export const ApplicationSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    owner: {
      type: 'object',
      properties: {
        subject: { type: 'string' },
        name: { type: 'string' },
        email: { type: 'string' },
      },
    },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
    subscriptions: { type: 'array', items: SubscriptionViewSchema },
  },
};

export const AccessRequestSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    applicationId: { type: 'string' },
    application: { type: 'string' },
    requester: { type: 'string' },
    owner: { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string' } } },
    tools: { anyOf: [{ type: 'array', items: { type: 'string' } }, { const: 'all' }] },
    environments: { type: 'array', items: Environment },
    bundles: Nullable({ type: 'array', items: { type: 'string' } }),
    justification: { type: 'string' },
    status: { enum: ['pending', 'approved', 'rejected'] },
    approvedTools: {
      anyOf: [{ type: 'array', items: { type: 'string' } }, { const: 'all' }, { type: 'null' }],
    },
    rateLimitPerMinute: Nullable({ type: 'integer' }),
    decision: Nullable({
      type: 'object',
      properties: {
        by: { type: 'string' },
        at: { type: 'string' },
        note: Nullable({ type: 'string' }),
      },
    }),
    subscriptionIds: { type: 'array', items: { type: 'string' } },
    keysCollectedAt: Nullable({ type: 'string' }),
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
};

export const KeyPolicySchema = {
  type: 'object',
  properties: {
    rotationDays: { type: 'integer' },
    warnDays: { type: 'integer' },
    enforce: {
      type: 'object',
      properties: {
        development: { type: 'boolean' },
        staging: { type: 'boolean' },
        production: { type: 'boolean' },
      },
    },
  },
};

export const AuditEntrySchema = {
  type: 'object',
  properties: {
    seq: { type: 'integer' },
    at: { type: 'string', format: 'date-time' },
    actor: ActorSchema,
    action: { type: 'string' },
    target: { type: 'object', properties: { type: { type: 'string' }, id: { type: 'string' } } },
    before: {},
    after: {},
    prevHash: { type: 'string' },
    hash: { type: 'string' },
  },
};

export const CollectedKeysSchema = listSchema('subscriptions', {
  type: 'object',
  properties: {
    environment: Environment,
    subscriptionId: { type: 'string' },
    primaryKey: { type: 'string' },
    secondaryKey: { type: 'string' },
    gatewayUrl: Nullable({ type: 'string' }),
    mcpServers: Nullable({ type: 'object' }),
  },
});
