// Configuration of OpenTelemetry tracing (`telemetry.tracing`) and the standard OTEL_* variables, resolved
// once at startup into the settings the tracer provider is built from (shared/telemetry/tracing.ts). The
// variables win over the file, as every environment override does; an invalid value stops startup with
// its name (docs/configuration.md, "Tracing").
import { Type, type Static } from '@sinclair/typebox';
import { ConfigError } from './errors.js';
import type { Environment } from './environment.js';

export const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type SamplerName = (typeof SAMPLERS)[number];

export const PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof PROTOCOLS)[number];

/** Where an OTLP/HTTP collector listens by default (the specification's default endpoint). */
export const DEFAULT_OTLP_ENDPOINT = 'http://localhost:4318';

export const TelemetryConfigSchema = Type.Object(
  {
    tracing: Type.Object(
      {
        enabled: Type.Boolean({
          default: false,
          description:
            'export traces over OTLP/HTTP; also on whenever OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set (OTEL_SDK_DISABLED=true turns it off)',
        }),
        endpoint: Type.Optional(
          Type.String({
            pattern: '^https?://',
            description:
              'OTLP/HTTP base URL (`/v1/traces` is appended); default http://localhost:4318',
          }),
        ),
        protocol: Type.Union(
          PROTOCOLS.map((p) => Type.Literal(p)),
          { default: 'http/protobuf' },
        ),
        serviceName: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 128,
            description:
              'service.name; default toolgate-gateway, toolgate-payments, or toolgate for `toolgate start`',
          }),
        ),
        sampler: Type.Union(
          SAMPLERS.map((s) => Type.Literal(s)),
          { default: 'parentbased_always_on' },
        ),
        samplerArg: Type.Number({
          minimum: 0,
          maximum: 1,
          default: 1,
          description: 'the ratio of the traceidratio samplers',
        }),
        timeoutMs: Type.Integer({ minimum: 100, maximum: 120000, default: 10000 }),
        maxQueueSize: Type.Integer({
          minimum: 1,
          maximum: 100000,
          default: 2048,
          description: 'spans waiting for export; beyond it new spans are dropped',
        }),
        maxExportBatchSize: Type.Integer({ minimum: 1, maximum: 10000, default: 512 }),
        scheduledDelayMs: Type.Integer({ minimum: 10, maximum: 60000, default: 1000 }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false, default: {} },
);

export type TelemetryConfig = Static<typeof TelemetryConfigSchema>;
export type TracingConfig = TelemetryConfig['tracing'];

export type TracingSettings =
  | { readonly enabled: false; readonly reason: string }
  | {
      readonly enabled: true;
      /** The full traces URL (…/v1/traces). */
      readonly url: string;
      readonly protocol: OtlpProtocol;
      /** Sent with every export; never logged (they usually hold a collector's credentials). */
      readonly headers: Readonly<Record<string, string>>;
      readonly timeoutMs: number;
      readonly sampler: SamplerName;
      readonly samplerArg: number;
      readonly serviceName: string;
      /** OTEL_RESOURCE_ATTRIBUTES, decoded (service.name among them is overridden by serviceName). */
      readonly resourceAttributes: Readonly<Record<string, string>>;
      readonly maxQueueSize: number;
      readonly maxExportBatchSize: number;
      readonly scheduledDelayMs: number;
      /** How long the batch processor waits for one export (OTEL_BSP_EXPORT_TIMEOUT, else timeoutMs). */
      readonly exportTimeoutMs: number;
    };

const TRUE = /^true$/i;

/**
 * The tracing settings of a process from its configuration and environment: `defaultServiceName` names
 * the command's services when neither OTEL_SERVICE_NAME nor the configuration does.
 */
