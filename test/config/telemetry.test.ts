// telemetry.tracing and the OTEL_* variables (docs/configuration.md, "Tracing"; OpenTelemetry SDK
// environment variables and OTLP exporter specification): when tracing is on, where it exports, in which
// form, with which headers, sampler and service name; invalid values stop startup naming the variable and
// never showing a header's value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, ConfigError } from '../../src/config/load.js';
import {
  displayEndpoint,
  parseKeyValues,
  resolveTracing,
  type TracingConfig,
  type TracingSettings,
} from '../../src/config/telemetry.js';

const defaults = (over: Record<string, unknown> = {}): TracingConfig =>
  loadConfig({ env: {}, overrides: { telemetry: { tracing: over } } }).telemetry
    .tracing as TracingConfig;

function on(settings: TracingSettings): Extract<TracingSettings, { enabled: true }> {
  assert.equal(settings.enabled, true, JSON.stringify(settings));
  return settings as Extract<TracingSettings, { enabled: true }>;
}

test('off by default: no endpoint variable and telemetry.tracing.enabled false', () => {
  const settings = resolveTracing(defaults(), {}, 'toolgate-gateway');
  assert.equal(settings.enabled, false);
});

test('SDK env spec: OTEL_SDK_DISABLED=true turns tracing off whatever else is set', () => {
  const settings = resolveTracing(
    defaults({ enabled: true }),
    { OTEL_SDK_DISABLED: 'TRUE', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' },
    'x',
  );
  assert.deepEqual(settings, { enabled: false, reason: 'OTEL_SDK_DISABLED=true' });
});

test('OTLP exporter spec: OTEL_EXPORTER_OTLP_ENDPOINT gets /v1/traces appended; the traces endpoint is used as given and wins', () => {
  const base = (endpoint: string) =>
    on(resolveTracing(defaults(), { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }, 'x')).url;
  assert.equal(base('http://collector:4318'), 'http://collector:4318/v1/traces');
  assert.equal(base('http://collector:4318/'), 'http://collector:4318/v1/traces');
  assert.equal(base('https://otlp.example/prefix/'), 'https://otlp.example/prefix/v1/traces');
  const both = on(
    resolveTracing(
      defaults(),
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:9999/custom',
      },
      'x',
    ),
  );
  assert.equal(both.url, 'http://traces:9999/custom');
  assert.throws(
    () => resolveTracing(defaults(), { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'x'),
    (error: unknown) =>
      error instanceof ConfigError && error.message.startsWith('OTEL_EXPORTER_OTLP_ENDPOINT:'),
  );
});

test('the configuration alone turns tracing on: its endpoint, else the default http://localhost:4318', () => {
  assert.equal(
    on(resolveTracing(defaults({ enabled: true }), {}, 'x')).url,
    'http://localhost:4318/v1/traces',
  );
  assert.equal(
    on(resolveTracing(defaults({ enabled: true, endpoint: 'http://otel:4318' }), {}, 'x')).url,
    'http://otel:4318/v1/traces',
  );
});

test('protocol: http/protobuf by default, http/json by variable (traces-specific wins), grpc refused naming the variable', () => {
  const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
  assert.equal(on(resolveTracing(defaults(), env, 'x')).protocol, 'http/protobuf');
  assert.equal(
    on(resolveTracing(defaults(), { ...env, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, 'x'))
      .protocol,
    'http/json',
  );
  assert.equal(
    on(
      resolveTracing(
        defaults({ protocol: 'http/json' }),
        { ...env, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' },
        'x',
      ),
    ).protocol,
    'http/protobuf',
  );
  assert.throws(
    () => resolveTracing(defaults(), { ...env, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'x'),
    /OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not supported/,
  );
});

test('headers: percent-decoded, traces-specific over general, names lower-cased; a malformed entry is named without its value', () => {
  const settings = on(
    resolveTracing(
      defaults(),
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Basic%20abc,x-tenant=one',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'X-Tenant=two',
      },
      'x',
    ),
  );
  assert.deepEqual(settings.headers, { authorization: 'Basic abc', 'x-tenant': 'two' });
  assert.throws(
    () => parseKeyValues('OTEL_EXPORTER_OTLP_HEADERS', 'api-key=%E0%A4%A-secret'),
    (error: unknown) =>
      error instanceof ConfigError &&
      error.message.includes('api-key') &&
      !error.message.includes('secret'),
  );
  assert.throws(
    () => parseKeyValues('OTEL_EXPORTER_OTLP_HEADERS', 'novalue'),
    /entry 1 is not key=value/,
  );
});

test('sampler: parentbased_always_on by default; OTEL_TRACES_SAMPLER and _ARG; unknown names and ratios out of [0, 1] refused', () => {
  const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
  const first = on(resolveTracing(defaults(), env, 'x'));
  assert.deepEqual([first.sampler, first.samplerArg], ['parentbased_always_on', 1]);
  const ratio = on(
    resolveTracing(
      defaults(),
      { ...env, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' },
      'x',
    ),
  );
  assert.deepEqual([ratio.sampler, ratio.samplerArg], ['parentbased_traceidratio', 0.25]);
  assert.throws(
    () => resolveTracing(defaults(), { ...env, OTEL_TRACES_SAMPLER: 'jaeger_remote' }, 'x'),
    /^ConfigError: OTEL_TRACES_SAMPLER:|OTEL_TRACES_SAMPLER: "jaeger_remote"/,
  );
  for (const bad of ['1.5', '-0.1', 'half'])
    assert.throws(
      () => resolveTracing(defaults(), { ...env, OTEL_TRACES_SAMPLER_ARG: bad }, 'x'),
      /OTEL_TRACES_SAMPLER_ARG/,
      bad,
    );
});

test('service name: OTEL_SERVICE_NAME, then service.name in OTEL_RESOURCE_ATTRIBUTES, then the configuration, then the command default', () => {
  const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
  const name = (config: TracingConfig, more: Record<string, string>) =>
    on(resolveTracing(config, { ...env, ...more }, 'toolgate-payments')).serviceName;
  assert.equal(name(defaults(), {}), 'toolgate-payments');
  assert.equal(name(defaults({ serviceName: 'from-file' }), {}), 'from-file');
  assert.equal(
    name(defaults({ serviceName: 'from-file' }), {
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attrs,team=pay%20ops',
    }),
    'from-attrs',
  );
  assert.equal(
    name(defaults(), {
      OTEL_SERVICE_NAME: 'from-env',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attrs',
    }),
    'from-env',
  );
  assert.deepEqual(
    on(resolveTracing(defaults(), { ...env, OTEL_RESOURCE_ATTRIBUTES: 'team=pay%20ops' }, 'x'))
      .resourceAttributes,
    { team: 'pay ops' },
  );
});

test('timeout and queue: OTEL_EXPORTER_OTLP_TIMEOUT in ms (traces-specific wins); the batch never exceeds the queue', () => {
  const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
  assert.equal(on(resolveTracing(defaults(), env, 'x')).timeoutMs, 10000);
  assert.equal(
    on(
      resolveTracing(
        defaults(),
        { ...env, OTEL_EXPORTER_OTLP_TIMEOUT: '3000', OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '2500' },
        'x',
      ),
    ).timeoutMs,
    2500,
  );
  assert.throws(
    () => resolveTracing(defaults(), { ...env, OTEL_EXPORTER_OTLP_TIMEOUT: '0' }, 'x'),
    /OTEL_EXPORTER_OTLP_TIMEOUT/,
  );
  const small = on(resolveTracing(defaults({ maxQueueSize: 100 }), env, 'x'));
  assert.deepEqual([small.maxQueueSize, small.maxExportBatchSize], [100, 100]);
});

test('SDK env spec, batch span processor: OTEL_BSP_* win over the file; the export timeout defaults to the exporter one; invalid values stop startup', () => {
  const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_TIMEOUT: '4000' };
  const plain = on(resolveTracing(defaults(), env, 'x'));
  assert.deepEqual(
    [plain.maxQueueSize, plain.maxExportBatchSize, plain.scheduledDelayMs, plain.exportTimeoutMs],
    [2048, 512, 1000, 4000],
  );
  const tuned = on(
    resolveTracing(
      defaults({ maxQueueSize: 100 }),
      {
        ...env,
        OTEL_BSP_MAX_QUEUE_SIZE: '8192',
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '1024',
        OTEL_BSP_SCHEDULE_DELAY: '250',
        OTEL_BSP_EXPORT_TIMEOUT: '15000',
      },
      'x',
    ),
  );
  assert.deepEqual(
    [tuned.maxQueueSize, tuned.maxExportBatchSize, tuned.scheduledDelayMs, tuned.exportTimeoutMs],
    [8192, 1024, 250, 15000],
  );
  const clamped = on(
    resolveTracing(
      defaults(),
      { ...env, OTEL_BSP_MAX_QUEUE_SIZE: '64', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '512' },
      'x',
    ),
  );
  assert.equal(clamped.maxExportBatchSize, 64, 'a batch is never larger than the queue');
  for (const [variable, bad] of [
    ['OTEL_BSP_MAX_QUEUE_SIZE', '0'],
    ['OTEL_BSP_MAX_QUEUE_SIZE', 'lots'],
    ['OTEL_BSP_MAX_EXPORT_BATCH_SIZE', '-5'],
    ['OTEL_BSP_SCHEDULE_DELAY', '1.5'],
    ['OTEL_BSP_EXPORT_TIMEOUT', '999999999'],
  ] as const)
    assert.throws(
      () => resolveTracing(defaults(), { ...env, [variable]: bad }, 'x'),
      (e: unknown) => e instanceof ConfigError && e.message.startsWith(`${variable}:`),
    );
});

test('the endpoint as logged has no user info and no query', () => {
  assert.equal(
    displayEndpoint('https://user:pass@otlp.example:4318/v1/traces?token=abc'),
    'https://otlp.example:4318/v1/traces',
  );
});

test('the configuration file: telemetry.tracing is validated (unknown keys and bad values named)', () => {
  assert.throws(
    () => loadConfig({ env: {}, overrides: { telemetry: { tracing: { sampler: 'sometimes' } } } }),
    /telemetry\.tracing\.sampler/,
  );
  assert.throws(
    () => loadConfig({ env: {}, overrides: { telemetry: { tracing: { exporter: 'zipkin' } } } }),
    /telemetry\.tracing\.exporter: unknown key/,
  );
});
