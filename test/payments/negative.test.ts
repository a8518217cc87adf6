// Table-driven negative tests. The schema table is DERIVED from the OpenAPI document: every enum and
// every constraint reachable from the payment record is violated once (in an otherwise valid record)
// and the answer must be 400 naming exactly that pointer with the expected code. Business rules have
// their own explicit table (422).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readOpenApiDocument } from '../../src/payments/http/documents.js';
import {
  forEachStore,
  openHarness,
  send,
  samplePayment,
  json,
  type Harness,
  holdSampleAccounts,
} from './harness.js';

type Schema = Record<string, unknown>;
const doc = readOpenApiDocument('payment-order');
const schemas = (doc['components'] as Schema)['schemas'] as Record<string, Schema>;

function deref(s: Schema): Schema {
  let current = s;
  const merged: Schema = {};
  while (typeof current['$ref'] === 'string') {
    Object.assign(merged, current);
    current = schemas[String(current['$ref']).split('/').pop() ?? ''] ?? {};
  }
  return { ...current, ...merged, $ref: undefined };
}

interface Case {
  readonly path: (string | number)[];
  readonly value: unknown;
  readonly code: string;
  readonly label: string;
}

/** Walks a schema and yields one violating case per constraint of every leaf. */
function casesFor(schema: Schema, path: (string | number)[], depth = 0): Case[] {
  if (depth > 8) return [];
  const s = deref(schema);
  const out: Case[] = [];
  const where = path.join('.');
  if (s['type'] === 'object' || s['properties']) {
    const props = (s['properties'] ?? {}) as Record<string, Schema>;
    for (const [name, child] of Object.entries(props))
      out.push(...casesFor(child, [...path, name], depth + 1));
    if (s['additionalProperties'] === false) {
      out.push({
        path: [...path, 'notAField'],
        value: 1,
        code: 'UNKNOWN_FIELD',
        label: `${where}.notAField`,
      });
    }
    if (typeof s['maxProperties'] === 'number') {
      const big: Record<string, number> = {};
      for (let i = 0; i <= s['maxProperties']; i++) big[`k${i}`] = i;
      out.push({ path, value: big, code: 'TOO_MANY_ITEMS', label: `${where} maxProperties` });
    }
    return out;
  }
  if (s['type'] === 'array') {
    const items = (s['items'] ?? {}) as Schema;
    out.push({ path, value: 'not-an-array', code: 'INVALID_TYPE', label: `${where} type` });
    if (typeof s['maxItems'] === 'number') {
      out.push({
        path,
        value: Array.from({ length: s['maxItems'] + 1 }, () => ({})),
        code: 'TOO_MANY_ITEMS',
        label: `${where} maxItems`,
      });
    }
    out.push(...casesFor(items, [...path, 0], depth + 1));
    return out;
  }
  if (Array.isArray(s['enum'])) {
    out.push({ path, value: 'NOT_IN_THE_LIST', code: 'INVALID_ENUM', label: `${where} enum` });
    return out;
  }
  const types = Array.isArray(s['type']) ? s['type'] : [s['type']];
  if (types.includes('string')) {
    out.push({ path, value: 12345, code: 'INVALID_TYPE', label: `${where} type` });
    if (typeof s['maxLength'] === 'number')
      out.push({
        path,
        value: 'x'.repeat(s['maxLength'] + 1),
        code: 'TOO_LONG',
        label: `${where} maxLength`,
      });
    if (typeof s['minLength'] === 'number' && s['minLength'] > 0)
      out.push({ path, value: '', code: 'TOO_SHORT', label: `${where} minLength` });
    if (typeof s['pattern'] === 'string')
      out.push({ path, value: 'a?', code: 'INVALID_FORMAT', label: `${where} pattern` });
    if (typeof s['format'] === 'string')
      out.push({ path, value: 'not-a-value', code: 'INVALID_FORMAT', label: `${where} format` });
  }
  if (types.includes('number') || types.includes('integer')) {
    out.push({ path, value: 'seven', code: 'INVALID_TYPE', label: `${where} type` });
    if (typeof s['exclusiveMinimum'] === 'number')
      out.push({
        path,
        value: s['exclusiveMinimum'],
        code: 'OUT_OF_RANGE',
        label: `${where} exclusiveMinimum`,
      });
    if (typeof s['minimum'] === 'number')
      out.push({ path, value: s['minimum'] - 1, code: 'OUT_OF_RANGE', label: `${where} minimum` });
    if (typeof s['maximum'] === 'number')
      out.push({ path, value: s['maximum'] + 1, code: 'OUT_OF_RANGE', label: `${where} maximum` });
    if (typeof s['exclusiveMaximum'] === 'number')
      out.push({
        path,
        value: s['exclusiveMaximum'],
        code: 'OUT_OF_RANGE',
        label: `${where} exclusiveMaximum`,
      });
    if (types.includes('integer'))
      out.push({ path, value: 1.5, code: 'INVALID_TYPE', label: `${where} integer` });
  }
  if (types.includes('boolean'))
    out.push({ path, value: 'yes', code: 'INVALID_TYPE', label: `${where} type` });
  return out;
}

