import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { responseErrors } from './directory/response-schema.js';
import { forEachStore, openHarness, json, BASE, userHeaders, type Harness } from './harness.js';

// Friday 2026-11-20 10:00 UTC (11:00 in Frankfurt).
const NOW = new Date('2026-11-20T10:00:00Z');

async function fetchFees(h: Harness, body: unknown, headers: Record<string, string> = {}) {
  const res = await h.app.inject({
    method: 'POST',
    url: `${BASE}/payments/fetch-fees`,
    headers,
    payload: body as object,
  });
  if (res.statusCode === 201) {
    assert.deepEqual(responseErrors('FeeQueryRecord', res.json()), [], 'matches FeeQueryRecord');
  }
  return res;
}

const crossBorder = {
  identification: 'Q-1',
  chargeBearer: 'SHAR',
  amount: { instructedAmount: 12345.67, instructedCurrency: 'EUR' },
  payerAccountReference: {
    paymentInstructionAccount: { accountId: 'DE89370400440532013000', numberType: 'IBAN' },
  },
  payeeAccountReference: {
    paymentInstructionAccount: { accountId: 'GB29NWBK60161331926819', numberType: 'IBAN' },
  },
  dates: [{ dateType: 'REQUESTED_EXECUTION_DATE', dateTime: '2026-11-21T09:00:00Z' }],
};

forEachStore('fetch-fees', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind, {
      now: () => NOW,
      overrides: {
        fees: {
          customerTiers: { alice: 'premium' },
          rates: {
            asOf: '2026-11-20T09:00:00Z',
            pairs: { 'EUR/USD': { mid: 1.16, marginBasisPoints: 25 } },
          },
        },
      },
    });
  });
  after(async () => h.close());

  test('anonymous caller: 201 with list prices, dates and the quote summary', async () => {
    const res = await fetchFees(h, crossBorder);
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.headers['cache-control'], 'private, no-store');
    const body = json(res);
    assert.equal(body['identification'], 'Q-1');
    assert.deepEqual(body['appliedFee'], [
      { amount: 22.35, currency: 'EUR', type: 'DEBTOR_TRANSFER_FEE' },
      { amount: 5, currency: 'EUR', type: 'CREDITOR_RECEIVING_FEE' },
    ]);
    assert.equal(body['usedMechanism'], 'RTGS');
    assert.equal(body['priority'], 'NORM');
    // Requested on a Saturday: echoed, executed Monday, value Tuesday (cross-border + 1 day), on the
    // TARGET2 clock (customer payments until 17:00 Frankfurt time).
    assert.deepEqual(body['dates'], [
      { dateType: 'REQUESTED_EXECUTION_DATE', dateTime: '2026-11-21T09:00:00Z' },
      { dateType: 'EXECUTION_DATE', dateTime: '2026-11-23T00:00:00+01:00' },
      { dateType: 'CUT_OFF_TIME', dateTime: '2026-11-23T17:00:00+01:00' },
      { dateType: 'VALUE_DATE', dateTime: '2026-11-24T00:00:00+01:00' },
    ]);
    const summary = (body['customFields'] as Record<string, Record<string, unknown>>)['feeQuote'];
    assert.equal(summary?.['pricing'], 'LIST');
    assert.equal(summary?.['scope'], 'CROSS_BORDER');
    assert.equal(summary?.['rail'], 'TARGET2');
    assert.deepEqual(
      (summary?.['lines'] as Record<string, unknown>[]).map((l) => [l['type'], l['rule']]),
      [
        ['DEBTOR_TRANSFER_FEE', 'cross-border'],
        ['CREDITOR_RECEIVING_FEE', 'receiving'],
      ],
    );
    assert.equal(summary?.['timeZone'], 'Europe/Berlin');
  });

  test('a user vouched for by the gateway gets their tier; others list price', async () => {
    const alice = await fetchFees(h, crossBorder, userHeaders('alice'));
    assert.equal(alice.statusCode, 201, alice.body);
    assert.deepEqual((json(alice)['appliedFee'] as unknown[])[0], {
      amount: 11.18,
      currency: 'EUR',
      type: 'DEBTOR_TRANSFER_FEE',
    });
    const summary = (json(alice)['customFields'] as Record<string, Record<string, unknown>>)[
      'feeQuote'
    ];
    assert.equal(summary?.['pricing'], 'premium');
    assert.equal(summary?.['listPrice'], 27.35);
    const bob = await fetchFees(h, crossBorder, userHeaders('bob'));
    assert.deepEqual((json(bob)['appliedFee'] as unknown[])[0], {
      amount: 22.35,
      currency: 'EUR',
      type: 'DEBTOR_TRANSFER_FEE',
    });
  });

  test('identity headers without the gateway key are rejected, not ignored', async () => {
    const res = await fetchFees(h, crossBorder, { 'x-user-id': 'alice' });
    assert.equal(res.statusCode, 401);
    assert.equal(json(res)['code'], 'IDENTITY_REJECTED');
  });

  test('mechanism from body or Used-Mechanism header picks the channel', async () => {
    const domestic = {
      amount: { instructedAmount: 100, instructedCurrency: 'EUR' },
      payerAccountReference: { paymentInstructionAccount: { accountId: 'DE89370400440532013000' } },
    };
    const sepa = await fetchFees(h, { ...domestic, usedMechanism: 'SEPA' });
    assert.deepEqual(json(sepa)['appliedFee'], [
      { amount: 0.25, currency: 'EUR', type: 'DEBTOR_TRANSFER_FEE' },
    ]);
    const instant = await fetchFees(h, domestic, { 'used-mechanism': 'sct-inst' });
    assert.equal(json(instant)['usedMechanism'], 'sct-inst');
    assert.deepEqual(json(instant)['appliedFee'], [
      { amount: 0.5, currency: 'EUR', type: 'DEBTOR_TRANSFER_FEE' },
    ]);
    const unknown = await fetchFees(h, domestic, { 'used-mechanism': 'CARRIER_PIGEON' });
    assert.equal(unknown.statusCode, 422);
    assert.equal(
      (json(unknown)['errors'] as { pointer: string }[])[0]?.pointer,
      '/header/Used-Mechanism',
    );
  });

  test('another transfer currency converts at the configured rate; a missing pair is a 422', async () => {
    const res = await fetchFees(h, {
      amount: { instructedAmount: 1000, instructedCurrency: 'EUR', transferCurrency: 'USD' },
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal((json(res)['amount'] as Record<string, unknown>)['transferAmount'], 1157.1);
    const summary = (json(res)['customFields'] as Record<string, Record<string, unknown>>)[
      'feeQuote'
    ];
    const exchange = summary?.['exchange'] as Record<string, unknown>;
    assert.equal(exchange['rate'], 1.1571);
    assert.equal(exchange['midRate'], 1.16);
    assert.equal(exchange['marginBasisPoints'], 25);
    assert.equal(exchange['marginAmount'], 2.9);
    assert.equal(exchange['asOf'], '2026-11-20T09:00:00Z');
    assert.equal(exchange['source'], 'configuration');
    const missing = await fetchFees(h, {
      amount: { instructedAmount: 1000, instructedCurrency: 'EUR', transferCurrency: 'CHF' },
    });
    assert.equal(missing.statusCode, 422);
    assert.deepEqual(json(missing)['errors'], [
      {
        pointer: '/amount/transferCurrency',
        code: 'EXCHANGE_RATE_UNAVAILABLE',
        message: 'no exchange rate for EUR/CHF (nor CHF/EUR) in the rate source "configuration"',
      },
    ]);
  });

  test('validation: schema errors 400, business rules 422 with pointers', async () => {
    const unknownField = await fetchFees(h, { ...crossBorder, colour: 'blue' });
    assert.equal(unknownField.statusCode, 400);
    assert.equal(json(unknownField)['code'], 'VALIDATION_FAILED');
    const negative = await fetchFees(h, {
      amount: { instructedAmount: -5, instructedCurrency: 'EUR' },
    });
    assert.equal(negative.statusCode, 400);
    const precision = await fetchFees(h, {
      amount: { instructedAmount: 10.5, instructedCurrency: 'JPY' },
    });
    assert.equal(precision.statusCode, 422);
    assert.deepEqual((json(precision)['errors'] as unknown[])[0], {
      pointer: '/amount/instructedAmount',
      code: 'AMOUNT_PRECISION',
      message: 'JPY amounts take at most 0 decimals',
    });
    const missing = await fetchFees(h, { chargeBearer: 'DEBT' });
    assert.equal(missing.statusCode, 422);
    assert.deepEqual(
      (json(missing)['errors'] as { pointer: string }[]).map((e) => e.pointer),
      ['/amount/instructedAmount', '/amount/instructedCurrency'],
    );
    const badIban = await fetchFees(h, {
      ...crossBorder,
      payeeAccountReference: { paymentInstructionAccount: { accountId: 'GB00NWBK60161331926819' } },
    });
    assert.equal(badIban.statusCode, 422);
    assert.equal((json(badIban)['errors'] as { code: string }[])[0]?.code, 'IBAN_INVALID');
  });
});

