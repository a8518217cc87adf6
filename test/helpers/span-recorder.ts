// A real OpenTelemetry SDK for tests: a NodeTracerProvider with a SimpleSpanProcessor into an
// InMemorySpanExporter and the W3C trace-context propagator, registered as the process-wide globals.
// `stop()` shuts it down and disables the API globals again (each test file runs in its own process).
import { context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

export interface SpanRecorder {
  /** Spans ended so far, in the order they ended. */
  spans(): ReadableSpan[];
  reset(): void;
  stop(): Promise<void>;
}

export function recordSpans(): SpanRecorder {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  return {
    spans: () => exporter.getFinishedSpans(),
    reset: () => exporter.reset(),
    async stop() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** The parent span id of a finished span ('' for a root span). */
export function parentIdOf(span: ReadableSpan): string {
  return span.parentSpanContext?.spanId ?? '';
}

/**
 * Every span name and attribute value, as strings (for "no secret appears anywhere" checks). The
 * database namespace is left out: it is the test's own schema name, whose digits (a process id) could
 * match a number a test looks for; tests assert its value separately.
 */
export function attributeStrings(spans: readonly ReadableSpan[]): string[] {
  const out: string[] = [];
  for (const span of spans) {
    out.push(span.name);
    for (const [key, value] of Object.entries(span.attributes))
      if (key !== 'db.namespace') out.push(String(value));
  }
  return out;
}
