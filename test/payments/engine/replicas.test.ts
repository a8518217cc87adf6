// Issue 26, "Exactly once across replicas: two payment-service processes on PostgreSQL never execute
// the same instance twice". Two real `toolgate payments` processes, each running its engine on one
// PostgreSQL schema (row claims: FOR UPDATE SKIP LOCKED), plus a manual `toolgate payments engine run`
// beside them; afterwards every payment and standing-order instance was executed exactly once. The same
// on one SQLite file (one writer at a time).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { skipWithoutPostgres } from '../../helpers/infra.js';
import { finished, spawnCli } from '../../helpers/process.js';
import { assertExecutedExactlyOnce, completedCount, openSharedStore } from './seed.js';

/** Waits (up to a generous deadline) until the observed count reaches `expected`. */
async function waitFor(read: () => Promise<number>, expected: number, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  let seen = await read();
  while (seen < expected) {
    if (Date.now() > deadline) assert.fail(`${what}: ${seen} of ${expected} after the deadline`);
    await sleep(50);
    seen = await read();
  }
}

function startService(configFile: string) {
  const child = spawnCli(['payments', '--config', configFile, '--json']);
  return child;
}

for (const kind of ['postgres', 'sqlite'] as const) {
  test(
    `two payment-service processes execute every payment and instance exactly once (${kind})`,
    { skip: kind === 'postgres' ? skipWithoutPostgres : false },
    async (t) => {
      const store = await openSharedStore(kind, {
        payments: 120,
        engine: { enabled: true, pollIntervalMs: 50, batchSize: 15 },
        logLevel: 'info', // each transition is logged: who did what is reported below
      });
      const services = [startService(store.configFile), startService(store.configFile)];
      try {
        // A hand-driven run at the same time as the two engines.
        const manual = spawnCli([
          'payments',
          'engine',
          'run',
          '--until',
          new Date().toISOString(),
          '--config',
          store.configFile,
          '--json',
        ]);
        const total = store.payments.length + store.instances;
        await waitFor(() => completedCount(store.db), total + 1, 'payments completed');
        const ran = await finished(manual, 120_000);
        assert.equal(ran.code, 0, ran.stderr);
        const report = JSON.parse(ran.stdout) as { steps: unknown[]; failures: unknown[] };
        assert.deepEqual(report.failures, []);
        t.diagnostic(`manual run: ${report.steps.length} transitions`);
      } finally {
        for (const child of services) {
          const done = finished(child, 30_000);
          child.kill('SIGTERM');
          const result = await done;
          // Logs (JSON lines on stdout): no transition failed, no run failed.
          const logs = `${result.stdout}${result.stderr}`;
          assert.equal(/transition failed|engine run failed/.test(logs), false, logs);
          const moved = logs.split('\n').filter((l) => l.includes('"payment transition"')).length;
          t.diagnostic(`replica ${child.pid ?? '?'}: ${moved} transitions`);
        }
      }
      await assertExecutedExactlyOnce(store);
      await store.close();
    },
  );
}
