// The shown (compact) schemas: repeated subschemas moved to $defs and referenced, nested descriptions and
// lengths left out, big output schemas not shown; and for the demo catalogue, every shown schema compiles
// (its $refs resolve, under 2020-12 and under the draft-07 default of SDK clients) and accepts what the
// full schema accepts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { loadConfig } from '../../../src/config/load.js';
import {
  COMPACT_VIEW,
  MAX_SHOWN_OUTPUT_BYTES,
  compactSchema,
  shownSchemas,
} from '../../../src/gateway/catalogue/compact.js';
import { loadCatalogue } from '../../../src/gateway/catalogue/load.js';
import type { JsonObject, Tool } from '../../../src/gateway/catalogue/types.js';

type FormatsPlugin = (ajv: Ajv | Ajv2020) => Ajv | Ajv2020;
const addFormats: FormatsPlugin =
  (formatsModule as unknown as { default?: FormatsPlugin }).default ??
  (formatsModule as unknown as FormatsPlugin);
const OPENAPI_FORMATS = ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password'];

/** As the gateway validates (arguments.ts), but checking the schema itself too. */
function ajv2020(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  for (const f of OPENAPI_FORMATS) ajv.addFormat(f, true);
  return ajv;
}
/** As the MCP TypeScript SDK 1.x client validates structuredContent: Ajv's default (draft-07) class. */
function ajvDraft07(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  return ajv;
}

const PARTY: JsonObject = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 70, description: 'Name. Long second part.' },
    country: { type: 'string', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2.' },
    kind: { type: 'string', enum: ['PERSON', 'ORGANISATION'] },
  },
};
const TRANSFER: JsonObject = {
  type: 'object',
  additionalProperties: false,
  required: ['body'],
  properties: {
    reference: {
      type: 'string',
      maxLength: 35,
      description: 'Reference. Kept whole: an argument.',
    },
    body: {
      type: 'object',
      description: 'The transfer. Also kept whole.',
      additionalProperties: false,
      required: ['payer', 'payee'],
      properties: {
        payer: structuredClone(PARTY),
        payee: structuredClone(PARTY),
        witnesses: { type: 'array', items: structuredClone(PARTY) },
        note: { type: 'string', maxLength: 140, description: 'Free text. Up to 140 characters.' },
      },
    },
  },
};
const LEAN = { defs: true, nestedDescriptions: false, lengths: false } as const;

test('compactSchema: a repeated subschema moves to $defs under its component name, each copy a $ref', () => {
  const names = new Map([[JSON.stringify(PARTY), 'Party']]);
  const shown = compactSchema(TRANSFER, { ...LEAN, names });
  const body = (shown.properties as Record<string, JsonObject>).body as JsonObject;
  const props = body.properties as Record<string, JsonObject>;
  assert.deepEqual(props.payer, { $ref: '#/$defs/Party' });
  assert.deepEqual(props.payee, { $ref: '#/$defs/Party' });
  assert.deepEqual((props.witnesses as JsonObject).items, { $ref: '#/$defs/Party' });
  assert.deepEqual(shown.$defs, {
    Party: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: {
        name: { type: 'string' },
        country: { type: 'string', pattern: '^[A-Z]{2}$' },
        kind: { type: 'string', enum: ['PERSON', 'ORGANISATION'] },
      },
    },
  });
  assert.ok(JSON.stringify(shown).length < JSON.stringify(TRANSFER).length / 1.5);
});

test('compactSchema: without a component name, a stable name from the positions the copies share', () => {
  const schema: JsonObject = {
    type: 'object',
    properties: {
      body: {
        type: 'object',
        properties: {
          payerAccount: structuredClone(PARTY),
          payeeAccount: structuredClone(PARTY),
        },
      },
    },
  };
  const once = compactSchema(schema, LEAN);
  assert.deepEqual(Object.keys(once.$defs as JsonObject), ['Account']);
  assert.deepEqual(compactSchema(schema, LEAN), once, 'same input, same output');
  const odd = compactSchema(
    {
      type: 'object',
      properties: { b: { type: 'object', properties: { 'x/y': PARTY, 'z~': PARTY } } },
    },
    LEAN,
  );
  assert.deepEqual(Object.keys(odd.$defs as JsonObject), ['Xy'], 'JSON-pointer-safe name');
});

