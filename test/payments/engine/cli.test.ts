// Issue 26: "`toolgate payments engine run --until <ISO timestamp>` runs every transition due up to that
// moment against the service's store and prints what it did (`--json`)". The real binary, a real store.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/process.js';
import { openSharedStore, type SharedStore } from './seed.js';

let store: SharedStore;
before(async () => {
  store = await openSharedStore('sqlite', { payments: 3, engine: { enabled: false } });
});
after(() => store.close());

const run = (...args: string[]) =>
  runCli(['payments', 'engine', 'run', ...args, '--config', store.configFile], {}, 60_000);

test('--until is required and must be an ISO 8601 timestamp with a zone; --help explains', async () => {
  const missing = await run();
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /missing --until <ISO timestamp>/);
  for (const bad of ['tomorrow', '2026-01-05', '2026-01-05T19:00:00', '2026-13-45T99:00:00Z']) {
    const refused = await run('--until', bad);
    assert.equal(refused.code, 2, bad);
    assert.match(refused.stderr, /--until must be an ISO 8601 timestamp with a zone/, bad);
  }
  const help = await runCli(['payments', 'engine', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: toolgate payments engine run --until <ISO timestamp>/);
});

test('before the cut-off nothing is due; at it, --json reports each transition with its ISO code', async () => {
  const early = await run('--until', '2026-01-05T18:59:59Z');
  assert.equal(early.code, 0, early.stderr);
  assert.match(early.stdout, /^0 transitions up to 2026-01-05T18:59:59\.000Z\.$/m);

  const due = await run('--until', '2026-01-05T20:00:00+01:00', '--json');
  assert.equal(due.code, 0, due.stderr);
  const report = JSON.parse(due.stdout) as {
    until: string;
    steps: { paymentId: string; action: string; from: string; to: string; isoStatus: string }[];
    failures: unknown[];
    store: { kind: string };
  };
  assert.equal(report.until, '2026-01-05T19:00:00.000Z');
  assert.equal(report.store.kind, 'sqlite');
  assert.deepEqual(report.failures, []);
  assert.deepEqual(
    report.steps.map((s) => [s.paymentId, s.action, s.from, s.to, s.isoStatus]),
    // Due at the same instant: in payment id order.
    [...store.payments].sort().flatMap((id) => [
      [id, 'EXECUTE', 'INITIATED', 'PENDING', 'ACSP'],
      [id, 'SETTLE', 'PENDING', 'COMPLETED', 'ACSC'],
    ]),
  );
  // The same moment again: everything due was done, exactly once.
  const again = await run('--until', '2026-01-05T19:00:00Z', '--json');
  assert.deepEqual((JSON.parse(again.stdout) as { steps: unknown[] }).steps, []);
});

test('text output: a standing order’s instances and their executions, one line each', async () => {
  // Daily from Tuesday 6 January; Saturday's instance runs on Monday the 12th (bank calendar).
  const week = await run('--until', '2026-01-12T19:00:00Z');
  assert.equal(week.code, 0, week.stderr);
  const lines = week.stdout.trim().split('\n');
  assert.equal(lines.filter((l) => / INSTANCE +instance \d produced: PO-/.test(l)).length, 5);
  assert.equal(lines.filter((l) => /INITIATED -> PENDING \(ACSP\)/.test(l)).length, 5);
  assert.equal(lines.filter((l) => /PENDING -> COMPLETED \(ACSC\)/.test(l)).length, 5);
  assert.ok(lines.some((l) => l.includes(`${store.standingOrder}  FINISH`)));
  assert.match(lines.at(-1) ?? '', /^16 transitions up to 2026-01-12T19:00:00\.000Z\.$/);
});
