// The configuration schema: one TypeBox schema gives both the JSON Schema used to validate the file at
// startup and the TypeScript type that the rest of the code receives (frozen, with what loadConfig
// resolved from it).
import { Type, type Static } from '@sinclair/typebox';
import type { DeepReadonly } from './deep-readonly.js';
import type { ResolvedSettings } from './gateway-identity.js';
import { GatewayAuthSchema } from './gateway-auth.js';
import { RateLimitConfigSchema } from './gateway-ratelimit.js';
import { PaymentsServiceProperties } from './payments-service.js';
import { PaymentsFeesProperties } from './payments-fees.js';
import { PaymentsWebhooksProperties } from './payments-webhooks.js';
import { PaymentsDirectoryProperties } from './payments-directory.js';
import { GatewayMcpProperties } from './gateway-mcp.js';
import { GatewayGovernanceProperties } from './gateway-governance.js';
import { GatewayFederationProperties } from './gateway-federation.js';
import { AdminConfigSchema } from './admin.js';
import { TelemetryConfigSchema } from './telemetry.js';

const port = (fallback: number) =>
  Type.Integer({
    minimum: 0,
    maximum: 65535,
    default: fallback,
    description: 'TCP port (0 = any free port)',
  });
const Host = Type.String({
  minLength: 1,
  maxLength: 255,
  default: '127.0.0.1',
  description: 'interface address to listen on',
});

export const databaseSchema = (defaults: { sqlitePath: string; schema: string }) =>
  Type.Object(
    {
      url: Type.Optional(
        Type.String({
          pattern: '^postgres(ql)?://',
          description: 'PostgreSQL connection URL; when absent the embedded SQLite file is used',
        }),
      ),
      sqlitePath: Type.String({
        minLength: 1,
        default: defaults.sqlitePath,
        description: 'SQLite file (relative to dataDir unless absolute)',
      }),
      schema: Type.String({
        pattern: '^[a-z_][a-z0-9_]{0,62}$',
        default: defaults.schema,
        description: "PostgreSQL schema holding this service's tables (created if missing)",
      }),
      poolSize: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
      connectTimeoutMs: Type.Integer({ minimum: 100, maximum: 120000, default: 5000 }),
      statementTimeoutMs: Type.Integer({ minimum: 100, maximum: 600000, default: 15000 }),
    },
    { additionalProperties: false, default: {} },
  );
export const DatabaseSchema = databaseSchema({ sqlitePath: 'toolgate.db', schema: 'toolgate' });

export const RedisSchema = Type.Object(
  {
    url: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'redis://, rediss://, redis+sentinel://host:port[,host:port…]/<masterName>[/<db>] or redis+cluster://host:port[,host:port…] (docs/operations.md, "Redis and rate limiting"); checked at startup',
      }),
    ),
    connectTimeoutMs: Type.Integer({ minimum: 50, maximum: 60000, default: 2000 }),
    commandTimeoutMs: Type.Integer({ minimum: 5, maximum: 60000, default: 200 }),
  },
  { additionalProperties: false, default: {} },
);

const HttpLimits = {
  bodyLimitBytes: Type.Integer({ minimum: 1024, maximum: 50 * 1024 * 1024, default: 1024 * 1024 }),
  requestTimeoutMs: Type.Integer({ minimum: 100, maximum: 600000, default: 30000 }),
  keepAliveTimeoutMs: Type.Integer({ minimum: 100, maximum: 600000, default: 72000 }),
};

