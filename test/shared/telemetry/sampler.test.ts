// OTEL_TRACES_SAMPLER values (OpenTelemetry SDK environment variables, "General SDK Configuration") as
// the SDK's samplers decide them: parent-based samplers follow a remote parent's sampled flag; the ratio
// samplers keep a fraction of root traces (0 keeps none, 1 keeps all). And the service name per command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT_CONTEXT, SpanKind, TraceFlags, trace, type Context } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace-base';
import { samplerFor } from '../../../src/shared/telemetry/sampler.js';
import { tracingServiceName } from '../../../src/cli/commands/serve.js';

const TRACE_IDS = Array.from({ length: 200 }, (_, i) => i.toString(16).padStart(32, '7'));

function withParent(sampled: boolean): Context {
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
  });
}

function sampledCount(
  name: Parameters<typeof samplerFor>[0],
  ratio: number,
  parent = ROOT_CONTEXT,
) {
  const sampler = samplerFor(name, ratio);
  return TRACE_IDS.filter(
    (id) =>
      sampler.shouldSample(parent, id, 'span', SpanKind.SERVER, {}, []).decision ===
      SamplingDecision.RECORD_AND_SAMPLED,
  ).length;
}

test('ratio samplers: 0 keeps no root trace, 1 keeps every one', () => {
  assert.equal(sampledCount('traceidratio', 0), 0);
  assert.equal(sampledCount('parentbased_traceidratio', 0), 0);
  assert.equal(sampledCount('traceidratio', 1), TRACE_IDS.length);
  assert.equal(sampledCount('always_off', 1), 0);
  assert.equal(sampledCount('always_on', 0), TRACE_IDS.length);
});

test('parent-based samplers follow the remote parent; plain traceidratio ignores it', () => {
  assert.equal(sampledCount('parentbased_traceidratio', 0, withParent(true)), TRACE_IDS.length);
  assert.equal(sampledCount('parentbased_always_on', 1, withParent(false)), 0);
  assert.equal(sampledCount('parentbased_always_off', 1, withParent(true)), TRACE_IDS.length);
  assert.equal(sampledCount('traceidratio', 0, withParent(true)), 0);
});

test('service.name per command: toolgate-gateway, toolgate-payments; `toolgate start` (both in one process) toolgate', () => {
  assert.equal(tracingServiceName(['gateway']), 'toolgate-gateway');
  assert.equal(tracingServiceName(['payments']), 'toolgate-payments');
  assert.equal(tracingServiceName(['payments', 'gateway', 'admin']), 'toolgate');
  assert.equal(tracingServiceName(['admin']), 'toolgate-admin');
});
