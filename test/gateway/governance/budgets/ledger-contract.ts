// What every budget store must do behind the ledger (issue 25, "Money budgets"), run against the memory
// store and Redis alike.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CounterBudgetLedger } from '../../../../src/gateway/governance/budgets/ledger.js';
import type { BudgetStore } from '../../../../src/gateway/governance/budgets/store.js';
import type { ReserveOutcome } from '../../../../src/gateway/governance/contracts.js';
import { limit, paymentCall } from './calls.js';

function reserved(outcome: ReserveOutcome) {
  assert.equal(outcome.ok, true, `refused: ${JSON.stringify(outcome)}`);
  if (!outcome.ok) throw new Error('unreachable');
  return outcome.reservation;
}

function refused(outcome: ReserveOutcome) {
  assert.equal(outcome.ok, false, 'admitted');
  if (outcome.ok) throw new Error('unreachable');
  return outcome;
}

export function ledgerContract(options: {
  readonly name: string;
  readonly skip: string | false;
  readonly create: () => Promise<BudgetStore>;
}): void {
  const open = async (timeZone = 'UTC') => {
    const store = await options.create();
    return { store, ledger: new CounterBudgetLedger(store, { timeZone }) };
  };

  describe(`budget ledger on the ${options.name} store`, { skip: options.skip }, () => {
    it('a call without money, with a zero amount or without limits reserves nothing', async () => {
      const { store, ledger } = await open();
      try {
        const day = limit(100);
        for (const [call, limits] of [
          [paymentCall({ baseMinor: null }), [day]],
          [paymentCall({ baseMinor: 0 }), [day]],
          [paymentCall({ baseMinor: 500 }), []],
        ] as const) {
          const r = reserved(await ledger.reserve(call, limits));
          assert.equal(r.amountMinor, 0);
          await ledger.release(call, r);
        }
        assert.equal(await ledger.used(paymentCall(), day), 0);
      } finally {
        await store.close();
      }
    });

    it('reserves up to the limit; a refusal names the budget, what remains and when it resets', async () => {
      const { store, ledger } = await open();
      try {
        const day = limit(25_000_00);
        const at = new Date();
        for (let i = 0; i < 2; i++)
          reserved(await ledger.reserve(paymentCall({ baseMinor: 10_000_00, at }), [day]));
        const no = refused(await ledger.reserve(paymentCall({ baseMinor: 10_000_00, at }), [day]));
        assert.deepEqual(no.limit, day);
        assert.equal(no.remainingMinor, 5_000_00);
        const midnight = new Date(at);
        midnight.setUTCHours(24, 0, 0, 0);
        assert.equal(no.resetsAt, midnight.toISOString());
        // Exactly what remains still fits.
        reserved(await ledger.reserve(paymentCall({ baseMinor: 5_000_00, at }), [day]));
        const none = refused(await ledger.reserve(paymentCall({ baseMinor: 1, at }), [day]));
        assert.equal(none.remainingMinor, 0);
        assert.equal(await ledger.used(paymentCall({ at }), day), 25_000_00);
      } finally {
        await store.close();
      }
    });

    it('all or nothing: a call one budget refuses is counted in none of them', async () => {
      const { store, ledger } = await open();
      try {
        const userDay = limit(1000, 'user', 'day');
        const subMonth = limit(1500, 'subscription', 'month');
        reserved(await ledger.reserve(paymentCall({ baseMinor: 800 }), [userDay, subMonth]));
        const no = refused(
          await ledger.reserve(paymentCall({ baseMinor: 800, subject: 'bob' }), [
            userDay,
            subMonth,
          ]),
        );
        assert.equal(no.limit.ruleId, subMonth.ruleId);
        assert.equal(no.remainingMinor, 700);
        assert.match(no.resetsAt, /^\d{4}-\d{2}-01T00:00:00\.000Z$/);
        // bob's user budget was not touched by the refused call.
        assert.equal(await ledger.used(paymentCall({ subject: 'bob' }), userDay), 0);
        assert.equal(await ledger.used(paymentCall(), subMonth), 800);
      } finally {
        await store.close();
      }
    });

    it('user budgets count per user (issuer and subject), subscription budgets per subscription', async () => {
      const { store, ledger } = await open();
      try {
        const userDay = limit(1000, 'user');
        const subDay = limit(1000, 'subscription');
        reserved(await ledger.reserve(paymentCall({ baseMinor: 1000 }), [userDay]));
        refused(await ledger.reserve(paymentCall({ baseMinor: 1 }), [userDay]));
        // Another user, and the same subject from another issuer, have their own budgets.
        reserved(await ledger.reserve(paymentCall({ baseMinor: 1000, subject: 'bob' }), [userDay]));
        reserved(
          await ledger.reserve(paymentCall({ baseMinor: 1000, issuer: 'https://idp.example' }), [
            userDay,
          ]),
        );
        reserved(await ledger.reserve(paymentCall({ baseMinor: 1000 }), [subDay]));
        refused(await ledger.reserve(paymentCall({ baseMinor: 1, subject: 'bob' }), [subDay]));
        reserved(
          await ledger.reserve(paymentCall({ baseMinor: 1000, subscription: 'sub_2' }), [subDay]),
        );
        // Two rules with the same scope and period keep separate counters.
        reserved(
          await ledger.reserve(paymentCall({ baseMinor: 1000 }), [
            limit(1000, 'user', 'day', 'other'),
          ]),
        );
      } finally {
        await store.close();
      }
    });

    it('a new day starts an empty day budget; the month budget carries on', async () => {
      const { store, ledger } = await open('Europe/Berlin');
      try {
        const day = limit(1000, 'user', 'day');
        const month = limit(5000, 'user', 'month');
        // Two consecutive Berlin days of one month (fixed dates: a day is not always 24 hours).
        const first = new Date('2026-11-26T12:00:00Z');
        const second = new Date('2026-11-27T12:00:00Z');
        reserved(await ledger.reserve(paymentCall({ baseMinor: 1000, at: first }), [day, month]));
        refused(await ledger.reserve(paymentCall({ baseMinor: 1, at: first }), [day, month]));
        reserved(await ledger.reserve(paymentCall({ baseMinor: 1000, at: second }), [day, month]));
        assert.equal(await ledger.used(paymentCall({ at: second }), day), 1000);
        assert.equal(await ledger.used(paymentCall({ at: second }), month), 2000);
        // December is another month.
        const december = paymentCall({ baseMinor: 5000, at: new Date('2026-12-01T12:00:00Z') });
        reserved(await ledger.reserve(december, [month]));
      } finally {
        await store.close();
      }
    });

    it('release gives the amount back, once per reservation', async () => {
      const { store, ledger } = await open();
      try {
        const day = limit(1000);
        const call = paymentCall({ baseMinor: 600 });
        const r = reserved(await ledger.reserve(call, [day]));
        reserved(await ledger.reserve(paymentCall({ baseMinor: 300 }), [day]));
        refused(await ledger.reserve(paymentCall({ baseMinor: 600 }), [day]));
        await ledger.release(call, r);
        assert.equal(await ledger.used(call, day), 300);
        // A second release of the same reservation changes nothing.
        await ledger.release(call, r);
        assert.equal(await ledger.used(call, day), 300);
        reserved(await ledger.reserve(paymentCall({ baseMinor: 700 }), [day]));
        assert.equal(await ledger.used(call, day), 1000);
      } finally {
        await store.close();
      }
    });

    it('concurrent reservations on one ledger admit exactly floor(limit/amount) calls', async () => {
      const { store, ledger } = await open();
      try {
        const day = limit(10_000);
        const outcomes = await Promise.all(
          Array.from({ length: 60 }, () => ledger.reserve(paymentCall({ baseMinor: 300 }), [day])),
        );
        assert.equal(outcomes.filter((o) => o.ok).length, Math.floor(10_000 / 300));
        assert.equal(await ledger.used(paymentCall(), day), Math.floor(10_000 / 300) * 300);
      } finally {
        await store.close();
      }
    });

    it("a budget in another currency than the call's base currency is a configuration fault", async () => {
      const { store, ledger } = await open();
      try {
        await assert.rejects(
          ledger.reserve(paymentCall(), [{ ...limit(1000), currency: 'USD' }]),
          /counts in USD but the call's base currency is EUR/,
        );
      } finally {
        await store.close();
      }
    });
  });
}
