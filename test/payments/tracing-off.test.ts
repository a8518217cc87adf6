// Tracing off (no tracer provider registered, the default): the payment service's spans are no-ops and
// every path works as before — create, read, a refusal and an engine run (src/payments/tracing.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { trace } from '@opentelemetry/api';
import { json, samplePayment, send } from './harness.js';
import { openEngineHarness, transfer, type EngineHarness } from './engine/helpers.js';

let e: EngineHarness;
before(async () => {
  e = await openEngineHarness('sqlite', '2026-12-01T09:00:00Z');
});
after(() => e.close());

test('with no provider, requests and engine runs work and nothing records', async () => {
  assert.equal(trace.getTracer('toolgate').startSpan('probe').isRecording(), false);
  await e.balance('bob');
  const id = await e.create('alice', transfer('alice', 'bob', 100), {
    traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
  });
  const payment = await e.payment('alice', id);
  assert.equal(
    (payment['paymentInstructionReference'] as Record<string, unknown>)['status'],
    'INITIATED',
  );
  const refused = await send(e.h, undefined, 'POST', 'payments', samplePayment());
  assert.equal(refused.statusCode, 401);
  assert.equal(json(refused)['code'], 'UNAUTHENTICATED');
  const report = await e.run('2026-12-01T19:00:00Z');
  assert.deepEqual(
    report.steps.map((s) => [s.action, s.to]),
    [
      ['EXECUTE', 'PENDING'],
      ['SETTLE', 'COMPLETED'],
    ],
  );
});