function setIn(
  record: Record<string, unknown>,
  path: (string | number)[],
  value: unknown,
): Record<string, unknown> {
  const root = JSON.parse(JSON.stringify(record)) as Record<string, unknown>;
  let node: Record<string, unknown> | unknown[] = root;
  path.forEach((key, i) => {
    const last = i === path.length - 1;
    const container = node as Record<string | number, unknown>;
    if (last) {
      container[key] = value;
      return;
    }
    const nextIsIndex = typeof path[i + 1] === 'number';
    if (typeof container[key] !== 'object' || container[key] === null)
      container[key] = nextIsIndex ? [] : {};
    node = container[key] as Record<string, unknown>;
  });
  return root;
}

const schemaCases = casesFor(schemas['PaymentRecord'] ?? {}, []);
const pointerOf = (path: (string | number)[]) => (path.length === 0 ? '' : `/${path.join('/')}`);

describe('derived schema table', () => {
  test('covers every enum of the payment record (sanity: the table is not empty)', () => {
    const enums = schemaCases.filter((c) => c.code === 'INVALID_ENUM').map((c) => c.label);
    for (const expected of [
      'paymentProcessingConfiguration.localInstrument enum',
      'paymentInstruction.instructionType enum',
      'paymentProcessingConfiguration.paymentArrangement.paymentType enum',
      'payerReference.involvedParty.partyInvolvementType enum',
      'paymentInstruction.schedule.skipInterval enum',
      'paymentInstructionReference.status enum',
    ]) {
      assert.ok(enums.includes(expected), `missing ${expected}`);
    }
    assert.ok(schemaCases.length > 200, `only ${schemaCases.length} cases`);
  });
});

