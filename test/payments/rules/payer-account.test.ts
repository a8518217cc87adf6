// The payer account: every user's payer account must be one of the accounts the service knows as theirs (a
// new user owns just the demo account opened for them), and an immediate payment beyond the available
// balance is refused with AM04.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { demoIbanFor } from '../../../src/payments/domain/demo-account.js';
import { forEachStore, openHarness, send, json, type Harness } from '../harness.js';
import { NOW, sepaCreditTransfer } from './fixtures.js';

type Json = Record<string, unknown>;
type Entry = { pointer: string; code: string; reason: string; message: string };
const entries = (body: Json) =>
  ((body['errors'] ?? []) as Entry[]).map((e) => [e.pointer, e.code, e.reason]);
const PAYER = '/payerAccountReference/paymentInstructionAccount/accountId';
const AMOUNT = '/paymentInstruction/amount/instructedAmount';
const eur = (instructedAmount: number) => ({ instructedAmount, instructedCurrency: 'EUR' });

forEachStore('payer account rules', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind, { now: () => NOW });
  });
  after(async () => h.close());
  /** Opens the user's demo account (EUR 5,000.00) through the accounts API. */
  const openAccount = async (user: string) =>
    assert.equal((await send(h, user, 'GET', '/accounts/v1/me/balance')).statusCode, 200);

  test("a payment from another person's account is refused (BE01)", async () => {
    await openAccount('mallory');
    const res = await send(h, 'mallory', 'POST', 'payments', sepaCreditTransfer());
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(entries(json(res)), [[PAYER, 'PAYER_ACCOUNT_NOT_OWNED', 'BE01']]);
    assert.match(
      (json(res)['errors'] as Entry[])[0]?.message ?? '',
      new RegExp(demoIbanFor('mallory')),
    );
    const validated = json(
      await send(h, 'mallory', 'POST', 'payments/validate', sepaCreditTransfer()),
    )['paymentInstructionReference'] as Json;
    assert.deepEqual([validated['status'], validated['reason']], ['FAILED', 'BE01']);
  });

  test('a payment from the own account, written with spaces, is accepted', async () => {
    await openAccount('olivia');
    const spaced = demoIbanFor('olivia')
      .replace(/(.{4})/g, '$1 ')
      .trim();
    const res = await send(
      h,
      'olivia',
      'POST',
      'payments',
      sepaCreditTransfer({ payerIban: spaced }),
    );
    assert.equal(res.statusCode, 201, res.body);
  });

  test('a payment beyond the available balance is refused (AM04), immediate or scheduled (issue 26, item 1)', async () => {
    await openAccount('pat');
    const own = demoIbanFor('pat');
    const first = await send(
      h,
      'pat',
      'POST',
      'payments',
      sepaCreditTransfer({ payerIban: own, amount: eur(4000) }),
    );
    assert.equal(first.statusCode, 201, first.body);
    const over = await send(
      h,
      'pat',
      'POST',
      'payments',
      sepaCreditTransfer({ payerIban: own, amount: eur(1000.01) }),
    );
    assert.equal(over.statusCode, 422, over.body);
    assert.deepEqual(entries(json(over)), [[AMOUNT, 'INSUFFICIENT_FUNDS', 'AM04']]);
    assert.match((json(over)['errors'] as Entry[])[0]?.message ?? '', /EUR 1000\.00/);
    const exact = await send(
      h,
      'pat',
      'POST',
      'payments',
      sepaCreditTransfer({ payerIban: own, amount: eur(1000) }),
    );
    assert.equal(exact.statusCode, 201, exact.body);
    const later = sepaCreditTransfer({
      payerIban: own,
      amount: eur(2000),
      instruction: { paymentDates: { requestedExecutionDate: '2026-12-01T09:00:00Z' } },
    });
    const scheduled = await send(h, 'pat', 'POST', 'payments', later);
    assert.equal(scheduled.statusCode, 422, scheduled.body);
    assert.deepEqual(entries(json(scheduled)), [[AMOUNT, 'INSUFFICIENT_FUNDS', 'AM04']]);
  });

  test('updating a payment checks the balance without counting the payment itself', async () => {
    await openAccount('quinn');
    const own = demoIbanFor('quinn');
    const res = await send(
      h,
      'quinn',
      'POST',
      'payments',
      sepaCreditTransfer({ payerIban: own, amount: eur(3000) }),
    );
    const id = String((json(res)['paymentInstructionReference'] as Json)['identification']);
    const raised = await send(
      h,
      'quinn',
      'PUT',
      `payments/${id}`,
      sepaCreditTransfer({ payerIban: own, amount: eur(5000) }),
    );
    assert.equal(raised.statusCode, 200, raised.body);
    const tooMuch = await send(
      h,
      'quinn',
      'PUT',
      `payments/${id}`,
      sepaCreditTransfer({ payerIban: own, amount: eur(5000.01) }),
    );
    assert.deepEqual(entries(json(tooMuch)), [[AMOUNT, 'INSUFFICIENT_FUNDS', 'AM04']]);
    const stolen = await send(
      h,
      'quinn',
      'PUT',
      `payments/${id}`,
      sepaCreditTransfer({ amount: eur(10) }),
    );
    assert.deepEqual(entries(json(stolen)), [[PAYER, 'PAYER_ACCOUNT_NOT_OWNED', 'BE01']]);
  });

  test('a user who never called the accounts API owns only their own new account: any other payer is refused (BE01)', async () => {
    // Nothing opened beforehand: the first payment call opens the user's demo account and checks against it.
    const arbitrary = sepaCreditTransfer({ amount: eur(99_999_999) });
    const res = await send(h, 'stranger', 'POST', 'payments', arbitrary);
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(entries(json(res)), [[PAYER, 'PAYER_ACCOUNT_NOT_OWNED', 'BE01']]);
    assert.match(
      (json(res)['errors'] as Entry[])[0]?.message ?? '',
      new RegExp(`pay from ${demoIbanFor('stranger')}$`),
    );
    const alices = sepaCreditTransfer({ payerIban: demoIbanFor('alice'), amount: eur(10) });
    const fromAlice = await send(h, 'newcomer', 'POST', 'payments', alices);
    assert.deepEqual(entries(json(fromAlice)), [[PAYER, 'PAYER_ACCOUNT_NOT_OWNED', 'BE01']]);
    const validated = json(await send(h, 'newcomer2', 'POST', 'payments/validate', alices))[
      'paymentInstructionReference'
    ] as Json;
    assert.deepEqual([validated['status'], validated['reason']], ['FAILED', 'BE01']);
    const list = json(await send(h, 'stranger', 'GET', 'payments'));
    assert.deepEqual(list['items'], [], 'nothing was stored');
  });

  test("a new user's own account pays within its balance: EUR 900,000 is refused (AM04), EUR 100 accepted", async () => {
    const own = demoIbanFor('first-timer');
    const tooMuch = sepaCreditTransfer({ payerIban: own, amount: eur(900000) });
    const refused = await send(h, 'first-timer', 'POST', 'payments', tooMuch);
    assert.deepEqual(entries(json(refused)), [[AMOUNT, 'INSUFFICIENT_FUNDS', 'AM04']]);
    const ok = sepaCreditTransfer({ payerIban: own, amount: eur(100) });
    const accepted = await send(h, 'first-timer', 'POST', 'payments', ok);
    assert.equal(accepted.statusCode, 201, accepted.body);
    const balance = json(await send(h, 'first-timer', 'GET', '/accounts/v1/me/balance'));
    const item = (balance['items'] as Json[])[0] ?? {};
    assert.deepEqual([item['accountId'], item['availableBalance']], [own, 4900]);
  });
});
