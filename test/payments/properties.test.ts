// Property tests (fast-check): generated valid records are accepted and round-trip unchanged through
// create → get; a single-field corruption is rejected naming exactly that field.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readOpenApiDocument } from '../../src/payments/http/documents.js';
import { countryCodes } from '../../src/payments/domain/countries.js';
import { forEachStore, openHarness, send, json, type Harness, holdAccount } from './harness.js';

const schemas = (readOpenApiDocument('payment-order')['components'] as Record<string, unknown>)[
  'schemas'
] as Record<string, Record<string, unknown>>;
const props = (name: string) =>
  schemas[name]?.['properties'] as Record<string, Record<string, unknown>>;
const enumOf = (values: unknown): fc.Arbitrary<string> => fc.constantFrom(...(values as string[]));
const enumAt = (schema: string, prop: string) => enumOf(props(schema)[prop]?.['enum']);
const enumNamed = (schema: string) => enumOf(schemas[schema]?.['enum']);

const CURRENCIES: [string, number][] = [
  ['EUR', 2],
  ['USD', 2],
  ['JPY', 0],
  ['KWD', 3],
  ['CHF', 2],
];
const IBANS = [
  'DE89370400440532013000',
  'GB29NWBK60161331926819',
  'FR1420041010050500013M02606',
  'NL91ABNA0417164300',
  'CH9300762011623852957',
];
const text = (max: number) => fc.string({ minLength: 1, maxLength: max });

const amountArb = fc.constantFrom(...CURRENCIES).chain(([currency, minor]) =>
  fc.integer({ min: 1, max: 10_000_000_000 }).map((units) => ({
    instructedAmount: units / 10 ** minor,
    instructedCurrency: currency,
  })),
);

const partyArb = fc.record(
  {
    partyName: text(140),
    partyType: enumAt('InvolvedParty', 'partyType'),
    partyInvolvementType: enumAt('InvolvedParty', 'partyInvolvementType'),
    reference: text(35),
    address: fc.record(
      {
        country: fc.constantFrom(...countryCodes),
        townName: text(35),
        type: enumAt('Address', 'type'),
        primary: fc.boolean(),
      },
      { requiredKeys: ['country'] },
    ),
    personIdentifications: fc.array(fc.record({ id: text(35), type: enumNamed('PersonIdType') }), {
      maxLength: 3,
    }),
  },
  { requiredKeys: ['partyName', 'partyType'] },
);

const accountArb = fc.record({
  paymentInstructionAccount: fc.record(
    {
      accountId: fc.constantFrom(...IBANS),
      numberType: fc.constant('IBAN'),
      accountType: enumAt('PaymentInstructionAccount', 'accountType'),
      accountSubType: enumAt('PaymentInstructionAccount', 'accountSubType'),
    },
    { requiredKeys: ['accountId'] },
  ),
});

// Valid records obey the business rules too: payer and payee accounts differ, and a SEPA local
// instrument goes with EUR (SEPA_… instruments name the scheme) and the SEPA scheme rules (issue 26,
// item 3): charge bearer SLEV or none, names of at most 70 characters, texts in the SEPA character set.
const SEPA_TEXT = /^[A-Za-z0-9/\-?:().,'+ ]*$/;
const sepaTexts = (r: Record<string, unknown>): unknown[] => {
  const at = (...path: string[]) =>
    path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], r);
  return [
    at('payerReference', 'involvedParty', 'partyName'),
    at('payeeReference', 'involvedParty', 'partyName'),
    at('paymentProcessingConfiguration', 'remittanceInfo', 'content'),
    at('paymentInstructionReference', 'etoeIdentification'),
    at('paymentInstructionReference', 'reference'),
  ];
};
const keepsSepaRules = (r: Record<string, unknown>): boolean => {
  const instruction = r['paymentInstruction'] as Record<string, unknown>;
  const remittance = (r['paymentProcessingConfiguration'] as Record<string, unknown>)[
    'remittanceInfo'
  ] as Record<string, unknown> | undefined;
  const etoe = String(
    (r['paymentInstructionReference'] as Record<string, unknown> | undefined)?.[
      'etoeIdentification'
    ] ?? '',
  );
  return (
    (instruction['chargeBearer'] ?? 'SLEV') === 'SLEV' &&
    sepaTexts(r).every((t) => t === undefined || SEPA_TEXT.test(String(t))) &&
    [r['payerReference'], r['payeeReference']].every(
      (p) =>
        String(
          (p as Record<string, Record<string, unknown>> | undefined)?.['involvedParty']?.[
            'partyName'
          ] ?? '',
        ).length <= 70,
    ) &&
    (remittance?.['type'] !== 'STRUCTURED' || String(remittance['content'] ?? '').length <= 35) &&
    !(etoe.startsWith('/') || etoe.endsWith('/') || etoe.includes('//'))
  );
};
const isValidRecord = (r: Record<string, unknown>): boolean => {
  const account = (name: string) =>
    ((r[name] as Record<string, Record<string, unknown>>)['paymentInstructionAccount'] ?? {})[
      'accountId'
    ];
  const instruction = r['paymentInstruction'] as Record<string, Record<string, unknown>>;
  const config = r['paymentProcessingConfiguration'] as Record<string, unknown>;
  const sepa = String(config['localInstrument']).startsWith('SEPA_');
  return (
    account('payerAccountReference') !== account('payeeAccountReference') &&
    (!sepa || (instruction['amount']?.['instructedCurrency'] === 'EUR' && keepsSepaRules(r)))
  );
};

