// IdempotencyStore directly: an in-progress claim answers 409, a stale one (its process died before
// committing) is taken over, a failed operation releases the key.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { IdempotencyStore } from '../../src/payments/storage/idempotency.js';
import { PaymentError } from '../../src/payments/domain/errors.js';
import { forEachStore, openHarness, type Harness } from './harness.js';

forEachStore('idempotency store', (kind) => {
  let h: Harness;
  const now = 1_000_000;
  before(async () => {
    h = await openHarness(kind);
  });
  after(async () => h.close());
  const store = () =>
    new IdempotencyStore(h.db, { ttlMs: 60_000, staleAfterMs: 10_000, now: () => now });
  const claim = (key: string, lockedAt: number) =>
    h.db.execute(
      `INSERT INTO idempotency_keys (scope, idem_key, fingerprint, state, locked_at, expires_at) VALUES ('s', $1, 'f', 'in_progress', $2, $3)`,
      [key, lockedAt, now + 60_000],
    );
  const ok = async () => ({ statusCode: 201, body: { ok: true } });

  test('a live in-progress claim → 409; a stale one is taken over', async () => {
    await claim('live', now - 1000);
    await assert.rejects(
      store().run({ scope: 's', key: 'live', fingerprint: 'f' }, ok),
      (e: unknown) => e instanceof PaymentError && e.code === 'IDEMPOTENCY_IN_PROGRESS',
    );
    await claim('stale', now - 20_000);
    const outcome = await store().run({ scope: 's', key: 'stale', fingerprint: 'f' }, ok);
    assert.deepEqual([outcome.replayed, outcome.response.statusCode], [false, 201]);
    const again = await store().run({ scope: 's', key: 'stale', fingerprint: 'f' }, ok);
    assert.equal(again.replayed, true);
  });

  test('a failing operation releases the key and writes nothing', async () => {
    await assert.rejects(
      store().run({ scope: 's', key: 'boom', fingerprint: 'f' }, async (tx) => {
        await tx.execute(
          `INSERT INTO demo_accounts (owner, account_id, currency, opening_balance, opened_at) VALUES ('boom', 'x', 'EUR', '1', 'now')`,
        );
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal(
      (await h.db.query(`SELECT 1 FROM idempotency_keys WHERE idem_key = 'boom'`)).length,
      0,
    );
    assert.equal((await h.db.query(`SELECT 1 FROM demo_accounts WHERE owner = 'boom'`)).length, 0);
    const later = await store().run({ scope: 's', key: 'boom', fingerprint: 'f' }, ok);
    assert.equal(later.replayed, false);
  });
});
