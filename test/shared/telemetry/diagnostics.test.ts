// The SDK's own problems (a failed export when the collector is down) reach the log, at most one line a
// minute with the number left out since (docs/operations.md, "Traces"), never the debug chatter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { throttledDiagnostics } from '../../../src/shared/telemetry/tracing.js';

test('SDK diagnostics: warnings and errors logged once per interval with the count suppressed; info and debug dropped', () => {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  let clock = 1_000_000;
  const diagnostics = throttledDiagnostics(pino({ level: 'info' }, stream), 60_000, () => clock);
  diagnostics.error('Export failed: connect ECONNREFUSED 127.0.0.1:4318');
  diagnostics.error('Export failed: connect ECONNREFUSED 127.0.0.1:4318');
  diagnostics.warn('Dropped 12 spans because maxQueueSize reached');
  diagnostics.info('informational');
  diagnostics.debug('debug');
  clock += 60_000;
  diagnostics.error('Export failed: 503');
  assert.deepEqual(
    lines.map((l) => [l.level, l.detail, l.suppressed]),
    [
      [40, 'Export failed: connect ECONNREFUSED 127.0.0.1:4318', 0],
      [40, 'Export failed: 503', 2],
    ],
  );
});