test('compactSchema: descriptions stay on the root and the arguments, nested ones and lengths go', () => {
  const shown = compactSchema(TRANSFER, { defs: false, nestedDescriptions: false, lengths: false });
  const props = shown.properties as Record<string, JsonObject>;
  assert.equal(props.reference?.description, 'Reference. Kept whole: an argument.');
  assert.equal(props.reference?.maxLength, undefined);
  const body = props.body as JsonObject;
  assert.equal(body.description, 'The transfer. Also kept whole.');
  const inner = body.properties as Record<string, JsonObject>;
  assert.deepEqual(inner.note, { type: 'string' });
  assert.deepEqual(inner.payer?.properties, {
    name: { type: 'string' },
    country: { type: 'string', pattern: '^[A-Z]{2}$' },
    kind: { type: 'string', enum: ['PERSON', 'ORGANISATION'] },
  });
  assert.equal(JSON.stringify(shown).includes('description":"Name'), false);
  // Every lever off: the schema as it was.
  assert.deepEqual(
    compactSchema(TRANSFER, { defs: false, nestedDescriptions: true, lengths: true }),
    TRANSFER,
  );
});

test('compactSchema: pure; a small or single subschema and an argument of its own stay in place', () => {
  const before = structuredClone(TRANSFER);
  compactSchema(TRANSFER, LEAN);
  assert.deepEqual(TRANSFER, before, 'the full schema is not modified');

  const small = { type: 'string', enum: ['A', 'B'] };
  const args: JsonObject = {
    type: 'object',
    properties: {
      one: structuredClone(PARTY),
      two: structuredClone(PARTY),
      nested: { type: 'object', properties: { a: small, b: small } },
    },
  };
  const shown = compactSchema(args, LEAN);
  assert.equal(shown.$defs, undefined, 'arguments keep their schemas; tiny repeats do not pay');
  assert.equal((shown.properties as Record<string, JsonObject>).one?.type, 'object');
});

test('compactSchema: a schema that already has $defs or $ref is not given another $defs', () => {
  const withRefs: JsonObject = {
    type: 'object',
    $defs: { P: PARTY },
    properties: {
      body: { type: 'object', properties: { a: { $ref: '#/$defs/P' }, b: PARTY, c: PARTY } },
    },
  };
  const shown = compactSchema(withRefs, LEAN);
  assert.deepEqual(Object.keys(shown.$defs as JsonObject), ['P']);
  const body = (shown.properties as Record<string, JsonObject>).body as JsonObject;
  assert.deepEqual((body.properties as Record<string, JsonObject>).b?.type, 'object');
});

test('compactSchema: the shown schema resolves its $refs and accepts what the full one accepts (2020-12 and draft-07)', () => {
  const shown = compactSchema(TRANSFER, LEAN);
  const valid = {
    reference: 'R-1',
    body: {
      payer: { name: 'Ada', country: 'GB', kind: 'PERSON' },
      payee: { name: 'Bob' },
      witnesses: [{ name: 'Cy', kind: 'ORGANISATION' }],
      note: 'thanks',
    },
  };
  const tooLong = { ...valid, reference: 'x'.repeat(36) };
  const badEnum = { ...valid, body: { ...valid.body, payee: { name: 'Bob', kind: 'ROBOT' } } };
  const extra = { ...valid, body: { ...valid.body, payee: { name: 'Bob', age: 3 } } };
  for (const ajv of [ajv2020(), ajvDraft07()]) {
    const full = ajv.compile(TRANSFER);
    const compact = ajv.compile(shown);
    assert.equal(full(valid), true);
    assert.equal(compact(valid), true);
    assert.equal(full(tooLong), false, 'the full schema limits the length');
    assert.equal(compact(tooLong), true, 'the shown one does not (the gateway still does)');
    // Constraints reached through a $ref still hold in the shown schema.
    assert.equal(compact(badEnum), false);
    assert.equal(compact(extra), false);
  }
});

