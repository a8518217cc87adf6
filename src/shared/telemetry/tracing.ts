// The process's tracer provider, set up once at startup from the resolved settings (config/telemetry.ts):
// OTLP/HTTP exporter (protobuf or JSON), a bounded BatchSpanProcessor, the configured sampler, W3C
// trace-context propagation and the AsyncLocalStorage context manager (NodeTracerProvider's default).
// Off: nothing is registered, and the API's no-op tracer answers every call (docs/operations.md, "Traces").
import { DiagLogLevel, ROOT_CONTEXT, context, diag, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { displayEndpoint, type TracingSettings } from '../../config/telemetry.js';
import type { Logger } from '../log/logger.js';
import { samplerFor } from './sampler.js';

export interface Tracing {
  readonly enabled: boolean;
  /** Exports what is queued, then stops the provider; safe to call more than once. */
  shutdown(): Promise<void>;
}

let active = false;

/** Whether this process set up tracing (spans are made and traceparent comes from them). */
export function tracingEnabled(): boolean {
  return active;
}

export function startTracing(
  settings: TracingSettings,
  logger: Logger,
  extra: { readonly serviceVersion: string; readonly environment: string },
): Tracing {
  if (!settings.enabled) {
    logger.info({ tracing: 'off', reason: settings.reason }, 'tracing off');
    return { enabled: false, shutdown: async () => undefined };
  }
  const exporterOptions = {
    url: settings.url,
    headers: { ...settings.headers },
    timeoutMillis: settings.timeoutMs,
  };
  const exporter =
    settings.protocol === 'http/json'
      ? new JsonExporter(exporterOptions)
      : new ProtobufExporter(exporterOptions);
  const resource = defaultResource().merge(
    resourceFromAttributes({
      ...settings.resourceAttributes,
      [ATTR_SERVICE_NAME]: settings.serviceName,
      [ATTR_SERVICE_VERSION]: extra.serviceVersion,
      'deployment.environment.name':
        settings.resourceAttributes['deployment.environment.name'] ?? extra.environment,
    }),
  );
  const provider = new NodeTracerProvider({
    resource,
    sampler: samplerFor(settings.sampler, settings.samplerArg),
    spanProcessors: [
      new BatchSpanProcessor(exporter, {
        maxQueueSize: settings.maxQueueSize,
        maxExportBatchSize: settings.maxExportBatchSize,
        scheduledDelayMillis: settings.scheduledDelayMs,
        exportTimeoutMillis: settings.exportTimeoutMs,
      }),
    ],
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  diag.setLogger(throttledDiagnostics(logger, DIAGNOSTIC_INTERVAL_MS), DiagLogLevel.WARN);
  active = true;
  logger.info(
    {
      tracing: 'on',
      endpoint: displayEndpoint(settings.url),
      protocol: settings.protocol,
      sampler: settings.sampler,
      samplerArg: settings.samplerArg,
      serviceName: settings.serviceName,
      maxQueueSize: settings.maxQueueSize,
      maxExportBatchSize: settings.maxExportBatchSize,
      scheduledDelayMs: settings.scheduledDelayMs,
    },
    'tracing on',
  );
  let stopping: Promise<void> | undefined;
  return {
    enabled: true,
    shutdown() {
      stopping ??= (async () => {
        try {
          await provider.forceFlush();
          await provider.shutdown();
        } catch (error) {
          logger.warn({ err: error }, 'tracing: the last spans could not be exported');
        } finally {
          active = false;
          trace.disable();
          propagation.disable();
          context.disable();
          diag.disable();
        }
      })();
      return stopping;
    },
  };
}

/** At most one SDK diagnostic line (a failed export: collector down, refused) per interval. */
const DIAGNOSTIC_INTERVAL_MS = 60_000;

/**
 * The SDK's warnings and errors (export failures, dropped spans) as log lines, one per `intervalMs` at
 * most — a collector that is down fails every export — with the number left out since the last line.
 */
export function throttledDiagnostics(
  logger: Logger,
  intervalMs: number,
  now: () => number = Date.now,
): Parameters<typeof diag.setLogger>[0] {
  let last = -Infinity;
  let suppressed = 0;
  const report = (message: string) => {
    const at = now();
    if (at - last < intervalMs) {
      suppressed++;
      return;
    }
    last = at;
    const fields = { detail: message.slice(0, 300), suppressed };
    suppressed = 0;
    // Outside any span: an export runs in whatever context its timer was made in, not a request's.
    context.with(ROOT_CONTEXT, () =>
      logger.warn(fields, 'tracing: the OpenTelemetry SDK reported a problem (spans may be lost)'),
    );
  };
  const ignore = () => undefined;
  return { error: report, warn: report, info: ignore, debug: ignore, verbose: ignore };
}