export const GatewaySchema = Type.Object(
  {
    host: Host,
    port: port(8080),
    publicUrl: Type.Optional(
      Type.String({
        pattern: '^https?://',
        description: 'externally visible base URL of the gateway',
      }),
    ),
    ...HttpLimits,
    database: databaseSchema({ sqlitePath: 'gateway.db', schema: 'toolgate_gateway' }),
    redis: RedisSchema,
    auth: GatewayAuthSchema,
    products: Type.Record(
      Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }),
      Type.Array(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }), { maxItems: 1000 }),
      {
        default: {},
        description:
          'named sets of tools; a subscription listing "product:NAME" may use every tool of that product',
      },
    ),
    rateLimit: RateLimitConfigSchema,
    metrics: Type.Object(
      {
        enabled: Type.Boolean({
          default: true,
          description:
            'serve Prometheus metrics (process, MCP requests and tool calls, rate limiter) at `path`',
        }),
        path: Type.String({ pattern: '^/[A-Za-z0-9/_.-]{0,127}$', default: '/metrics' }),
        subscriptionLabels: Type.Integer({
          minimum: 0,
          maximum: 10_000,
          default: 100,
          description:
            'how many distinct subscription ids label the per-subscription metrics (the first seen since start); later ones count as "other"; 0 turns those metrics off',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    usage: Type.Object(
      {
        enabled: Type.Boolean({
          default: true,
          description:
            'record requests, quota refusals, errors and latency per subscription, tool and minute in the gateway database',
        }),
        flushMs: Type.Integer({
          minimum: 100,
          maximum: 300000,
          default: 5000,
          description: 'how often the counters kept in memory are added to the database',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    ...GatewayMcpProperties,
    ...GatewayGovernanceProperties,
    ...GatewayFederationProperties,
  },
  { additionalProperties: false, default: {} },
);

export const PaymentsSchema = Type.Object(
  {
    host: Host,
    port: port(8081),
    publicUrl: Type.Optional(Type.String({ pattern: '^https?://' })),
    ...HttpLimits,
    database: databaseSchema({ sqlitePath: 'payments.db', schema: 'toolgate_payments' }),
    metrics: Type.Object(
      {
        enabled: Type.Boolean({
          default: true,
          description:
            'serve Prometheus metrics (process, HTTP requests by route, execution engine lag and runs) at `path`',
        }),
        path: Type.String({ pattern: '^/[A-Za-z0-9/_.-]{0,127}$', default: '/metrics' }),
      },
      { additionalProperties: false, default: {} },
    ),
    ...PaymentsServiceProperties,
    ...PaymentsFeesProperties,
    ...PaymentsWebhooksProperties,
    ...PaymentsDirectoryProperties,
  },
  { additionalProperties: false, default: {} },
);

export const ConfigSchema = Type.Object(
  {
    environment: Type.Union(
      [Type.Literal('development'), Type.Literal('staging'), Type.Literal('production')],
      { default: 'development' },
    ),
    dataDir: Type.String({ minLength: 1, default: 'data' }),
    logging: Type.Object(
      {
        level: Type.Union(
          ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) =>
            Type.Literal(l),
          ),
          { default: 'info' },
        ),
      },
      { additionalProperties: false, default: {} },
    ),
    shutdown: Type.Object(
      {
        graceMs: Type.Integer({ minimum: 0, maximum: 300000, default: 10000 }),
      },
      { additionalProperties: false, default: {} },
    ),
    secrets: Type.Array(Type.String({ minLength: 1 }), {
      default: [],
      description: 'extra secret values that must never appear in logs',
    }),
    gateway: GatewaySchema,
    payments: PaymentsSchema,
    admin: AdminConfigSchema,
    telemetry: TelemetryConfigSchema,
  },
  { additionalProperties: false, default: {} },
);

export type Config = Static<typeof ConfigSchema>;
export type GatewayConfig = Config['gateway'];
export type PaymentsConfig = Config['payments'];
export type AdminConfig = Config['admin'];
export type DatabaseConfig = Static<typeof DatabaseSchema>;
export type RedisConfig = Static<typeof RedisSchema>;

export type { DeepReadonly } from './deep-readonly.js';
export type { ResolvedSettings } from './gateway-identity.js';

/** The loaded configuration: validated, completed, deep-frozen, with what loadConfig resolved once. */
export type FrozenConfig = DeepReadonly<Config> & { readonly resolved: ResolvedSettings };