forEachStore('negative: every schema constraint via validatePayment', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind, { now: () => new Date('2026-11-25T08:00:00Z') });
    await holdSampleAccounts(h.db, 'alice');
  });
  after(async () => h.close());

  test(`each of ${schemaCases.length} violations is reported with its pointer and code`, async () => {
    const failures: string[] = [];
    for (const c of schemaCases) {
      const body = setIn(samplePayment(), c.path, c.value);
      const res = await send(h, undefined, 'POST', 'payments/validate', body);
      const errors =
        res.statusCode === 400
          ? ((json(res)['errors'] ?? []) as { pointer: string; code: string }[])
          : [];
      const hit = errors.some((e) => e.pointer === pointerOf(c.path) && e.code === c.code);
      if (res.statusCode !== 400 || !hit)
        failures.push(`${c.label}: ${res.statusCode} ${JSON.stringify(errors)}`);
    }
    assert.deepEqual(failures, []);
  });

  test('headers and path parameters are checked too', async () => {
    const res = await send(h, 'alice', 'POST', 'payments', samplePayment(), {
      timestamp: '22/11/2026',
      'used-mechanism': 'x'.repeat(36),
      'idempotent-request-key': 'has space',
    });
    assert.equal(res.statusCode, 400);
    const pointers = (json(res)['errors'] as { pointer: string }[]).map((e) => e.pointer).sort();
    assert.deepEqual(pointers, [
      '/header/Idempotent-Request-Key',
      '/header/Timestamp',
      '/header/Used-Mechanism',
    ]);
    const path = await send(h, 'alice', 'GET', 'payments/bad%20id');
    assert.equal(path.statusCode, 400);
    assert.equal(
      (json(path)['errors'] as { pointer: string }[])[0]?.pointer,
      '/path/externalReferenceNo',
    );
  });

  test('create requires accounts and amount; cancel requires noOfInstances for MULTIPLE', async () => {
    const res = await send(h, 'alice', 'POST', 'payments', { customFields: {} });
    assert.equal(res.statusCode, 400);
    const pointers = (json(res)['errors'] as { pointer: string; code: string }[])
      .map((e) => `${e.pointer} ${e.code}`)
      .sort();
    assert.deepEqual(pointers, [
      '/payeeAccountReference REQUIRED',
      '/payerAccountReference REQUIRED',
      '/paymentInstruction REQUIRED',
    ]);
    const cancel = await send(h, 'alice', 'POST', 'payments/PO-1/cancel', {
      cancellationType: 'MULTIPLE_PAYMENT_INSTANCE',
    });
    assert.equal(cancel.statusCode, 400);
    assert.deepEqual(
      (json(cancel)['errors'] as { pointer: string }[]).map((e) => e.pointer),
      ['/noOfInstances'],
    );
  });

  test('malformed JSON and wrong media type are client errors, never 500', async () => {
    const bad = await h.app.inject({
      method: 'POST',
      url: '/payments/payment-order/v1/payments/validate',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.headers['content-type'], 'application/problem+json; charset=utf-8');
    const text = await h.app.inject({
      method: 'POST',
      url: '/payments/payment-order/v1/payments/validate',
      headers: { 'content-type': 'text/plain' },
      payload: 'hi',
    });
    assert.equal(text.statusCode, 415);
  });

  test('a __proto__ key anywhere in the body is refused with its pointer, not stored', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/payments/payment-order/v1/payments/validate',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(samplePayment()).replace(
        /^\{/,
        '{"customFields":{"note":"x","__proto__":false},',
      ),
    });
    assert.equal(res.statusCode, 400);
    const body = json(res);
    assert.equal(body['code'], 'FORBIDDEN_PROPERTY_NAME');
    assert.equal((body['errors'] as { pointer: string }[])[0]?.pointer, '/customFields/__proto__');
  });

  const rules: {
    name: string;
    patch: (r: Record<string, unknown>) => Record<string, unknown>;
    pointer: string;
    code: string;
  }[] = [
    {
      name: 'JPY takes no decimals',
      patch: (r) =>
        setIn(r, ['paymentInstruction', 'amount'], {
          instructedAmount: 100.5,
          instructedCurrency: 'JPY',
        }),
      pointer: '/paymentInstruction/amount/instructedAmount',
      code: 'AMOUNT_PRECISION',
    },
    {
      name: 'USD takes two decimals',
      patch: (r) =>
        setIn(r, ['paymentInstruction', 'amount'], {
          instructedAmount: 1.005,
          instructedCurrency: 'USD',
        }),
      pointer: '/paymentInstruction/amount/instructedAmount',
      code: 'AMOUNT_PRECISION',
    },
    {
      name: 'KWD takes three decimals',
      patch: (r) =>
        setIn(r, ['paymentInstruction', 'amount'], {
          instructedAmount: 1.0005,
          instructedCurrency: 'KWD',
        }),
      pointer: '/paymentInstruction/amount/instructedAmount',
      code: 'AMOUNT_PRECISION',
    },
    {
      name: 'transfer amount precision follows transferCurrency',
      patch: (r) =>
        setIn(r, ['paymentInstruction'], {
          amount: {
            instructedAmount: 10,
            instructedCurrency: 'EUR',
            transferAmount: 10.5,
            transferCurrency: 'JPY',
          },
          exchangeRate: { rate: 160, rateType: 'AGREED' },
        }),
      pointer: '/paymentInstruction/amount/transferAmount',
      code: 'AMOUNT_PRECISION',
    },
    {
      name: 'unknown currency',
      patch: (r) => setIn(r, ['paymentInstruction', 'amount', 'instructedCurrency'], 'XYZ'),
      pointer: '/paymentInstruction/amount/instructedCurrency',
      code: 'CURRENCY_UNKNOWN',
    },
    {
      name: 'withdrawn currency',
      patch: (r) => setIn(r, ['paymentInstruction', 'amount', 'instructedCurrency'], 'HRK'),
      pointer: '/paymentInstruction/amount/instructedCurrency',
      code: 'CURRENCY_UNKNOWN',
    },
    {
      name: 'exchange rate required across currencies',
      patch: (r) => setIn(r, ['paymentInstruction', 'amount', 'transferCurrency'], 'USD'),
      pointer: '/paymentInstruction/exchangeRate/rate',
      code: 'EXCHANGE_RATE_REQUIRED',
    },
    {
      name: 'unknown country',
      patch: (r) => setIn(r, ['payeeReference', 'involvedParty', 'address'], { country: 'XX' }),
      pointer: '/payeeReference/involvedParty/address/country',
      code: 'COUNTRY_UNKNOWN',
    },
    {
      name: 'IBAN check digits',
      patch: (r) =>
        setIn(
          r,
          ['payeeAccountReference', 'paymentInstructionAccount', 'accountId'],
          'DE89370400440532013001',
        ),
      pointer: '/payeeAccountReference/paymentInstructionAccount/accountId',
      code: 'IBAN_INVALID',
    },
    {
      name: 'BIC format of a BICFI party',
      patch: (r) =>
        setIn(r, ['payeeBankReference', 'involvedParty', 'organisationIdentification'], {
          type: 'BICFI',
          identificationNo: 'NOTABIC1X',
        }),
      pointer: '/payeeBankReference/involvedParty/organisationIdentification/identificationNo',
      code: 'BIC_INVALID',
    },
    {
      name: 'schedule start before end',
      patch: (r) =>
        setIn(r, ['paymentInstruction', 'schedule'], {
          frequency: 'MONTHLY',
          startDate: '2027-05-01T00:00:00Z',
          endDate: '2027-01-01T00:00:00Z',
        }),
      pointer: '/paymentInstruction/schedule/endDate',
      code: 'DATE_ORDER',
    },
    {
      name: 'validity window start before end',
      patch: (r) =>
        setIn(r, ['paymentInstruction', 'processingValidityTime'], {
          startDateTime: '2027-05-01T10:00:00+02:00',
          endDateTime: '2027-05-01T07:00:00Z',
        }),
      pointer: '/paymentInstruction/processingValidityTime/endDateTime',
      code: 'DATE_ORDER',
    },
    {
      name: 'uetr must be a UUID (v4 layout)',
      patch: (r) =>
        setIn(r, ['paymentInstructionReference', 'uetr'], '00000000-0000-0000-0000-000000000000'),
      pointer: '/paymentInstructionReference/uetr',
      code: 'UETR_INVALID',
    },
  ];
  for (const rule of rules) {
    test(`business rule: ${rule.name} → 422`, async () => {
      const res = await send(h, 'alice', 'POST', 'payments', rule.patch(samplePayment()));
      assert.equal(res.statusCode, 422, res.body);
      const errors = json(res)['errors'] as { pointer: string; code: string }[];
      assert.deepEqual(
        errors.map((e) => [e.pointer, e.code]),
        [[rule.pointer, rule.code]],
      );
      const validated = await send(
        h,
        undefined,
        'POST',
        'payments/validate',
        rule.patch(samplePayment()),
      );
      assert.equal(validated.statusCode, 201);
      assert.equal(
        (json(validated)['paymentInstructionReference'] as Record<string, unknown>)['status'],
        'FAILED',
      );
    });
  }

  test('schema rules: skipInterval 1 or 2, endDate excludes noOfRepetition, date-time needs an offset', async () => {
    for (const [schedule, pointer, code] of [
      [{ skipInterval: 3 }, '/paymentInstruction/schedule/skipInterval', 'INVALID_ENUM'],
      [
        { endDate: '2027-01-01T00:00:00Z', noOfRepetition: 3 },
        '/paymentInstruction/schedule',
        'CONFLICTING_FIELDS',
      ],
      [
        { startDate: '2027-01-01T00:00:00' },
        '/paymentInstruction/schedule/startDate',
        'INVALID_FORMAT',
      ],
    ] as const) {
      const res = await send(
        h,
        'alice',
        'POST',
        'payments',
        setIn(samplePayment(), ['paymentInstruction', 'schedule'], schedule),
      );
      assert.equal(res.statusCode, 400);
      assert.deepEqual(
        (json(res)['errors'] as { pointer: string; code: string }[]).map((e) => [
          e.pointer,
          e.code,
        ]),
        [[pointer, code]],
      );
    }
  });
});
