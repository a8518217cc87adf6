// Configuration of the gateway's MCP endpoint and of the backends whose OpenAPI operations become tools
// (docs/configuration.md). Defaults register the local payment service (the demo setup).
import { Type, type Static } from '@sinclair/typebox';
import { IdentityForwardingSchema, type IdentityForwardingConfig } from './gateway-forwarding.js';
import { McpUpstreamSchema } from './gateway-federation.js';

const Timeouts = Type.Object(
  {
    connectMs: Type.Integer({ minimum: 10, maximum: 60000, default: 2000 }),
    headersMs: Type.Integer({ minimum: 10, maximum: 300000, default: 10000 }),
    totalMs: Type.Integer({ minimum: 10, maximum: 600000, default: 15000 }),
  },
  { additionalProperties: false, default: {} },
);

/** An RFC 6901 JSON pointer ("" is the whole document; every other starts with "/"). */
const JsonPointer = Type.String({ pattern: '^(/([^~]|~[01])*)*$', maxLength: 512 });

/**
 * Where a tool that moves money states its amount and currency (JSON pointers into the call's arguments),
 * and where the backend's answer names what it created (governance: policies see the amount, budgets count
 * it, evidence records the reference).
 */
export const MoneyLocationSchema = Type.Object(
  {
    amount: JsonPointer,
    currency: JsonPointer,
    reference: Type.Optional(JsonPointer),
  },
  {
    additionalProperties: false,
    description:
      'the tool moves money: JSON pointers to the amount (a number or decimal string) and ISO 4217 currency in its arguments, and optionally to the reference in a success response',
  },
);

export type MoneyLocation = Static<typeof MoneyLocationSchema>;