test('shownSchemas: full view is the tool as validated; compact view shows only small outputSchemas', () => {
  const big: JsonObject = {
    type: 'object',
    properties: Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`field${i}`, { type: 'string', format: 'date-time' }]),
    ),
  };
  const small: JsonObject = { type: 'object', properties: { status: { type: 'string' } } };
  const tool = { inputSchema: TRANSFER, outputSchema: big };
  assert.ok(JSON.stringify(big).length > MAX_SHOWN_OUTPUT_BYTES);
  const full = shownSchemas(tool, 'full');
  assert.equal(full.inputSchema, TRANSFER);
  assert.equal(full.outputSchema, big);
  assert.equal(shownSchemas(tool, 'compact').outputSchema, undefined);
  assert.deepEqual(shownSchemas({ ...tool, outputSchema: small }, 'compact').outputSchema, small);
  assert.deepEqual(
    shownSchemas(tool, 'compact').inputSchema,
    compactSchema(TRANSFER, COMPACT_VIEW),
  );
});

// ---- The demo catalogue ----------------------------------------------------------------------------

const IBAN_DE = 'DE89370400440532013000';
const IBAN_GB = 'GB29NWBK60161331926819';
const party = (name: string): JsonObject => ({
  involvedParty: {
    reference: `REF-${name}`,
    partyName: name,
    partyType: 'ORGANISATION',
    partyInvolvementType: 'CREDITOR',
    address: { type: 'BUSINESS', primary: true, streetName: 'Main St', country: 'DE' },
    organisationIdentification: { identificationNo: 'LEI-1', type: 'LEI' },
    personIdentifications: [{ id: 'P-1', type: 'PASSPORT_NUMBER' }],
  },
});
const account = (iban: string): JsonObject => ({
  paymentInstructionAccount: { accountId: iban, numberType: 'IBAN', accountType: 'DEPOSIT' },
});
/** A payment record touching every part the compact view moves to $defs. */
const RECORD: JsonObject = {
  payerAccountReference: account(IBAN_DE),
  payeeAccountReference: account(IBAN_GB),
  payerReference: party('Payer Ltd'),
  payeeReference: party('Payee plc'),
  payerBankReference: party('Bank A'),
  payeeBankReference: party('Bank B'),
  interestedParties: [party('Agent').involvedParty],
  paymentInstruction: {
    amount: { instructedAmount: 125.5, instructedCurrency: 'EUR', amountType: 'PRINCIPAL' },
    chargeBearer: 'SHAR',
    instructionType: 'CSH',
    schedule: { frequency: 'ONCE', startDate: '2026-12-01T09:00:00Z' },
  },
  paymentProcessingConfiguration: {
    localInstrument: 'CREDIT_TRANSFERS',
    paymentArrangement: { paymentType: 'PAY', paymentMethod: 'TRF' },
    remittanceInfo: { type: 'UNSTRUCTURED', content: 'Invoice 42' },
  },
};
const HEADERS = {
  'Idempotent-Request-Key': 'a'.repeat(40),
  Timestamp: '2026-11-22T09:30:00Z',
};

/** Arguments the full schema of each demo tool accepts (checked below), several per tool. */
const VALID: Record<string, readonly unknown[]> = {
  cancelPayment: [
    { externalReferenceNo: 'PO-1' },
    {
      externalReferenceNo: 'PO-1',
      ...HEADERS,
      body: { cancellationType: 'MULTIPLE_PAYMENT_INSTANCE', noOfInstances: '2' },
    },
  ],
  createPayment: [
    { body: RECORD },
    { ...HEADERS, 'Used-Mechanism': 'SEPA', body: { ...RECORD, customFields: { a: 1 } } },
  ],
  validatePayment: [{ body: RECORD }],
  updatePayment: [
    { externalReferenceNo: 'PO-1', body: RECORD },
    { externalReferenceNo: 'PO-1', 'If-Match': '"v2"', body: { paymentInstruction: {} } },
  ],
  fetchPaymentFees: [
    {
      body: {
        payerReference: party('Payer Ltd'),
        payeeReference: party('Payee plc'),
        payerAccountReference: account(IBAN_DE),
        payeeAccountReference: account(IBAN_GB),
        chargeBearer: 'SHAR',
        priority: 'HIGH',
      },
    },
  ],
  fetchBankDetails: [
    { body: { identificationNumber: IBAN_DE, identificationType: 'IBAN' } },
    { body: { identificationNumber: '021000021', identificationType: 'ROUTING_NUMBER' } },
  ],
  getPayment: [{ externalReferenceNo: 'PO-20261122-000042' }],
  getPaymentHistory: [
    { externalReferenceNo: 'PO-20261122-000042' },
    { externalReferenceNo: 'PO-20261122-000042', limit: 10 },
  ],
  listPayments: [{}, { status: 'INITIATED', limit: 5, cursor: 'abc' }],
  getMyAccountBalance: [{}, { accountId: IBAN_DE }],
  getMyTransactionHistory: [{}, { accountId: IBAN_DE, from: '2026-01-01', to: '2026-01-31' }],
};