const recordArb = fc
  .record(
    {
      payerAccountReference: accountArb,
      payeeAccountReference: accountArb,
      payeeReference: fc.record({ involvedParty: partyArb }),
      payerReference: fc.record({ involvedParty: partyArb }),
      paymentInstruction: fc.record(
        {
          amount: amountArb,
          chargeBearer: enumNamed('ChargeBearer'),
          priority: enumNamed('Priority'),
          clearingChannel: enumAt('PaymentInstruction', 'clearingChannel'),
          instructionType: enumNamed('TransactionCode'),
          creditDebtIndicator: enumAt('PaymentInstruction', 'creditDebtIndicator'),
          directionType: enumAt('PaymentInstruction', 'directionType'),
        },
        { requiredKeys: ['amount', 'chargeBearer'] },
      ),
      paymentProcessingConfiguration: fc.record(
        {
          localInstrument: enumAt('PaymentProcessingConfiguration', 'localInstrument'),
          paymentArrangement: fc.record(
            {
              serviceType: enumAt('PaymentArrangement', 'serviceType'),
              paymentType: enumNamed('TransactionCode'),
              categoryPurpose: enumAt('PaymentArrangement', 'categoryPurpose'),
              paymentSeq: enumAt('PaymentArrangement', 'paymentSeq'),
            },
            { requiredKeys: [] },
          ),
          remittanceInfo: fc.record({ type: enumAt('RemittanceInfo', 'type'), content: text(140) }),
        },
        { requiredKeys: ['localInstrument'] },
      ),
      paymentInstructionReference: fc.record(
        {
          reference: text(35),
          description: text(140),
          etoeIdentification: text(35),
          uetr: fc.uuid({ version: 4 }),
        },
        { requiredKeys: [] },
      ),
      customFields: fc.dictionary(
        // __proto__ is refused by design (FORBIDDEN_PROPERTY_NAME; see negative.test.ts).
        fc.string({ minLength: 1, maxLength: 10 }).filter((key) => key !== '__proto__'),
        fc.oneof(fc.string(), fc.integer(), fc.boolean()),
        { maxKeys: 5 },
      ),
    },
    {
      requiredKeys: [
        'payerAccountReference',
        'payeeAccountReference',
        'payeeReference',
        'paymentInstruction',
        'paymentProcessingConfiguration',
      ],
    },
  )
  .filter(isValidRecord);

/** Fields the service owns in paymentInstructionReference; removed before comparing. */
function withoutServerFields(
  record: Record<string, unknown>,
  submitted: Record<string, unknown>,
): Record<string, unknown> {
  const copy = structuredClone(record);
  const ref = { ...(copy['paymentInstructionReference'] as Record<string, unknown>) };
  const sent = (submitted['paymentInstructionReference'] ?? {}) as Record<string, unknown>;
  for (const f of ['identification', 'status', 'reason', 'usedMechanism']) delete ref[f];
  if (sent['uetr'] === undefined) delete ref['uetr'];
  if (Object.keys(ref).length === 0 && submitted['paymentInstructionReference'] === undefined)
    delete copy['paymentInstructionReference'];
  else copy['paymentInstructionReference'] = ref;
  return copy;
}

const CORRUPTIONS: [string[], unknown, string][] = [
  [['paymentInstruction', 'amount', 'instructedCurrency'], 'eur', 'INVALID_FORMAT'],
  [['paymentInstruction', 'amount', 'instructedAmount'], -1, 'OUT_OF_RANGE'],
  [['paymentInstruction', 'chargeBearer'], 'BOTH', 'INVALID_ENUM'],
  [['payeeReference', 'involvedParty', 'partyType'], 'ROBOT', 'INVALID_ENUM'],
  [['payeeReference', 'involvedParty', 'partyName'], '', 'TOO_SHORT'],
  [['paymentProcessingConfiguration', 'localInstrument'], 'TELEPATHY', 'INVALID_ENUM'],
  [['payerAccountReference', 'paymentInstructionAccount', 'accountId'], 'X'.repeat(35), 'TOO_LONG'],
  [['payeeReference', 'involvedParty', 'address', 'country'], 'Germany', 'INVALID_FORMAT'],
];

forEachStore('properties', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind);
    // prop-user holds every generated payer account, with more than all generated amounts together.
    for (const iban of IBANS)
      await holdAccount(h.db, 'prop-user', iban, { openingBalance: '1000000000000.00' });
  });
  after(async () => h.close());

  test('generated valid records are accepted and round-trip unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(recordArb, async (record) => {
        const created = await send(h, 'prop-user', 'POST', 'payments', record);
        assert.equal(created.statusCode, 201, created.body);
        const body = json(created);
        assert.deepEqual(withoutServerFields(body, record), JSON.parse(JSON.stringify(record)));
        const id = String(
          (body['paymentInstructionReference'] as Record<string, unknown>)['identification'],
        );
        const got = await send(h, 'prop-user', 'GET', `payments/${id}`);
        assert.deepEqual(json(got), body);
      }),
      { numRuns: 40 },
    );
  });

  test('a single-field corruption is rejected naming exactly that field', async () => {
    await fc.assert(
      fc.asyncProperty(
        recordArb,
        fc.constantFrom(...CORRUPTIONS),
        async (record, [path, value, code]) => {
          const corrupted = structuredClone(record) as Record<string, unknown>;
          let node = corrupted;
          for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
          node[path[path.length - 1] as string] = value;
          const res = await send(h, 'prop-user', 'POST', 'payments', corrupted);
          assert.equal(res.statusCode, 400);
          const errors = json(res)['errors'] as { pointer: string; code: string }[];
          assert.deepEqual(
            errors.map((e) => [e.pointer, e.code]),
            [[`/${path.join('/')}`, code]],
          );
        },
      ),
      { numRuns: 40 },
    );
  });
});
