// docs/operations.md, "Shutdown": a service drains on SIGTERM. The serve commands install their SIGTERM and
// SIGINT handlers before the startup summary is written: whoever reads the summary (a supervisor, a test, a
// deploy script) may signal at once, and a signal that arrives before a handler exists kills the process
// without a drain (the failure test of the reference deployment saw it under load).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';

type Signal = 'SIGTERM' | 'SIGINT';

test('the SIGTERM handler is in place when the startup summary is written, and SIGTERM then stops with code 0', async () => {
  const listeners = new Map<Signal, () => void>();
  const signals = {
    once(signal: Signal, listener: () => void): void {
      listeners.set(signal, listener);
    },
  };
  let handledAtSummary: boolean | undefined;
  const stderr = {
    isTTY: false,
    text: '',
    write(chunk: string): boolean {
      this.text += chunk;
      if (
        handledAtSummary === undefined &&
        chunk.startsWith('{') &&
        chunk.includes('paymentsUrl')
      ) {
        handledAtSummary = listeners.has('SIGTERM') && listeners.has('SIGINT');
        // The reader signals at once, as a supervisor may.
        setImmediate(() => listeners.get('SIGTERM')?.());
      }
      return true;
    },
  };
  const stdout = { isTTY: false, write: (): boolean => true };
  const code = await main(
    ['payments', '--json'],
    {
      TOOLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'toolgate-serve-signals-')),
      TOOLGATE_PAYMENTS_PORT: '0',
      TOOLGATE_LOG_LEVEL: 'silent',
    },
    { stdout, stderr, signals },
  );
  assert.equal(handledAtSummary, true, stderr.text);
  assert.equal(code, 0, stderr.text);
});
