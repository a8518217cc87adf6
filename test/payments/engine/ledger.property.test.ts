// Issue 26, "A double-entry ledger behind the demo accounts: every execution posts balanced entries;
// balances reflect executed payments". Property: whatever payments users make (to each other or to
// another bank, now or on a later day), however the engine's clock advances and whatever the clearing
// side returns, the ledger sums to zero in every currency, no account is overdrawn, and every user's
// booked balance (through the accounts API) is the opening balance plus what the payment statuses say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { trialBalance } from '../../../src/payments/storage/ledger-repo.js';
import { findPayment } from '../../../src/payments/storage/payments-repo.js';
import { OPERATOR_TOKEN, send } from '../harness.js';
import { openEngineHarness, transfer } from './helpers.js';

const USERS = ['u0', 'u1', 'u2', 'u3'];
const EXTERNAL = 'DE02120300000000202051';

const operation = fc.oneof(
  fc.record({
    kind: fc.constant('pay' as const),
    from: fc.integer({ min: 0, max: 3 }),
    to: fc.integer({ min: 0, max: 4 }), // 4: another bank
    cents: fc.integer({ min: 1, max: 300_000 }),
    laterDays: fc.integer({ min: 0, max: 2 }),
  }),
  fc.record({ kind: fc.constant('run' as const), hours: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('return' as const), pick: fc.nat() }),
);

test('the ledger stays balanced and every balance follows the payments’ statuses', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 14 }), async (ops) => {
      let clock = Date.parse('2026-12-01T08:00:00Z');
      const e = await openEngineHarness('sqlite', new Date(clock).toISOString());
      try {
        const created: { id: string; from: string; to: string | undefined; cents: number }[] = [];
        for (const op of ops) {
          if (op.kind === 'pay') {
            const from = USERS[op.from] ?? 'u0';
            const to = USERS[op.to];
            if (to === from) continue;
            if (to) await e.balance(to); // the payee's demo account exists
            const requested = new Date(clock + op.laterDays * 86_400_000).toISOString();
            const body = transfer(from, to ?? 'elsewhere', op.cents / 100, {
              ...(to ? {} : { payeeIban: EXTERNAL }),
              instruction: { paymentDates: { requestedExecutionDate: requested } },
            });
            const res = await send(e.h, from, 'POST', 'payments', body);
            if (res.statusCode === 201) {
              const ref = (res.json() as Record<string, Record<string, unknown>>)[
                'paymentInstructionReference'
              ];
              created.push({ id: String(ref?.['identification']), from, to, cents: op.cents });
            } else assert.equal(res.statusCode, 422, res.body); // refused by a rule (AM04 …)
          } else if (op.kind === 'run') {
            clock += op.hours * 3_600_000;
            await e.run(new Date(clock).toISOString());
          } else if (created.length > 0) {
            const target = created[op.pick % created.length];
            await send(
              e.h,
              undefined,
              'POST',
              `/internal/payments/${target?.id ?? ''}/status`,
              { status: 'RETURNED', reason: 'AC06' },
              { authorization: `Bearer ${OPERATOR_TOKEN}` },
            ); // 409 unless COMPLETED: fine either way
          }
        }
        const { sums } = await trialBalance(e.h.db);
        for (const [currency, sum] of Object.entries(sums)) assert.equal(sum, 0n, currency);
        const expected = new Map(USERS.map((u) => [u, 500_000]));
        for (const p of created) {
          const status = (await findPayment(e.h.db, p.id))?.status;
          const debited = status === 'PENDING' || status === 'COMPLETED';
          if (debited) expected.set(p.from, (expected.get(p.from) ?? 0) - p.cents);
          if (status === 'COMPLETED' && p.to)
            expected.set(p.to, (expected.get(p.to) ?? 0) + p.cents);
        }
        for (const user of USERS) {
          const { booked, available } = await e.balance(user);
          assert.equal(Math.round(booked * 100), expected.get(user), user);
          assert.ok(available >= 0 && booked >= 0, `${user} overdrawn: ${booked} / ${available}`);
        }
      } finally {
        await e.close();
      }
    }),
    { numRuns: 12 },
  );
});