export function resolveTracing(
  config: TracingConfig,
  env: Environment,
  defaultServiceName: string,
): TracingSettings {
  if (TRUE.test(value(env, 'OTEL_SDK_DISABLED') ?? ''))
    return { enabled: false, reason: 'OTEL_SDK_DISABLED=true' };
  const tracesEndpoint = value(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const endpoint = value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (!config.enabled && tracesEndpoint === undefined && endpoint === undefined)
    return {
      enabled: false,
      reason: 'no OTLP endpoint set and telemetry.tracing.enabled is false',
    };
  const url =
    tracesEndpoint !== undefined
      ? checkedUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', tracesEndpoint)
      : tracesUrl(
          endpoint !== undefined
            ? checkedUrl('OTEL_EXPORTER_OTLP_ENDPOINT', endpoint)
            : (config.endpoint ?? DEFAULT_OTLP_ENDPOINT),
        );
  const timeoutMs = timeoutOf(env, config.timeoutMs);
  const resourceAttributes = parseKeyValues(
    'OTEL_RESOURCE_ATTRIBUTES',
    value(env, 'OTEL_RESOURCE_ATTRIBUTES'),
  );
  return {
    enabled: true,
    url,
    protocol: protocolOf(env, config.protocol),
    headers: {
      ...lowerCased(
        parseKeyValues('OTEL_EXPORTER_OTLP_HEADERS', value(env, 'OTEL_EXPORTER_OTLP_HEADERS')),
      ),
      ...lowerCased(
        parseKeyValues(
          'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
          value(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'),
        ),
      ),
    },
    timeoutMs,
    ...samplerOf(env, config),
    serviceName:
      value(env, 'OTEL_SERVICE_NAME') ??
      resourceAttributes['service.name'] ??
      config.serviceName ??
      defaultServiceName,
    resourceAttributes,
    ...batchOf(env, config, timeoutMs),
  };
}

/** The endpoint as it may be shown: scheme, host, port and path, without user info or query. */
export function displayEndpoint(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

function value(env: Environment, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw === undefined || raw === '' ? undefined : raw;
}

function checkedUrl(variable: string, raw: string): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${variable}: not a URL (expected http://host:port…)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ConfigError(`${variable}: must be an http:// or https:// URL (OTLP over HTTP)`);
  return parsed.toString();
}

/** The base endpoint with the traces path: `/v1/traces` appended to whatever path it has. */
function tracesUrl(base: string): string {
  const parsed = new URL(base);
  parsed.pathname = `${parsed.pathname.replace(/\/+$/, '')}/v1/traces`;
  return parsed.toString();
}

function protocolOf(env: Environment, configured: OtlpProtocol): OtlpProtocol {
  for (const variable of ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL']) {
    const raw = value(env, variable);
    if (raw === undefined) continue;
    if ((PROTOCOLS as readonly string[]).includes(raw)) return raw as OtlpProtocol;
    throw new ConfigError(
      `${variable}: "${raw.slice(0, 40)}" is not supported (use http/protobuf or http/json; grpc is not offered)`,
    );
  }
  return configured;
}

function timeoutOf(env: Environment, configured: number): number {
  for (const variable of ['OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', 'OTEL_EXPORTER_OTLP_TIMEOUT']) {
    const raw = value(env, variable);
    if (raw === undefined) continue;
    if (!/^\d{1,9}$/.test(raw) || Number(raw) === 0)
      throw new ConfigError(
        `${variable}: "${raw.slice(0, 40)}" is not a positive number of milliseconds`,
      );
    return Number(raw);
  }
  return configured;
}

/**
 * The batch span processor's settings: OTEL_BSP_MAX_QUEUE_SIZE, OTEL_BSP_MAX_EXPORT_BATCH_SIZE,
 * OTEL_BSP_SCHEDULE_DELAY (ms) and OTEL_BSP_EXPORT_TIMEOUT (ms) win over the file (SDK environment
 * variables, "Batch Span Processor"); the export timeout is the exporter's otherwise. A batch is never
 * larger than the queue.
 */
function batchOf(
  env: Environment,
  config: TracingConfig,
  timeoutMs: number,
): {
  maxQueueSize: number;
  maxExportBatchSize: number;
  scheduledDelayMs: number;
  exportTimeoutMs: number;
} {
  const maxQueueSize = integerOf(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 1, 100000) ?? config.maxQueueSize;
  const batch =
    integerOf(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 1, 10000) ?? config.maxExportBatchSize;
  return {
    maxQueueSize,
    maxExportBatchSize: Math.min(batch, maxQueueSize),
    scheduledDelayMs:
      integerOf(env, 'OTEL_BSP_SCHEDULE_DELAY', 10, 60000) ?? config.scheduledDelayMs,
    exportTimeoutMs: integerOf(env, 'OTEL_BSP_EXPORT_TIMEOUT', 100, 120000) ?? timeoutMs,
  };
}

/** A variable holding a whole number from `min` to `max` (the bounds of its configuration key). */
function integerOf(
  env: Environment,
  variable: string,
  min: number,
  max: number,
): number | undefined {
  const raw = value(env, variable);
  if (raw === undefined) return undefined;
  const parsed = Number(raw);
  if (!/^\d{1,9}$/.test(raw) || parsed < min || parsed > max)
    throw new ConfigError(
      `${variable}: "${raw.slice(0, 40)}" is not a whole number from ${min} to ${max}`,
    );
  return parsed;
}

function samplerOf(
  env: Environment,
  config: TracingConfig,
): { sampler: SamplerName; samplerArg: number } {
  const rawName = value(env, 'OTEL_TRACES_SAMPLER');
  if (rawName !== undefined && !(SAMPLERS as readonly string[]).includes(rawName))
    throw new ConfigError(
      `OTEL_TRACES_SAMPLER: "${rawName.slice(0, 40)}" is not supported (one of ${SAMPLERS.join(', ')})`,
    );
  const sampler = (rawName as SamplerName | undefined) ?? config.sampler;
  const rawArg = value(env, 'OTEL_TRACES_SAMPLER_ARG');
  if (rawArg === undefined) return { sampler, samplerArg: config.samplerArg };
  const arg = Number(rawArg);
  if (!/^\d*\.?\d+(e-?\d+)?$/i.test(rawArg) || !(arg >= 0 && arg <= 1))
    throw new ConfigError(
      `OTEL_TRACES_SAMPLER_ARG: "${rawArg.slice(0, 40)}" is not a ratio from 0 to 1`,
    );
  return { sampler, samplerArg: arg };
}

/**
 * `key=value,key2=value2` (W3C Baggage-like, values percent-encoded), as OTEL_RESOURCE_ATTRIBUTES and
 * OTEL_EXPORTER_OTLP_HEADERS are written. A malformed entry stops startup; its value is never shown.
 */
export function parseKeyValues(variable: string, raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (raw === undefined) return out;
  for (const [index, entry] of raw.split(',').entries()) {
    if (entry.trim() === '') continue;
    const equals = entry.indexOf('=');
    const key = equals < 0 ? '' : entry.slice(0, equals).trim();
    if (key === '') throw new ConfigError(`${variable}: entry ${index + 1} is not key=value`);
    let decoded: string;
    try {
      decoded = decodeURIComponent(entry.slice(equals + 1).trim());
    } catch {
      throw new ConfigError(
        `${variable}: the value of ${key.slice(0, 64)} is not percent-encoded correctly`,
      );
    }
    out[key] = decoded;
  }
  return out;
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