/** How an operator reshapes one operation's tool without editing the OpenAPI document. */
export const ToolOverrideSchema = Type.Object(
  {
    name: Type.Optional(
      Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'the tool name agents see' }),
    ),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 8192 })),
    annotations: Type.Optional(
      Type.Object(
        {
          title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          readOnlyHint: Type.Optional(Type.Boolean()),
          destructiveHint: Type.Optional(Type.Boolean()),
          idempotentHint: Type.Optional(Type.Boolean()),
          openWorldHint: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
    hidden: Type.Optional(
      Type.Record(Type.String({ minLength: 1 }), Type.Unknown(), {
        description:
          'arguments removed from the tool and always sent with this value (checked against the argument schema at load)',
      }),
    ),
    money: Type.Optional(MoneyLocationSchema),
    scopes: Type.Optional(
      Type.Array(Type.String({ pattern: '^[\\x21\\x23-\\x5B\\x5D-\\x7E]+$' }), {
        uniqueItems: true,
        maxItems: 16,
        description:
          'OAuth scopes a user token must carry to call the tool (replaces the OpenAPI security requirement scopes); a token without them gets 403 insufficient_scope',
      }),
    ),
  },
  { additionalProperties: false },
);

export type ToolOverride = Static<typeof ToolOverrideSchema>;

export const BackendSchema = Type.Object(
  {
    name: Type.String({
      pattern: '^[A-Za-z0-9_-]{1,32}$',
      description: 'short backend name (used in tool-name collisions and logs)',
    }),
    baseUrl: Type.Optional(
      Type.String({
        pattern: '^https?://',
        description: 'OpenAPI backends: the base URL the paths are joined to',
      }),
    ),
    openapi: Type.Optional(
      Type.Union(
        [
          Type.Object({ file: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
          Type.Object(
            { url: Type.String({ pattern: '^https?://' }) },
            { additionalProperties: false },
          ),
        ],
        { description: 'the OpenAPI 3.0/3.1 document: a file path (relative to cwd) or a URL' },
      ),
    ),
    mcp: Type.Optional(McpUpstreamSchema),
    timeouts: Timeouts,
    maxResponseBytes: Type.Integer({ minimum: 1024, maximum: 64 * 1024 * 1024, default: 1048576 }),
    connections: Type.Integer({ minimum: 1, maximum: 1024, default: 64 }),
    injectHeaders: Type.Record(
      Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$" }),
      Type.String(),
      {
        default: {},
        description: 'headers the gateway adds to every call (credentials; may use ${env:NAME})',
      },
    ),
    approve: Type.Union([Type.Literal('all'), Type.Array(Type.String({ minLength: 1 }))], {
      default: [],
      description: "'all' or the tool names approved by configuration",
    }),
    identity: IdentityForwardingSchema,
    tools: Type.Record(Type.String({ minLength: 1 }), ToolOverrideSchema, {
      default: {},
      description:
        "per-operation overrides, keyed by the operation's operationId (or its tool name when it has none)",
    }),
  },
  { additionalProperties: false },
);

/** Where a payment record (createPayment's and updatePayment's body) states its amount. */
const PAYMENT_MONEY: MoneyLocation = {
  amount: '/body/paymentInstruction/amount/instructedAmount',
  currency: '/body/paymentInstruction/amount/instructedCurrency',
  reference: '/paymentInstructionReference/identification',
};

/** The shipped payment service's OpenAPI documents, as `gateway.backends[].openapi.file` names them. */
export const paymentOrderDocumentFile = 'src/payments/openapi/payment-order.yaml';
export const accountsDocumentFile = 'src/payments/openapi/accounts.yaml';

/**
 * The payment service's two documents as gateway backends, every operation approved. `origin` is the
 * payment service's base address (e.g. `http://127.0.0.1:8081`); the demo wiring can call this with the
 * configured payments host/port and add the bank-directory key to `injectHeaders`.
 */
export function paymentServiceBackends(
  origin: string,
  injectHeaders: Record<string, string> = {},
  identity: IdentityForwardingConfig = { mode: 'headers', claims: {}, assertionTtlSeconds: 60 },
): BackendConfig[] {
  const common = {
    timeouts: { connectMs: 2000, headersMs: 10000, totalMs: 15000 },
    maxResponseBytes: 1048576,
    connections: 64,
    approve: 'all' as const,
    identity,
    tools: {},
  };
  const base = origin.replace(/\/+$/, '');
  return [
    {
      name: 'payments',
      baseUrl: `${base}/payments/payment-order/v1`,
      openapi: { file: paymentOrderDocumentFile },
      injectHeaders,
      ...common,
      // The tools that move money, for governance (policies, budgets, evidence).
      tools: { createPayment: { money: PAYMENT_MONEY }, updatePayment: { money: PAYMENT_MONEY } },
    },
    {
      name: 'accounts',
      baseUrl: `${base}/accounts/v1`,
      openapi: { file: accountsDocumentFile },
      injectHeaders: {},
      ...common,
    },
  ];
}

export const DEFAULT_PAYMENTS_PORT = 8081;
export const DEFAULT_BACKENDS = paymentServiceBackends(`http://127.0.0.1:${DEFAULT_PAYMENTS_PORT}`);

export const McpSchema = Type.Object(
  {
    path: Type.String({ pattern: '^/[A-Za-z0-9/_-]*$', default: '/mcp' }),
    allowedOrigins: Type.Array(Type.String({ pattern: '^https?://' }), {
      default: [],
      description: 'browser origins allowed to call the endpoint (exact match, no trailing slash)',
    }),
    allowLoopbackOrigins: Type.Boolean({
      default: true,
      description: 'also allow http(s)://localhost, 127.0.0.1 and [::1] origins on any port',
    }),
    pageSize: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
    schemaView: Type.Union([Type.Literal('compact'), Type.Literal('full')], {
      default: 'compact',
      description:
        'how tools/list shows tool schemas: compact (shared $defs, no nested descriptions or lengths, small outputSchemas only) or full; calls are validated against the full schemas either way',
    }),
    maxBatchSize: Type.Integer({ minimum: 1, maximum: 1000, default: 50 }),
    approvalRefreshMs: Type.Integer({ minimum: 0, maximum: 3600000, default: 5000 }),
    watchDocuments: Type.Boolean({
      default: false,
      description:
        'rebuild the catalogue when a backend OpenAPI document file changes (every replica, as tools reload does)',
    }),
    reloadMaxLoss: Type.Number({
      minimum: 0,
      maximum: 1,
      default: 0.5,
      description:
        'a catalogue reload that would remove more than this share of the tools is refused unless forced (tools reload --force); one that leaves a backend without tools always is',
    }),
    requestStateSecret: Type.Optional(
      Type.String({
        minLength: 32,
        description:
          'key (HKDF input) signing the requestState of 2026-07-28 consent round trips; the same on every replica. Absent: derived from gateway.auth.subscriptionKeys.pepper, else random per process (one replica only)',
      }),
    ),
    serverName: Type.String({ minLength: 1, default: 'toolgate' }),
    instructions: Type.Optional(Type.String()),
  },
  { additionalProperties: false, default: {} },
);

export const BackendsSchema = Type.Array(BackendSchema, { default: DEFAULT_BACKENDS });

/** Spread into GatewaySchema: `gateway.mcp` and `gateway.backends`. */
export const GatewayMcpProperties = { mcp: McpSchema, backends: BackendsSchema };

export type BackendConfig = Static<typeof BackendSchema>;
export type McpConfig = Static<typeof McpSchema>;
