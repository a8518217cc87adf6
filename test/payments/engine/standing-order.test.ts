// Issue 26, "Execution engine": "Standing orders and recurring schedules produce their instances;
// remainingInstances and nextExecutionDate follow" and "a clock the tests control, so a test walks a
// standing order through a month in milliseconds".
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { instancesOf } from '../../../src/payments/storage/payments-repo.js';
import { forEachStore } from '../harness.js';
import { openEngineHarness, statusTrail, transfer, type EngineHarness } from './helpers.js';

forEachStore('standing orders through a month', (kind) => {
  let e: EngineHarness;
  before(async () => {
    e = await openEngineHarness(kind, '2026-11-30T10:00:00Z');
  });
  after(() => e.close());

  const reference = async (user: string, id: string) =>
    (await e.payment(user, id))['paymentInstructionReference'] as Record<string, unknown>;

  test('a weekly standing order of four instances, walked day by day through December', async () => {
    await e.balance('bob');
    const order = await e.create(
      'alice',
      transfer('alice', 'bob', 50, {
        instruction: {
          schedule: { startDate: '2026-12-03T08:00:00Z', frequency: 'WEEKLY', noOfRepetition: 4 },
        },
      }),
    );
    let ref = await reference('alice', order);
    assert.equal(ref['standingOrderIdentification'], undefined); // only instances carry it
    assert.deepEqual(
      [ref['status'], ref['remainingInstances'], ref['nextExecutionDate']],
      ['SCHEDULED', 4, '2026-12-03T08:00:00.000Z'],
    );
    const seen: string[] = [];
    for (let day = 1; day <= 31; day += 1) {
      const date = `2026-12-${String(day).padStart(2, '0')}`;
      // Mid-morning: the day's instance exists (produced at 08:00) but is not executed before 20:00 Frankfurt.
      const morning = await e.run(`${date}T12:00:00Z`);
      for (const step of morning.steps.filter((s) => s.action === 'INSTANCE'))
        seen.push(`${date}:${step.instance ?? 0}`);
      if (morning.steps.some((s) => s.action === 'INSTANCE')) {
        const last = morning.steps.find((s) => s.action === 'INSTANCE')?.instanceId ?? '';
        assert.equal((await reference('alice', last))['status'], 'INITIATED');
      }
      await e.run(`${date}T23:59:59Z`);
      ref = await reference('alice', order);
      const produced = seen.length;
      assert.equal(ref['remainingInstances'], 4 - produced, date);
      const next = ['2026-12-03', '2026-12-10', '2026-12-17', '2026-12-24'][produced];
      assert.equal(ref['nextExecutionDate'], next ? `${next}T08:00:00.000Z` : undefined, date);
    }
    assert.deepEqual(seen, ['2026-12-03:1', '2026-12-10:2', '2026-12-17:3', '2026-12-24:4']);
    assert.equal(ref['status'], 'COMPLETED');
    const instances = await instancesOf(e.h.db, order);
    assert.deepEqual(
      instances.map((i) => [i.instance, i.status]),
      [
        [0, 'COMPLETED'],
        [1, 'COMPLETED'],
        [2, 'COMPLETED'],
        [3, 'COMPLETED'],
      ],
    );
    const first = await e.payment('alice', instances[0]?.id ?? '');
    const firstRef = first['paymentInstructionReference'] as Record<string, unknown>;
    assert.equal(firstRef['standingOrderIdentification'], order); // linked to the order
    const instruction = first['paymentInstruction'] as Record<string, unknown>;
    assert.equal(instruction['schedule'], undefined);
    assert.deepEqual(instruction['paymentDates'], {
      requestedExecutionDate: '2026-12-03T08:00:00.000Z',
    });
    assert.deepEqual(statusTrail(await e.history('alice', instances[0]?.id ?? '')), [
      'INITIATED>PENDING:ACSP',
      'PENDING>COMPLETED:ACSC',
    ]);
    // The order's own history: one entry per instance produced, then its completion.
    const own = await e.history('alice', order);
    assert.deepEqual(
      own.map((h) => `${String(h['kind'])}:${String(h['reason'])}`),
      [
        'CREATED:null',
        'UPDATED:INSTANCE_PRODUCED',
        'UPDATED:INSTANCE_PRODUCED',
        'UPDATED:INSTANCE_PRODUCED',
        'UPDATED:INSTANCE_PRODUCED',
        'STATUS_CHANGED:SCHEDULE_COMPLETED',
      ],
    );
    assert.deepEqual(await e.balance('alice'), { booked: 4800, available: 4800 });
    assert.equal((await e.balance('bob')).booked, 5200);
  });

  test('a daily schedule over a weekend: Saturday and Sunday instances execute on Monday (bank calendar)', async () => {
    e.setClock('2027-01-06T10:00:00Z');
    const order = await e.create(
      'carl',
      transfer('carl', 'bob', 10, {
        instruction: {
          schedule: {
            startDate: '2027-01-07T07:00:00Z',
            frequency: 'DAILY',
            endDate: '2027-01-11T23:00:00Z',
          },
        },
      }),
    );
    assert.equal((await reference('carl', order))['remainingInstances'], 5);
    await e.run('2027-01-10T23:00:00Z'); // Sunday night
    const weekend = await instancesOf(e.h.db, order);
    assert.deepEqual(
      weekend.map((i) => i.status),
      ['COMPLETED', 'COMPLETED', 'INITIATED', 'INITIATED'],
    );
    const monday = await e.run('2027-01-11T19:00:00Z');
    assert.equal(monday.steps.filter((s) => s.action === 'EXECUTE').length, 3);
    const all = await instancesOf(e.h.db, order);
    assert.deepEqual(
      all.map((i) => i.status),
      ['COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED'],
    );
    assert.equal((await reference('carl', order))['remainingInstances'], 0);
    assert.equal((await e.balance('carl')).booked, 4950);
  });
});
