// With no tracer provider registered (tracing off), the HTTP tracing hooks are no-ops: requests answer as
// before and the active span in a handler is a non-recording one (src/shared/http/tracing.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { trace } from '@opentelemetry/api';
import { createHttpApp } from '../../../src/shared/http/create-app.js';
import { serverSpanOf } from '../../../src/shared/http/tracing.js';
import { createLogger } from '../../../src/shared/log/logger.js';
import { LogCapture } from '../../helpers/capture.js';

test('with no provider registered, requests work and spans do not record', async () => {
  const { logger } = createLogger({ level: 'info', destination: new LogCapture() });
  const app = createHttpApp({
    logger,
    bodyLimitBytes: 4096,
    requestTimeoutMs: 5000,
    keepAliveTimeoutMs: 5000,
  });
  let recording: boolean | undefined;
  let traceId: string | undefined;
  app.post('/x/:id', async (req) => {
    recording = serverSpanOf(req)?.isRecording();
    traceId = trace.getActiveSpan()?.spanContext().traceId;
    return { ok: true };
  });
  const response = await app.inject({
    method: 'POST',
    url: '/x/1',
    headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
    payload: {},
  });
  await app.close();
  assert.equal(response.statusCode, 200);
  assert.equal(recording, false);
  // No propagator registered either: the incoming trace is not even parsed.
  assert.notEqual(traceId, '4bf92f3577b34da6a3ce929d0e0e4736');
});
