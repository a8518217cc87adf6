// A payment service under a clock the test controls, its execution engine run by hand up to an instant
// (as `toolgate payments engine run --until` does), and the calls a test makes through the HTTP API.
import assert from 'node:assert/strict';
import { demoIbanFor } from '../../../src/payments/domain/demo-account.js';
import { runEngine, type EngineReport } from '../../../src/payments/engine/executor.js';
import { RateSource } from '../../../src/payments/usecases/rates.js';
import { json, openHarness, send, type Harness, type StoreKind } from '../harness.js';

export interface EngineHarness {
  readonly h: Harness;
  /** Sets the service clock (what the API and acceptance see). */
  setClock(iso: string): void;
  /** Runs every transition due at `iso` (and moves the clock there). */
  run(iso: string): Promise<EngineReport>;
  create(
    user: string,
    body: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<string>;
  payment(user: string, id: string): Promise<Record<string, unknown>>;
  history(user: string, id: string): Promise<Record<string, unknown>[]>;
  balance(user: string): Promise<{ booked: number; available: number }>;
  transactions(user: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export async function openEngineHarness(
  kind: StoreKind,
  start: string,
  overrides: Record<string, unknown> = {},
): Promise<EngineHarness> {
  let clock = new Date(start);
  const h = await openHarness(kind, { now: () => clock, overrides });
  const rates = new RateSource(h.config.payments.fees.rates);
  const settings = {
    db: h.db,
    fees: h.config.payments.fees,
    rates: () => rates.current(),
    batchSize: 50,
  };
  return {
    h,
    setClock(iso) {
      clock = new Date(iso);
    },
    async run(iso) {
      clock = new Date(iso);
      const report = await runEngine(settings, clock);
      assert.deepEqual(report.failures, []);
      return report;
    },
    async create(user, body, headers = {}) {
      const res = await send(h, user, 'POST', 'payments', body, headers);
      assert.equal(res.statusCode, 201, res.body);
      const ref = json(res)['paymentInstructionReference'] as Record<string, unknown>;
      return String(ref['identification']);
    },
    async payment(user, id) {
      const res = await send(h, user, 'GET', `payments/${id}`);
      assert.equal(res.statusCode, 200, res.body);
      return json(res);
    },
    async history(user, id) {
      const res = await send(h, user, 'GET', `payments/${id}/history?limit=100`);
      assert.equal(res.statusCode, 200, res.body);
      return (json(res)['items'] as Record<string, unknown>[]).reverse();
    },
    async balance(user) {
      const res = await send(h, user, 'GET', '/accounts/v1/me/balance');
      assert.equal(res.statusCode, 200, res.body);
      const item = (json(res)['items'] as Record<string, unknown>[])[0] ?? {};
      return { booked: Number(item['bookedBalance']), available: Number(item['availableBalance']) };
    },
    async transactions(user) {
      const res = await send(h, user, 'GET', '/accounts/v1/me/transactions?limit=100');
      assert.equal(res.statusCode, 200, res.body);
      return json(res)['items'] as Record<string, unknown>[];
    },
    close: () => h.close(),
  };
}

/** A payment from `from`'s demo account to `to`'s (an IBAN of this bank: a book transfer). */
export function transfer(
  from: string,
  to: string,
  amount: number,
  extra: { currency?: string; instruction?: Record<string, unknown>; payeeIban?: string } = {},
): Record<string, unknown> {
  return {
    payerAccountReference: {
      paymentInstructionAccount: { accountId: demoIbanFor(from), numberType: 'IBAN' },
    },
    payeeAccountReference: {
      paymentInstructionAccount: {
        accountId: extra.payeeIban ?? demoIbanFor(to),
        numberType: 'IBAN',
      },
    },
    payerReference: { involvedParty: { partyName: from, partyType: 'PERSON' } },
    payeeReference: { involvedParty: { partyName: to, partyType: 'PERSON' } },
    paymentInstruction: {
      amount: {
        instructedAmount: amount,
        instructedCurrency: extra.currency ?? 'EUR',
        amountType: 'PRINCIPAL',
      },
      chargeBearer: 'SHAR',
      ...extra.instruction,
    },
    paymentProcessingConfiguration: {
      remittanceInfo: { type: 'UNSTRUCTURED', content: `from ${from} to ${to}` },
    },
  };
}

/** The status changes of a history, as "FROM>TO:isoStatus[:isoReason]". */
export function statusTrail(history: readonly Record<string, unknown>[]): string[] {
  return history
    .filter((e) => e['kind'] === 'STATUS_CHANGED')
    .map((e) =>
      [`${String(e['fromStatus'])}>${String(e['toStatus'])}`, e['isoStatus'], e['isoReason']]
        .filter((x) => x !== undefined)
        .join(':'),
    );
}