test('fetch-fees works without any identity configuration (list prices)', async () => {
  const h = await openHarness('sqlite', { now: () => NOW });
  try {
    const res = await fetchFees(h, {
      amount: { instructedAmount: 5000, instructedCurrency: 'USD' },
      priority: 'HIGH',
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(json(res)['appliedFee'], [
      { amount: 25, currency: 'USD', type: 'DEBTOR_TRANSFER_FEE' },
      { amount: 10, currency: 'USD', type: 'DEBTOR_PRIORITY_SURCHARGE' },
    ]);
  } finally {
    await h.close();
  }
});

test('fetch-fees dates a Fedwire payment on New York time (15:00 ET executes today)', async () => {
  // Friday 2026-11-20 15:00 in New York = 21:00 in Frankfurt.
  const h = await openHarness('sqlite', { now: () => new Date('2026-11-20T20:00:00Z') });
  try {
    const res = await fetchFees(
      h,
      { amount: { instructedAmount: 5000, instructedCurrency: 'USD' } },
      { 'used-mechanism': 'FEDWIRE' },
    );
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(json(res)['dates'], [
      { dateType: 'REQUESTED_EXECUTION_DATE', dateTime: '2026-11-20T15:00:00-05:00' },
      { dateType: 'EXECUTION_DATE', dateTime: '2026-11-20T15:00:00-05:00' },
      { dateType: 'CUT_OFF_TIME', dateTime: '2026-11-20T18:00:00-05:00' },
      { dateType: 'VALUE_DATE', dateTime: '2026-11-20T00:00:00-05:00' },
    ]);
    const summary = (json(res)['customFields'] as Record<string, Record<string, unknown>>)[
      'feeQuote'
    ];
    assert.equal(summary?.['rail'], 'FEDWIRE');
    assert.equal(summary?.['timeZone'], 'America/New_York');
  } finally {
    await h.close();
  }
});
