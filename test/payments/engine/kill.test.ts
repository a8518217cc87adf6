// Issue 26: "a kill -9 mid-run loses or repeats nothing". A real `toolgate payments` process runs its
// engine over many due payments and is killed with SIGKILL while it is part-way through; then
// `toolgate payments engine run --until` finishes the work. Every payment was executed exactly once and
// the ledger holds exactly the journals of those executions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { skipWithoutPostgres } from '../../helpers/infra.js';
import { finished, runCli, spawnCli } from '../../helpers/process.js';
import { assertExecutedExactlyOnce, completedCount, openSharedStore } from './seed.js';

for (const kind of ['sqlite', 'postgres'] as const) {
  test(
    `kill -9 in the middle of an engine run, then a rerun: nothing lost, nothing repeated (${kind})`,
    { skip: kind === 'postgres' ? skipWithoutPostgres : false },
    async () => {
      const store = await openSharedStore(kind, {
        payments: 200,
        engine: { enabled: true, pollIntervalMs: 50, batchSize: 500 },
      });
      const total = store.payments.length + store.instances + 1;
      const moved = async () => {
        const rows = await store.db.query<{ n: number | string }>(
          "SELECT COUNT(*) AS n FROM payments WHERE status <> 'INITIATED' AND status <> 'SCHEDULED'",
        );
        return Number(rows[0]?.n ?? 0);
      };
      const service = spawnCli(['payments', '--config', store.configFile, '--json']);
      const deadline = Date.now() + 120_000;
      // Killed as soon as the engine has started moving payments (and long before it is done).
      while ((await moved()) === 0) {
        if (Date.now() > deadline || service.exitCode !== null)
          assert.fail(`the engine never started: ${service.output.stderr}`);
        await sleep(10);
      }
      const exit = finished(service, 30_000);
      service.kill('SIGKILL');
      assert.equal((await exit).signal, 'SIGKILL');
      const before = await completedCount(store.db);
      assert.ok(before < total, `the run was over before the kill (${before} of ${total})`);

      const rerun = await runCli(
        [
          'payments',
          'engine',
          'run',
          '--until',
          new Date().toISOString(),
          '--config',
          store.configFile,
          '--json',
        ],
        {},
        120_000,
      );
      assert.equal(rerun.code, 0, rerun.stderr);
      const report = JSON.parse(rerun.stdout) as { steps: unknown[]; failures: unknown[] };
      assert.deepEqual(report.failures, []);
      assert.ok(report.steps.length > 0);
      assert.equal(await completedCount(store.db), total);
      await assertExecutedExactlyOnce(store);
      await store.close();
    },
  );
}
