// Accounts API: per-user demo account stored on first access; balances and transactions follow the
// user's own payments (pending while not executed, booked once COMPLETED).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { isValidIBAN } from 'ibantools';
import { demoIbanFor } from '../../src/payments/domain/demo-account.js';
import {
  forEachStore,
  openHarness,
  send,
  samplePayment,
  json,
  OPERATOR_TOKEN,
  type Harness,
} from './harness.js';

test('demo IBANs are valid and deterministic per user', () => {
  for (const user of ['alice', 'bob', 'auth0|12345', 'x']) {
    assert.ok(isValidIBAN(demoIbanFor(user)), demoIbanFor(user));
    assert.equal(demoIbanFor(user), demoIbanFor(user));
  }
  assert.notEqual(demoIbanFor('alice'), demoIbanFor('bob'));
});

forEachStore('accounts API', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind);
  });
  after(async () => h.close());
  const balance = async (user: string) =>
    (
      json(await send(h, user, 'GET', '/accounts/v1/me/balance'))['items'] as Record<
        string,
        unknown
      >[]
    )[0] ?? {};

  test('needs a user; another account id is 404', async () => {
    assert.equal((await send(h, undefined, 'GET', '/accounts/v1/me/balance')).statusCode, 401);
    const other = await send(
      h,
      'carol',
      'GET',
      `/accounts/v1/me/balance?accountId=${demoIbanFor('dave')}`,
    );
    assert.equal(other.statusCode, 404);
    const bad = await send(h, 'carol', 'GET', '/accounts/v1/me/transactions?limit=0');
    assert.equal(bad.statusCode, 400);
  });

  test('balances and history reflect the user’s payments', async () => {
    const start = await balance('carol');
    assert.deepEqual(
      [start['accountId'], start['bookedBalance'], start['availableBalance']],
      [demoIbanFor('carol'), 5000, 5000],
    );
    const fromCarol = samplePayment({
      payerAccountReference: {
        paymentInstructionAccount: { accountId: demoIbanFor('carol'), numberType: 'IBAN' },
      },
    });
    const created = json(await send(h, 'carol', 'POST', 'payments', fromCarol));
    const id = String(
      (created['paymentInstructionReference'] as Record<string, unknown>)['identification'],
    );
    const pending = await balance('carol');
    assert.deepEqual([pending['bookedBalance'], pending['availableBalance']], [5000, 4874.5]);
    for (const status of ['PENDING', 'CONFIRMED', 'COMPLETED']) {
      const res = await send(
        h,
        undefined,
        'POST',
        `/internal/payments/${id}/status`,
        { status },
        { authorization: `Bearer ${OPERATOR_TOKEN}` },
      );
      assert.equal(res.statusCode, 200);
    }
    const booked = await balance('carol');
    assert.deepEqual([booked['bookedBalance'], booked['availableBalance']], [4874.5, 4874.5]);
    const history = json(await send(h, 'carol', 'GET', '/accounts/v1/me/transactions'));
    const items = history['items'] as Record<string, unknown>[];
    assert.deepEqual(
      items.map((t) => [t['id'], t['creditDebitIndicator'], t['status'], t['amount']]),
      [
        [id, 'DEBIT', 'BOOKED', 125.5],
        ['opening-balance', 'CREDIT', 'BOOKED', 5000],
      ],
    );
    assert.equal(items[0]?.['counterpartyName'], 'Ada Lovelace');
    const page = json(await send(h, 'carol', 'GET', '/accounts/v1/me/transactions?limit=1'));
    assert.equal((page['items'] as unknown[]).length, 1);
    const next = json(
      await send(
        h,
        'carol',
        'GET',
        `/accounts/v1/me/transactions?limit=1&cursor=${String(page['nextCursor'])}`,
      ),
    );
    assert.equal(((next['items'] as Record<string, unknown>[])[0] ?? {})['id'], 'opening-balance');
    assert.equal(next['nextCursor'], null);
    assert.equal((await balance('erin'))['bookedBalance'], 5000);
  });
});
