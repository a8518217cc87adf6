// Issue 26, "Execution engine": each transition with its ISO 20022 code in the history (ACSP, ACSC,
// RJCT with AM04 / AC04), funds checked at each execution in the account's currency (go-live item 1),
// the double-entry ledger behind the demo accounts (a payment to another demo account credits it), and
// RETURNED from the operator route giving the payer the money back.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { demoIbanFor } from '../../../src/payments/domain/demo-account.js';
import { closeLedgerAccount, trialBalance } from '../../../src/payments/storage/ledger-repo.js';
import { forEachStore, OPERATOR_TOKEN, send } from '../harness.js';
import { openEngineHarness, statusTrail, transfer, type EngineHarness } from './helpers.js';

forEachStore('execution engine', (kind) => {
  let e: EngineHarness;
  before(async () => {
    // Tuesday 1 December 2026, 09:00 UTC (10:00 in Frankfurt).
    e = await openEngineHarness(kind, '2026-12-01T09:00:00Z', {
      fees: { rates: { pairs: { 'EUR/USD': { mid: 1.16 } }, marginBasisPoints: 0 } },
    });
  });
  after(() => e.close());

  test('a book transfer executes at the bank cut-off: PENDING (ACSP) then COMPLETED (ACSC); the payee is credited', async () => {
    e.setClock('2026-12-01T09:00:00Z');
    await e.balance('bob'); // bob's demo account exists: a payment to its IBAN credits it
    const body = transfer('alice', 'bob', 100);
    // A link to a standing order is the service's to set: a client's value is dropped.
    body['paymentInstructionReference'] = { standingOrderIdentification: 'PO-20260101-FORGED' };
    const id = await e.create('alice', body);
    const created = (await e.payment('alice', id))['paymentInstructionReference'];
    assert.equal((created as Record<string, unknown>)['standingOrderIdentification'], undefined);
    assert.equal((await e.balance('alice')).available, 4900); // held until executed
    assert.deepEqual((await e.run('2026-12-01T18:59:59Z')).steps, []);
    const report = await e.run('2026-12-01T19:00:00Z'); // 20:00 in Frankfurt
    assert.deepEqual(
      report.steps.map((s) => [s.paymentId, s.action, s.from, s.to, s.isoStatus, s.at]),
      [
        [id, 'EXECUTE', 'INITIATED', 'PENDING', 'ACSP', '2026-12-01T19:00:00.000Z'],
        [id, 'SETTLE', 'PENDING', 'COMPLETED', 'ACSC', '2026-12-01T19:00:00.000Z'],
      ],
    );
    const ref = (await e.payment('alice', id))['paymentInstructionReference'] as Record<
      string,
      unknown
    >;
    assert.equal(ref['status'], 'COMPLETED');
    const history = await e.history('alice', id);
    assert.deepEqual(statusTrail(history), ['INITIATED>PENDING:ACSP', 'PENDING>COMPLETED:ACSC']);
    assert.ok(
      history.filter((h) => h['kind'] === 'STATUS_CHANGED').every((h) => h['actor'] === 'engine'),
    );
    assert.deepEqual(await e.balance('alice'), { booked: 4900, available: 4900 });
    assert.deepEqual(await e.balance('bob'), { booked: 5100, available: 5100 });
    const alice = await e.transactions('alice');
    assert.deepEqual(
      alice.map((t) => [
        t['id'],
        t['creditDebitIndicator'],
        t['status'],
        t['amount'],
        t['bookingDate'],
      ]),
      [
        [id, 'DEBIT', 'BOOKED', 100, '2026-12-01'],
        ['opening-balance', 'CREDIT', 'BOOKED', 5000, '2026-12-01'],
      ],
    );
    const bob = await e.transactions('bob');
    assert.deepEqual(
      [bob[0]?.['id'], bob[0]?.['creditDebitIndicator'], bob[0]?.['amount']],
      [id, 'CREDIT', 100],
    );
    assert.equal(bob[0]?.['counterpartyName'], 'alice');
    // Nothing more is due: running again does nothing (exactly once).
    assert.deepEqual((await e.run('2026-12-01T19:00:00Z')).steps, []);
  });

  test('a SEPA payment to another bank is debited at 14:00 Frankfurt and settles D+1', async () => {
    e.setClock('2026-12-01T09:00:00Z');
    const id = await e.create(
      'carol',
      transfer('carol', 'dora', 250, {
        payeeIban: 'DE02120300000000202051',
        instruction: { clearingChannel: 'MPNS' },
      }),
    );
    const first = await e.run('2026-12-01T13:00:00Z');
    assert.deepEqual(
      first.steps.map((s) => `${s.paymentId}:${s.to}`),
      [`${id}:PENDING`],
    );
    assert.deepEqual(await e.balance('carol'), { booked: 4750, available: 4750 });
    assert.deepEqual((await e.run('2026-12-01T22:59:59Z')).steps, []);
    const second = await e.run('2026-12-01T23:00:00Z'); // 2 December, 00:00 in Frankfurt
    assert.deepEqual(
      second.steps.map((s) => `${s.paymentId}:${s.to}:${s.isoStatus}`),
      [`${id}:COMPLETED:ACSC`],
    );
  });

  test('funds are checked again at each execution, in the account’s currency (USD order from a EUR account): AM04', async () => {
    e.setClock('2026-12-01T09:00:00Z');
    // USD 2,900.00 = EUR 2,500.00 at 1.16: three weekly instances from EUR 5,000.00.
    const order = await e.create(
      'erin',
      transfer('erin', 'frank', 2900, {
        currency: 'USD',
        payeeIban: 'DE02120300000000202051',
        instruction: {
          clearingChannel: 'MPNS',
          schedule: { startDate: '2026-12-02T08:00:00Z', frequency: 'WEEKLY', noOfRepetition: 3 },
        },
      }),
    );
    const report = await e.run('2026-12-17T00:00:00Z');
    const instances = report.steps
      .filter((s) => s.action === 'INSTANCE')
      .map((s) => s.instanceId ?? '');
    assert.equal(instances.length, 3);
    const [one = '', two = '', three = ''] = instances;
    const executed = (id: string) =>
      report.steps.find((s) => s.paymentId === id && s.action === 'EXECUTE');
    // The second instance takes exactly what is left (EUR 2,500.00): compared unconverted it would not fit.
    assert.equal(executed(one)?.to, 'PENDING');
    assert.equal(executed(two)?.to, 'PENDING');
    assert.deepEqual(
      [executed(three)?.to, executed(three)?.isoStatus, executed(three)?.isoReason],
      ['FAILED', 'RJCT', 'AM04'],
    );
    assert.match(
      executed(three)?.description ?? '',
      /EUR 2500\.00 exceeds the available EUR 0\.00/,
    );
    const failed = await e.payment('erin', three);
    assert.equal(
      (failed['paymentInstructionReference'] as Record<string, unknown>)['reason'],
      'AM04',
    );
    assert.deepEqual(statusTrail(await e.history('erin', three)), ['INITIATED>FAILED:RJCT:AM04']);
    assert.deepEqual(await e.balance('erin'), { booked: 0, available: 0 });
    const parent = (await e.payment('erin', order))['paymentInstructionReference'] as Record<
      string,
      unknown
    >;
    assert.deepEqual([parent['status'], parent['remainingInstances']], ['COMPLETED', 0]);
  });

  test('a payment in another currency holds its converted cost only until the engine debits it (go-live item 1: never counted twice)', async () => {
    e.setClock('2026-12-01T09:00:00Z');
    // USD 2,900.00 = EUR 2,500.00 at 1.16, from hana's EUR 5,000.00, to another bank.
    const payment = () =>
      transfer('hana', 'ivan', 2900, { currency: 'USD', payeeIban: 'DE02120300000000202051' });
    const first = await e.create('hana', payment());
    const report = await e.run('2026-12-01T21:45:00Z'); // the USD rail's cut-off (16:45 New York)
    assert.deepEqual(
      report.steps.filter((s) => s.paymentId === first).map((s) => s.to),
      ['PENDING'],
    );
    // Debited by the ledger (PENDING until it settles): EUR 2,500.00 left, held nowhere else, so a
    // second identical payment fits exactly; a third does not.
    assert.deepEqual(await e.balance('hana'), { booked: 2500, available: 2500 });
    await e.create('hana', payment(), { 'confirm-duplicate': 'true' });
    const third = await send(e.h, 'hana', 'POST', 'payments', payment(), {
      'confirm-duplicate': 'true',
    });
    assert.equal(third.statusCode, 422, third.body);
    assert.match(third.body, /INSUFFICIENT_FUNDS/);
  });

  test('a closed account rejects with AC04 (payee at this bank, or payer); nothing is debited', async () => {
    e.setClock('2026-12-02T09:00:00Z');
    await e.balance('gina');
    await e.h.db.transaction((tx) =>
      closeLedgerAccount(tx, demoIbanFor('gina'), '2026-12-02T09:00:00Z'),
    );
    const toClosed = await e.create('hank', transfer('hank', 'gina', 10));
    const report = await e.run('2026-12-02T19:00:00Z');
    const step = report.steps.find((s) => s.paymentId === toClosed);
    assert.deepEqual([step?.to, step?.isoStatus, step?.isoReason], ['FAILED', 'RJCT', 'AC04']);
    assert.deepEqual(await e.balance('hank'), { booked: 5000, available: 5000 });
    assert.deepEqual(statusTrail(await e.history('hank', toClosed)), [
      'INITIATED>FAILED:RJCT:AC04',
    ]);
  });

  test('RETURNED from the operator route gives the payer the money back; a debited payment that fails is reversed', async () => {
    e.setClock('2026-12-03T09:00:00Z');
    const returned = await e.create('ivan', transfer('ivan', 'bob', 40));
    await e.run('2026-12-03T19:00:00Z');
    const bobBefore = await e.balance('bob');
    const res = await send(
      e.h,
      undefined,
      'POST',
      `/internal/payments/${returned}/status`,
      { status: 'RETURNED', reason: 'AC06', description: 'returned by the receiving side' },
      { authorization: `Bearer ${OPERATOR_TOKEN}` },
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await e.balance('ivan'), { booked: 5000, available: 5000 });
    assert.equal((await e.balance('bob')).booked, bobBefore.booked - 40);
    const ids = (await e.transactions('ivan')).map((t) => [t['id'], t['creditDebitIndicator']]);
    assert.deepEqual(ids.slice(0, 2), [
      [`${returned}:RETURN`, 'CREDIT'],
      [returned, 'DEBIT'],
    ]);
    // SEPA payment debited (PENDING), then rejected by the clearing side before settlement.
    const rejected = await e.create(
      'ivan',
      transfer('ivan', 'x', 70, {
        payeeIban: 'DE02120300000000202051',
        instruction: { clearingChannel: 'MPNS' },
      }),
    );
    e.setClock('2026-12-04T09:00:00Z');
    await e.run('2026-12-04T13:00:00Z');
    assert.equal((await e.balance('ivan')).booked, 4930);
    const failed = await send(
      e.h,
      undefined,
      'POST',
      `/internal/payments/${rejected}/status`,
      { status: 'FAILED', reason: 'AC01' },
      { authorization: `Bearer ${OPERATOR_TOKEN}` },
    );
    assert.equal(failed.statusCode, 200, failed.body);
    assert.equal((await e.balance('ivan')).booked, 5000);
    assert.deepEqual(statusTrail(await e.history('ivan', rejected)), [
      'INITIATED>PENDING:ACSP',
      'PENDING>FAILED:RJCT',
    ]);
  });

  test('a debited payment suspended by the clearing side and then cancelled by its owner is reversed', async () => {
    e.setClock('2026-12-07T09:00:00Z');
    const id = await e.create(
      'jane',
      transfer('jane', 'x', 300, {
        payeeIban: 'DE02120300000000202051',
        instruction: { clearingChannel: 'MPNS' },
      }),
    );
    await e.run('2026-12-07T13:00:00Z');
    assert.equal((await e.balance('jane')).booked, 4700);
    const suspended = await send(
      e.h,
      undefined,
      'POST',
      `/internal/payments/${id}/status`,
      { status: 'SUSPENDED' },
      { authorization: `Bearer ${OPERATOR_TOKEN}` },
    );
    assert.equal(suspended.statusCode, 200, suspended.body);
    const cancelled = await send(e.h, 'jane', 'POST', `payments/${id}/cancel`, {
      identification: id,
      cancellationType: 'SINGLE_PAYMENT_INSTANCE',
    });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.deepEqual(await e.balance('jane'), { booked: 5000, available: 5000 });
    // Nothing left to do for the engine: a cancelled payment never executes.
    assert.deepEqual(
      (await e.run('2026-12-09T00:00:00Z')).steps.filter((s) => s.paymentId === id),
      [],
    );
  });

  test('a debited payment suspended by the clearing side cannot be changed by its owner (its debit is in clearing)', async () => {
    // Else a raised amount or another payee would settle what was never debited (the settlement
    // follows the debit journal and the record's payee).
    e.setClock('2026-12-07T09:00:00Z');
    const body = transfer('kim', 'x', 300, {
      payeeIban: 'DE02120300000000202051',
      instruction: { clearingChannel: 'MPNS' },
    });
    const id = await e.create('kim', body);
    await e.run('2026-12-07T13:00:00Z');
    assert.equal((await e.balance('kim')).booked, 4700);
    const suspended = await send(
      e.h,
      undefined,
      'POST',
      `/internal/payments/${id}/status`,
      { status: 'SUSPENDED' },
      { authorization: `Bearer ${OPERATOR_TOKEN}` },
    );
    assert.equal(suspended.statusCode, 200, suspended.body);
    const raised = structuredClone(body);
    (
      raised['paymentInstruction'] as { amount: { instructedAmount: number } }
    ).amount.instructedAmount = 4000;
    const put = await send(e.h, 'kim', 'PUT', `payments/${id}`, raised);
    assert.equal(put.statusCode, 409, put.body);
    assert.equal(JSON.parse(put.body).code, 'INVALID_STATE');
    const amount = ((await e.payment('kim', id))['paymentInstruction'] as Record<string, unknown>)[
      'amount'
    ] as Record<string, unknown>;
    assert.equal(amount['instructedAmount'], 300);
  });

  test('a debited payment suspended by the clearing side resumes to PENDING, never to INITIATED (no second hold or debit)', async () => {
    e.setClock('2026-12-07T09:00:00Z');
    const id = await e.create(
      'lena',
      transfer('lena', 'x', 300, {
        payeeIban: 'DE02120300000000202051',
        instruction: { clearingChannel: 'MPNS' },
      }),
    );
    await e.run('2026-12-07T13:00:00Z');
    const operator = (status: string) =>
      send(
        e.h,
        undefined,
        'POST',
        `/internal/payments/${id}/status`,
        { status },
        { authorization: `Bearer ${OPERATOR_TOKEN}` },
      );
    assert.equal((await operator('SUSPENDED')).statusCode, 200);
    const back = await operator('INITIATED');
    assert.equal(back.statusCode, 409, back.body);
    assert.equal(JSON.parse(back.body).code, 'INVALID_STATE');
    assert.deepEqual(await e.balance('lena'), { booked: 4700, available: 4700 });
    assert.equal((await operator('PENDING')).statusCode, 200);
    assert.deepEqual(await e.balance('lena'), { booked: 4700, available: 4700 });
  });

  test("the operator moving a payment in another currency to PENDING debits its converted cost (the service's rates)", async () => {
    e.setClock('2026-12-07T09:00:00Z');
    // USD 1,160.00 = EUR 1,000.00 at 1.16 from mona's EUR 5,000.00 account.
    const id = await e.create(
      'mona',
      transfer('mona', 'x', 1160, { currency: 'USD', payeeIban: 'DE02120300000000202051' }),
    );
    const moved = await send(
      e.h,
      undefined,
      'POST',
      `/internal/payments/${id}/status`,
      { status: 'PENDING' },
      { authorization: `Bearer ${OPERATOR_TOKEN}` },
    );
    assert.equal(moved.statusCode, 200, moved.body);
    assert.deepEqual(await e.balance('mona'), { booked: 4000, available: 4000 });
  });

  test('the ledger is balanced: every currency’s entries sum to zero', async () => {
    const { sums, entries } = await trialBalance(e.h.db);
    assert.ok(entries > 0);
    for (const [currency, sum] of Object.entries(sums)) assert.equal(sum, 0n, currency);
  });

  test('ledger entries are append-only: an UPDATE or DELETE is refused by the database', async () => {
    await assert.rejects(e.h.db.execute('UPDATE ledger_entries SET amount_minor = 0'));
    await assert.rejects(e.h.db.execute('DELETE FROM ledger_journals'));
  });
});
