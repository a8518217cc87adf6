// Issue 26, go-live item 4 "EU pricing and value dates": a cross-border euro payment inside the EU/EEA
// costs what the domestic one costs (Regulation (EU) 2021/1230, CBPR2); SEPA credit transfers settle D+1
// also cross-border (not D+2); SCT Inst and FedNow execute and settle within seconds at any time of day
// (a 23:59:30 instant payment does not go to the next day).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, forEachStore, json, openHarness, type Harness } from './harness.js';

// Wednesday 2026-11-25 10:00 UTC (11:00 in Frankfurt, before the SEPA cut-off at 14:00).
const NOW = new Date('2026-11-25T10:00:00Z');
type Json = Record<string, unknown>;

const iban = (accountId: string) => ({
  paymentInstructionAccount: { accountId, numberType: 'IBAN' },
});
const DE_PAYER = 'DE89370400440532013000';
const DE_PAYEE = 'DE02120300000000202051';
const FR_PAYEE = 'FR1420041010050500013M02606';
const GB_PAYEE = 'GB29NWBK60161331926819';

function query(payee: string, extra: Json = {}): Json {
  return {
    chargeBearer: 'SLEV',
    amount: { instructedAmount: 12345.67, instructedCurrency: 'EUR' },
    payerAccountReference: iban(DE_PAYER),
    payeeAccountReference: iban(payee),
    ...extra,
  };
}

forEachStore('EU pricing and value dates (issue 26, item 4)', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind, { now: () => NOW });
  });
  after(async () => h.close());
  const quote = async (body: Json) => {
    const res = await h.app.inject({
      method: 'POST',
      url: `${BASE}/payments/fetch-fees`,
      payload: body,
    });
    assert.equal(res.statusCode, 201, res.body);
    return json(res);
  };
  const summaryOf = (body: Json) =>
    (body['customFields'] as Record<string, Json>)['feeQuote'] ?? {};
  const dateOf = (body: Json, type: string) =>
    (body['dates'] as { dateType: string; dateTime: string }[]).find((d) => d.dateType === type)
      ?.dateTime;

  test('CBPR2: a DE → FR euro payment costs exactly what a DE → DE one costs', async () => {
    const domestic = await quote(query(DE_PAYEE));
    const crossBorder = await quote(query(FR_PAYEE));
    assert.deepEqual(crossBorder['appliedFee'], domestic['appliedFee']);
    assert.deepEqual(crossBorder['appliedFee'], [
      { amount: 0.25, currency: 'EUR', type: 'DEBTOR_TRANSFER_FEE' },
    ]);
    const summary = summaryOf(crossBorder);
    assert.deepEqual(
      [summary['scope'], summary['pricedAs'], summary['regulation'], summary['rail']],
      ['CROSS_BORDER', 'DOMESTIC', 'CBPR2', 'SEPA'],
    );
    // D+1 like the domestic one.
    assert.equal(dateOf(crossBorder, 'VALUE_DATE'), '2026-11-26T00:00:00+01:00');
    assert.equal(dateOf(crossBorder, 'VALUE_DATE'), dateOf(domestic, 'VALUE_DATE'));
  });

  test('outside the EU/EEA the cross-border price stays (GB is SEPA but not under CBPR2)', async () => {
    const toLondon = await quote(query(GB_PAYEE));
    assert.equal(summaryOf(toLondon)['scope'], 'CROSS_BORDER');
    assert.equal(summaryOf(toLondon)['pricedAs'], undefined);
    assert.notDeepEqual(toLondon['appliedFee'], (await quote(query(DE_PAYEE)))['appliedFee']);
  });

  test('a SEPA credit transfer settles D+1 also cross-border (not D+2)', async () => {
    const sct = await quote(query(GB_PAYEE, { usedMechanism: 'SEPA' }));
    assert.equal(summaryOf(sct)['rail'], 'SEPA');
    assert.equal(dateOf(sct, 'EXECUTION_DATE'), '2026-11-25T11:00:00+01:00');
    assert.equal(dateOf(sct, 'VALUE_DATE'), '2026-11-26T00:00:00+01:00');
  });

  test('SCT Inst at 23:59:30 executes and settles the same second, not the next day', async () => {
    const late = await quote(
      query(FR_PAYEE, {
        usedMechanism: 'SCT_INST',
        dates: [{ dateType: 'REQUESTED_EXECUTION_DATE', dateTime: '2026-11-27T22:59:30Z' }],
      }),
    );
    assert.equal(summaryOf(late)['rail'], 'SEPA_INST');
    assert.equal(dateOf(late, 'EXECUTION_DATE'), '2026-11-27T23:59:30+01:00');
    assert.equal(dateOf(late, 'VALUE_DATE'), '2026-11-27T23:59:30+01:00');
    assert.equal(dateOf(late, 'CUT_OFF_TIME'), undefined, 'an instant rail has no cut-off');
  });

  test('FedNow at 23:59:30 on a Saturday in New York settles that Saturday', async () => {
    const fednow = await quote({
      amount: { instructedAmount: 250, instructedCurrency: 'USD' },
      usedMechanism: 'FEDNOW',
      dates: [{ dateType: 'REQUESTED_EXECUTION_DATE', dateTime: '2026-11-29T04:59:30Z' }],
    });
    assert.equal(summaryOf(fednow)['rail'], 'FEDNOW');
    assert.equal(dateOf(fednow, 'EXECUTION_DATE'), '2026-11-28T23:59:30-05:00');
    assert.equal(dateOf(fednow, 'VALUE_DATE'), '2026-11-28T23:59:30-05:00');
  });
});