async function demoTools(): Promise<readonly Tool[]> {
  const config = loadConfig({ env: {} });
  return (await loadCatalogue(config.gateway.backends)).tools;
}

test('demo catalogue: every shown schema compiles and accepts the arguments the full schema accepts', async () => {
  const tools = await demoTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), Object.keys(VALID).sort());
  for (const tool of tools) {
    const shown = shownSchemas(tool, 'compact');
    for (const ajv of [ajv2020(), ajvDraft07()]) {
      const full = ajv.compile(tool.inputSchema);
      const compact = ajv.compile(shown.inputSchema); // throws if a $ref does not resolve
      for (const args of VALID[tool.name] ?? []) {
        assert.equal(full(args), true, `${tool.name}: full accepts ${JSON.stringify(full.errors)}`);
        assert.equal(compact(args), true, `${tool.name}: shown accepts the same arguments`);
      }
      if (shown.outputSchema) ajv.compile(shown.outputSchema);
    }
    for (const ref of JSON.stringify(shown).match(/"#\/\$defs\/[^"]+"/g) ?? []) {
      const name = ref.slice('"#/$defs/'.length, -1);
      assert.ok(
        Object.hasOwn((shown.inputSchema.$defs ?? {}) as JsonObject, name),
        `${tool.name}: ${ref} is defined`,
      );
    }
  }
});

test('demo catalogue: the payment tools share $defs named after the OpenAPI components', async () => {
  const tools = new Map((await demoTools()).map((t) => [t.name, t]));
  const create = shownSchemas(tools.get('createPayment') as Tool, 'compact');
  const defs = Object.keys(create.inputSchema.$defs as JsonObject);
  for (const name of ['InvolvedParty', 'PartyReference', 'AccountReference', 'TransactionCode'])
    assert.ok(defs.includes(name), `${name} in ${defs.join(', ')}`);
  assert.equal(create.outputSchema, undefined, 'the payment record is not shown as output');
  const cancel = shownSchemas(tools.get('cancelPayment') as Tool, 'compact');
  assert.ok(cancel.outputSchema, 'a small outputSchema is shown');
  const ajv = ajv2020();
  assert.equal(ajv.compile(cancel.outputSchema)({ status: 'failure', reasonCode: 'X' }), true);
});

test('compactSchema: nestedClosed false drops additionalProperties:false below the arguments; the root and each argument keep it', () => {
  const shown = compactSchema(TRANSFER, { ...LEAN, defs: false, nestedClosed: false });
  assert.equal(shown.additionalProperties, TRANSFER.additionalProperties);
  const body = (shown.properties as Record<string, JsonObject>).body as JsonObject;
  assert.equal(body.additionalProperties, false, 'an argument keeps its own');
  const payer = (body.properties as Record<string, JsonObject>).payer as JsonObject;
  assert.equal(payer.additionalProperties, undefined, 'a nested object does not');
  assert.deepEqual(payer.required, ['name'], 'everything else of it stays');
  // Only widened: what the full schema accepts, the shown one accepts too; an extra nested field, which
  // the full schema refuses (the gateway validates with it), is accepted by the view.
  const valid = {
    body: { payer: { name: 'Ada', country: 'DE' }, payee: { name: 'Bob', kind: 'PERSON' } },
  };
  const extra = { body: { ...valid.body, payer: { name: 'Ada', nickname: 'A' } } };
  const ajv = new Ajv2020({ strict: false });
  assert.equal(ajv.validate(TRANSFER, valid), true);
  assert.equal(ajv.validate(shown, valid), true);
  assert.equal(ajv.validate(TRANSFER, extra), false);
  assert.equal(ajv.validate(shown, extra), true);
  // The compact view uses this lever.
  assert.equal(COMPACT_VIEW.nestedClosed, false);
});
