import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import {
  accountsDocumentPath,
  componentSchemaBundle,
  loadOpenApiDocument,
  paymentOrderDocumentPath,
} from '../../src/payments/openapi/load.js';
import { packageRoot } from '../../src/shared/package-root.js';

type Json = Record<string, unknown>;

const addFormats = addFormatsModule.default;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function at(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (Array.isArray(current)) current = current[Number(key)];
    else if (isRecord(current)) current = current[key];
    else return undefined;
  }
  return current;
}

/**
 * The specification's enumerations, written down by the project in its own fixture
 * (test/fixtures/payment-order-enums.json) so that this test reads nothing outside the repository.
 */
const specEnums: Record<string, unknown> = JSON.parse(
  readFileSync(path.join(packageRoot(), 'test', 'fixtures', 'payment-order-enums.json'), 'utf8'),
) as Record<string, unknown>;

function specList(name: string): string[] {
  const list = specEnums[name];
  assert.ok(
    Array.isArray(list) && list.every((v) => typeof v === 'string'),
    `fixture has no list ${name}`,
  );
  return list as string[];
}

function assertSameList(actual: unknown, expected: string[], label: string): void {
  assert.ok(Array.isArray(actual), `${label}: enum is not an array`);
  assert.equal(actual.length, expected.length, `${label}: count`);
  assert.equal(new Set(actual).size, actual.length, `${label}: duplicates`);
  assert.deepEqual([...actual].sort(), [...expected].sort(), label);
}

const po = await loadOpenApiDocument(paymentOrderDocumentPath);
const accounts = await loadOpenApiDocument(accountsDocumentPath);

/** The schema of `property` in component `schema`, following one $ref to a component. */
function propertySchema(doc: Json, schema: string, property: string): Json {
  const found = at(doc, 'components', 'schemas', schema, 'properties', property);
  assert.ok(isRecord(found), `${schema}.${property} missing`);
  const ref = found['$ref'];
  if (typeof ref === 'string') {
    const target = at(doc, 'components', 'schemas', ref.replace('#/components/schemas/', ''));
    assert.ok(isRecord(target), `${ref} missing`);
    return target;
  }
  return found;
}

function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

test('packageRoot finds the repository and the document paths point into src/', () => {
  assert.ok(existsSync(path.join(packageRoot(), 'package.json')));
  assert.equal(
    paymentOrderDocumentPath,
    path.join(packageRoot(), 'src', 'payments', 'openapi', 'payment-order.yaml'),
  );
  assert.ok(existsSync(accountsDocumentPath));
});

test('both documents are valid OpenAPI 3.1 (swagger-parser)', async () => {
  for (const file of [paymentOrderDocumentPath, accountsDocumentPath]) {
    const api = await SwaggerParser.validate(file);
    assert.equal(at(api, 'openapi'), '3.1.0', file);
  }
  assert.equal(po['jsonSchemaDialect'], 'https://json-schema.org/draft/2020-12/schema');
  assert.deepEqual(at(po, 'servers'), [
    {
      url: 'http://127.0.0.1:8081/payments/payment-order/v1',
      description: 'Local payment service started by `toolgate start`.',
    },
  ]);
  assert.equal(at(accounts, 'servers', '0', 'url'), 'http://127.0.0.1:8081/accounts/v1');
});

const bearer = [{ bearerAuth: [] }];
const expectedOperations: [Json, string, string, string, unknown][] = [
  [po, 'post', '/payments', 'createPayment', bearer],
  [po, 'get', '/payments', 'listPayments', bearer],
  [po, 'get', '/payments/{externalReferenceNo}', 'getPayment', bearer],
  [po, 'put', '/payments/{externalReferenceNo}', 'updatePayment', bearer],
  [po, 'post', '/payments/{externalReferenceNo}/cancel', 'cancelPayment', bearer],
  [po, 'get', '/payments/{externalReferenceNo}/history', 'getPaymentHistory', bearer],
  [po, 'post', '/payments/validate', 'validatePayment', []],
  [po, 'post', '/payments/fetch-fees', 'fetchPaymentFees', []],
  [po, 'post', '/payments/fetch-bank-details', 'fetchBankDetails', [{ apiKeyAuth: [] }]],
  [accounts, 'get', '/me/balance', 'getMyAccountBalance', bearer],
  [accounts, 'get', '/me/transactions', 'getMyTransactionHistory', bearer],
];
const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

function allOperations(doc: Json): { method: string; path: string; op: Json }[] {
  const paths = doc['paths'];
  assert.ok(isRecord(paths));
  const found: { method: string; path: string; op: Json }[] = [];
  for (const [p, item] of Object.entries(paths)) {
    for (const method of methods) {
      const op = at(item, method);
      if (isRecord(op)) found.push({ method, path: p, op });
    }
  }
  return found;
}

test('every contracted operation exists with its method, path and security, and nothing else', () => {
  for (const [doc, method, p, operationId, security] of expectedOperations) {
    const op = at(doc, 'paths', p, method);
    assert.ok(isRecord(op), `${method.toUpperCase()} ${p} missing`);
    assert.equal(op['operationId'], operationId);
    assert.deepEqual(op['security'], security, `${operationId} security`);
    assert.equal(
      op['x-toolgate-auth'],
      operationId === 'fetchPaymentFees' ? 'optional' : undefined,
      `${operationId} x-toolgate-auth`,
    );
  }
  const listed = [...allOperations(po), ...allOperations(accounts)].map((o) => o.op['operationId']);
  assert.deepEqual(listed.sort(), expectedOperations.map((e) => e[3]).sort());
  assert.deepEqual(
    at(po, 'paths', '/payments/{externalReferenceNo}/cancel', 'post', 'x-mcp-annotations'),
    {
      destructiveHint: true,
    },
  );
  assert.deepEqual(at(po, 'components', 'securitySchemes', 'apiKeyAuth'), {
    type: 'apiKey',
    in: 'header',
    name: 'api-key',
    description: 'Bank directory key. The gateway injects it; agents never see or send it.',
  });
  for (const doc of [po, accounts]) {
    const scheme = at(doc, 'components', 'securitySchemes', 'bearerAuth');
    assert.equal(at(scheme, 'type'), 'http');
    assert.equal(at(scheme, 'scheme'), 'bearer');
    assert.equal(at(scheme, 'bearerFormat'), 'JWT');
  }
});

function resolveParameter(doc: Json, parameter: unknown): Json {
  const ref = at(parameter, '$ref');
  const resolved =
    typeof ref === 'string'
      ? at(doc, 'components', 'parameters', ref.replace('#/components/parameters/', ''))
      : parameter;
  assert.ok(isRecord(resolved), `unresolvable parameter ${String(ref)}`);
  return resolved;
}

test('every operation and parameter has a summary/description an AI model can read', () => {
  for (const doc of [po, accounts]) {
    for (const { method, path: p, op } of allOperations(doc)) {
      const label = `${method} ${p}`;
      assert.ok(typeof op['summary'] === 'string' && op['summary'].length >= 10, label);
      assert.ok(typeof op['description'] === 'string' && op['description'].length >= 80, label);
      const params = [
        ...((at(doc, 'paths', p, 'parameters') as unknown[] | undefined) ?? []),
        ...((op['parameters'] as unknown[] | undefined) ?? []),
      ];
      for (const param of params) {
        const resolved = resolveParameter(doc, param);
        const description = resolved['description'];
        assert.ok(
          typeof description === 'string' && description.length >= 20,
          `${label} ${String(resolved['name'])}`,
        );
      }
    }
  }
});

test('mutating operations take the common headers; update takes If-Match', () => {
  for (const { method, path: p, op } of allOperations(po)) {
    if (method === 'get') continue;
    const names = ((op['parameters'] as unknown[] | undefined) ?? []).map(
      (param) => resolveParameter(po, param)['name'],
    );
    for (const header of ['Idempotent-Request-Key', 'Timestamp', 'Used-Mechanism']) {
      assert.ok(names.includes(header), `${method} ${p} lacks ${header}`);
    }
    assert.equal(
      names.includes('If-Match'),
      op['operationId'] === 'updatePayment',
      `${p} If-Match`,
    );
  }
  const key = at(po, 'components', 'parameters', 'IdempotentRequestKey');
  assert.match(String(at(key, 'description')), /Recommended/);
  assert.match(String(at(key, 'description')), /Idempotency-Key/);
});

test('enum lists equal the specification exactly', () => {
  const transactionCodes = specList('TransactionCode');
  assert.equal(transactionCodes.length, 90);
  assertSameList(
    at(po, 'components', 'schemas', 'TransactionCode', 'enum'),
    transactionCodes,
    'TransactionCode',
  );
  assert.equal(
    at(po, 'components', 'schemas', 'PaymentInstruction', 'properties', 'instructionType', '$ref'),
    '#/components/schemas/TransactionCode',
  );
  assert.equal(
    at(po, 'components', 'schemas', 'PaymentArrangement', 'properties', 'paymentType', '$ref'),
    '#/components/schemas/TransactionCode',
  );

  const localInstruments = specList('localInstrument');
  assert.ok(localInstruments.length > 100);
  assertSameList(
    propertySchema(po, 'PaymentProcessingConfiguration', 'localInstrument')['enum'],
    localInstruments,
    'localInstrument',
  );

  const organisationIdTypes = specList('OrganisationIdType');
  assert.ok(organisationIdTypes.includes('BANK_BRANCH_CODE'));
  assertSameList(
    at(po, 'components', 'schemas', 'OrganisationIdType', 'enum'),
    organisationIdTypes,
    'OrganisationIdType',
  );

  const personIdTypes = specList('PersonIdType');
  assert.equal(personIdTypes.length, 10);
  assertSameList(
    at(po, 'components', 'schemas', 'PersonIdType', 'enum'),
    personIdTypes,
    'PersonIdType',
  );

  const involvement = specList('partyInvolvementType');
  assert.ok(involvement.includes('CORRESPONDEBT_AGNET'));
  assertSameList(
    propertySchema(po, 'InvolvedParty', 'partyInvolvementType')['enum'],
    involvement,
    'partyInvolvementType',
  );

  const idTypes = specList('identificationType');
  assertSameList(
    propertySchema(po, 'BankLookupRequest', 'identificationType')['enum'],
    idTypes,
    'identificationType',
  );

  const states = specList('paymentStatus');
  assertSameList(at(po, 'components', 'schemas', 'PaymentStatusValue', 'enum'), states, 'status');
  assertSameList(
    at(po, 'components', 'schemas', 'PaymentStatus', 'enum'),
    [...states, null] as string[],
    'nullable status',
  );

  const tableEnums: [string, string, string][] = [
    ['partyType', 'InvolvedParty', 'partyType'],
    ['type', 'Address', 'type'],
    ['accountType', 'PaymentInstructionAccount', 'accountType'],
    ['accountSubType', 'PaymentInstructionAccount', 'accountSubType'],
    ['involvedAccountType', 'PaymentInstructionAccount', 'involvedAccountType'],
    ['chargeBearer', 'PaymentInstruction', 'chargeBearer'],
    ['chargeBearer', 'FeeQueryRecord', 'chargeBearer'],
    ['clearingChannel', 'PaymentInstruction', 'clearingChannel'],
    ['priority', 'PaymentInstruction', 'priority'],
    ['priority', 'FeeQueryRecord', 'priority'],
    ['creditDebtIndicator', 'PaymentInstruction', 'creditDebtIndicator'],
    ['directionType', 'PaymentInstruction', 'directionType'],
    ['amountType', 'Amount', 'amountType'],
    ['frequency', 'Schedule', 'frequency'],
    ['serviceType', 'PaymentArrangement', 'serviceType'],
    ['paymentMethod', 'PaymentArrangement', 'paymentMethod'],
    ['categoryPurpose', 'PaymentArrangement', 'categoryPurpose'],
    ['paymentSeq', 'PaymentArrangement', 'paymentSeq'],
    ['cancellationType', 'CancellationRequest', 'cancellationType'],
    ['status', 'BankDetails', 'status'],
  ];
  for (const [specName, schema, property] of tableEnums) {
    assertSameList(
      propertySchema(po, schema, property)['enum'],
      specList(specName),
      `${schema}.${property}`,
    );
  }
  assertSameList(
    propertySchema(po, 'RemittanceInfo', 'type')['enum'],
    ['STRUCTURED', 'UNSTRUCTURED'],
    'remittance type',
  );
  assertSameList(
    propertySchema(po, 'ExchangeRate', 'rateType')['enum'],
    ['ACTUAL', 'INDICATIVE', 'AGREED'],
    'rateType',
  );
  assert.deepEqual(propertySchema(po, 'Schedule', 'skipInterval')['enum'], [1, 2]);
});

const poId = 'https://toolgate.invalid/payment-order.json';
const accountsId = 'https://toolgate.invalid/accounts.json';

function componentNames(doc: Json): string[] {
  const schemas = at(doc, 'components', 'schemas');
  assert.ok(isRecord(schemas));
  return Object.keys(schemas);
}

test('every component and parameter schema compiles with Ajv 2020 in strict mode', () => {
  for (const [doc, id] of [
    [po, poId],
    [accounts, accountsId],
  ] as const) {
    const ajv = newAjv();
    ajv.addSchema(componentSchemaBundle(doc, id));
    const names = componentNames(doc);
    assert.ok(names.length > 5);
    for (const name of names)
      assert.equal(typeof ajv.compile({ $ref: `${id}#/$defs/${name}` }), 'function', name);
    for (const { op } of allOperations(doc)) {
      for (const param of (op['parameters'] as unknown[] | undefined) ?? []) {
        const schema = JSON.parse(
          JSON.stringify(resolveParameter(doc, param)['schema']).replaceAll(
            '#/components/schemas/',
            `${id}#/$defs/`,
          ),
        ) as Json;
        assert.equal(typeof ajv.compile(schema), 'function');
      }
    }
  }
  for (const name of [
    'PaymentRecord',
    'PartyReference',
    'InvolvedParty',
    'Address',
    'AccountReference',
    'PaymentInstructionAccount',
    'PaymentInstruction',
    'Amount',
    'PaymentDates',
    'ProcessingValidityTime',
    'Schedule',
    'ExchangeRate',
    'AppliedFee',
    'PaymentProcessingConfiguration',
    'PaymentArrangement',
    'RemittanceInfo',
    'PaymentInstructionReference',
    'CancellationRequest',
    'CancellationResult',
    'FeeQueryRecord',
    'FeeDate',
    'BankLookupRequest',
    'BankDetails',
    'PaymentList',
    'Problem',
  ]) {
    assert.ok(componentNames(po).includes(name), name);
  }
});

let lastErrors = '';

function validatorFor(doc: Json, id: string): (name: string, value: unknown) => boolean {
  const ajv = newAjv();
  ajv.addSchema(componentSchemaBundle(doc, id));
  return (name, value) => {
    const validate = ajv.getSchema(`${id}#/$defs/${name}`);
    assert.ok(validate, name);
    const ok = validate(value) === true;
    lastErrors = ajv.errorsText(validate.errors);
    return ok;
  };
}

const account = (iban: string, involved: string): Json => ({
  paymentInstructionAccount: {
    accountId: iban,
    numberType: 'IBAN',
    accountType: 'DEPOSIT',
    accountSubType: 'CURRENT_ACCOUNT',
    involvedAccountType: involved,
  },
});

function fullPaymentRecord(): Json {
  return {
    payerReference: {
      involvedParty: {
        reference: 'CUST-0001',
        partyName: 'Erika Mustermann',
        partyType: 'PERSON',
        partyInvolvementType: 'DEBTOR',
        address: {
          type: 'RESIDENTIAL',
          primary: true,
          streetName: 'Heidestrasse',
          buildingNumber: '17',
          postalCode: '51147',
          townName: 'Koeln',
          country: 'DE',
        },
        personIdentifications: [{ id: 'T22000129', type: 'IDENTITY_CARD_NUMBER' }],
      },
    },
    payeeReference: {
      involvedParty: {
        partyName: 'Acme Energy GmbH',
        partyType: 'ORGANISATION',
        partyInvolvementType: 'CREDITOR',
        organisationIdentification: { identificationNo: '5299009N0LAZ3S6X0W72', type: 'LEI' },
      },
    },
    payerBankReference: {
      involvedParty: { partyName: 'Commerzbank', partyInvolvementType: 'DEBTOR_AGENT' },
    },
    payeeBankReference: {
      involvedParty: {
        partyName: 'Correspondent Bank',
        partyInvolvementType: 'CORRESPONDEBT_AGNET',
        organisationIdentification: { identificationNo: 'COBADEFFXXX', type: 'BICFI' },
      },
    },
    payerAccountReference: account('DE89370400440532013000', 'DEBTOR'),
    payeeAccountReference: account('FR1420041010050500013M02606', 'CREDITOR'),
    interestedParties: [
      { partyName: 'Max Mustermann', partyType: 'PERSON', partyInvolvementType: 'ULTIMATE_DEBTOR' },
    ],
    paymentInstruction: {
      chargeBearer: 'SHAR',
      amount: {
        amountType: 'PRINCIPAL',
        instructedAmount: 1250.5,
        instructedCurrency: 'EUR',
        transferAmount: 1250.5,
        transferCurrency: 'EUR',
      },
      paymentDates: {
        requestedExecutionDate: '2026-12-01T09:00:00Z',
        valueDate: '2026-12-01T00:00:00+01:00',
      },
      clearingChannel: 'RTGS',
      requestedMechanism: 'SEPA',
      processingValidityTime: {
        startDateTime: '2026-12-01T00:00:00Z',
        endDateTime: '2026-12-02T00:00:00Z',
      },
      priority: 'NORM',
      schedule: {
        startDate: '2026-12-01T00:00:00Z',
        frequency: 'MONTHLY',
        noOfRepetition: 12,
        executeOn: '2026-12-01T09:00:00Z',
        skipInterval: 1,
      },
      creditDebtIndicator: 'DEBIT',
      directionType: 'OUTBOUND',
      instructionType: 'GDS',
      exchangeRate: { rateType: 'AGREED', rate: 1.0825, currency: 'USD' },
      appliedFee: [{ amount: 0.5, currency: 'EUR', type: 'TRANSFER_FEE' }],
    },
    paymentProcessingConfiguration: {
      localInstrument: 'INSTANT_CREDIT_TRANSFER',
      paymentArrangement: {
        serviceType: 'STANDING_ORDER_SERVICE',
        paymentType: 'PAY',
        paymentMethod: 'TRF',
        categoryPurpose: 'SUPP',
        purpose: 'Monthly energy bill',
        paymentSeq: 'RECURRING',
      },
      remittanceInfo: { type: 'UNSTRUCTURED', content: 'Invoice 2026-11-4711' },
    },
    paymentInstructionReference: {
      identification: 'PO-20261122-000042',
      externalId: 'erp-77812',
      reference: 'ENERGY-NOV',
      description: 'Energy bill November',
      usedMechanism: 'SEPA_INST',
      status: 'SCHEDULED',
      reason: null,
      uetr: 'eb6305c9-1f7f-49de-aed0-16487c27b42d',
      etoeIdentification: 'E2E-20261122-0042',
    },
    customFields: { channel: 'mobile', campaign: { id: 7 } },
  };
}

type Mutation = [string, (record: Json) => void];

function child(value: unknown, ...keys: string[]): Json {
  const found = at(value, ...keys);
  assert.ok(isRecord(found), keys.join('.'));
  return found;
}

const brokenRecords: Mutation[] = [
  ['bad enum', (r) => (child(r, 'paymentInstruction')['priority'] = 'URGENT')],
  ['bad transaction code', (r) => (child(r, 'paymentInstruction')['instructionType'] = 'XYZ')],
  ['negative amount', (r) => (child(r, 'paymentInstruction', 'amount')['instructedAmount'] = -5)],
  ['zero amount', (r) => (child(r, 'paymentInstruction', 'amount')['transferAmount'] = 0)],
  ['unknown property', (r) => (r['unexpected'] = true)],
  [
    'unknown nested property',
    (r) => (child(r, 'payerAccountReference', 'paymentInstructionAccount')['iban'] = 'x'),
  ],
  ['bad currency', (r) => (child(r, 'paymentInstruction', 'amount')['instructedCurrency'] = 'eur')],
  [
    'bad country',
    (r) => (child(r, 'payerReference', 'involvedParty', 'address')['country'] = 'DEU'),
  ],
  ['skipInterval 3', (r) => (child(r, 'paymentInstruction', 'schedule')['skipInterval'] = 3)],
  [
    'skipInterval as string',
    (r) => (child(r, 'paymentInstruction', 'schedule')['skipInterval'] = '1'),
  ],
  [
    'endDate with noOfRepetition',
    (r) => (child(r, 'paymentInstruction', 'schedule')['endDate'] = '2027-12-01T00:00:00Z'),
  ],
  ['noOfRepetition 0', (r) => (child(r, 'paymentInstruction', 'schedule')['noOfRepetition'] = 0)],
  ['bad uetr', (r) => (child(r, 'paymentInstructionReference')['uetr'] = 'not-a-uuid')],
  [
    'bad date-time',
    (r) => (child(r, 'paymentInstruction', 'paymentDates')['valueDate'] = '01.12.2026'),
  ],
  ['bad status', (r) => (child(r, 'paymentInstructionReference')['status'] = 'DONE')],
  [
    'too long name',
    (r) => (child(r, 'payeeReference', 'involvedParty')['partyName'] = 'x'.repeat(141)),
  ],
  [
    'too long remittance',
    (r) =>
      (child(r, 'paymentProcessingConfiguration', 'remittanceInfo')['content'] = 'x'.repeat(141)),
  ],
  ['customFields key too long', (r) => (child(r, 'customFields')['k'.repeat(65)] = 1)],
  [
    'too many customFields',
    (r) =>
      (r['customFields'] = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]))),
  ],
  [
    'correctly spelt correspondent agent',
    (r) =>
      (child(r, 'payeeBankReference', 'involvedParty')['partyInvolvementType'] =
        'CORRESPONDENT_AGENT'),
  ],
];

test('a realistic full payment record validates and one broken field makes it fail', () => {
  const valid = validatorFor(po, poId);
  assert.equal(valid('PaymentRecord', fullPaymentRecord()), true, lastErrors);
  assert.equal(valid('PaymentCreateRequest', fullPaymentRecord()), true, lastErrors);
  const withEndDate = fullPaymentRecord();
  const schedule = child(withEndDate, 'paymentInstruction', 'schedule');
  delete schedule['noOfRepetition'];
  schedule['endDate'] = '2027-12-01T00:00:00Z';
  assert.equal(valid('PaymentRecord', withEndDate), true, 'endDate alone is fine');
  const nullStatus = fullPaymentRecord();
  child(nullStatus, 'paymentInstructionReference')['status'] = null;
  assert.equal(valid('PaymentRecord', nullStatus), true, 'status may be null');
  for (const [label, mutate] of brokenRecords) {
    const record = fullPaymentRecord();
    mutate(record);
    assert.equal(valid('PaymentRecord', record), false, label);
  }
});

test('request schemas enforce their required fields and conditional rules', () => {
  const valid = validatorFor(po, poId);
  const noAmount = fullPaymentRecord();
  delete child(noAmount, 'paymentInstruction', 'amount')['instructedCurrency'];
  assert.equal(valid('PaymentRecord', noAmount), true);
  assert.equal(valid('PaymentCreateRequest', noAmount), false);
  const noPayee = fullPaymentRecord();
  delete noPayee['payeeAccountReference'];
  assert.equal(valid('PaymentCreateRequest', noPayee), false);

  assert.equal(valid('CancellationRequest', {}), true);
  assert.equal(valid('CancellationRequest', { cancellationType: 'COMPLETE_SCHEDULE' }), true);
  assert.equal(
    valid('CancellationRequest', { cancellationType: 'MULTIPLE_PAYMENT_INSTANCE' }),
    false,
  );
  assert.equal(
    valid('CancellationRequest', {
      cancellationType: 'MULTIPLE_PAYMENT_INSTANCE',
      noOfInstances: '3',
    }),
    true,
  );
  for (const noOfInstances of ['0', '03', '10000', 'three', 3]) {
    assert.equal(valid('CancellationRequest', { noOfInstances }), false, String(noOfInstances));
  }
  assert.equal(
    valid('CancellationResult', {
      status: 'failure',
      reasonCode: 'ALREADY_EXECUTED',
      reasonDescription: 'Too late',
    }),
    true,
  );

  assert.equal(
    valid('BankLookupRequest', {
      identificationNumber: '021000021',
      identificationType: 'ROUTING_NUMBER',
    }),
    true,
  );
  assert.equal(
    valid('BankLookupRequest', {
      identificationNumber: 'DE89370400440532013000',
      identificationType: 'IBAN',
      country: 'DE',
    }),
    true,
  );
  assert.equal(valid('BankLookupRequest', { identificationNumber: '021000021' }), false);
  assert.equal(valid('BankLookupRequest', { identificationType: 'SWIFT_CODE' }), false);
  assert.equal(
    valid('BankLookupRequest', { identificationNumber: 'x', identificationType: 'the service' }),
    false,
  );

  assert.equal(
    valid('FeeQueryRecord', {
      chargeBearer: 'DEBT',
      amount: { instructedAmount: 10, instructedCurrency: 'EUR' },
      dates: [{ dateTime: '2026-12-01T09:00:00Z', dateType: 'REQUESTED_EXECUTION_DATE' }],
    }),
    true,
  );
  assert.equal(valid('FeeQueryRecord', { dates: [{ dateType: 'SOMEDAY' }] }), false);
  assert.equal(
    valid('BankDetails', {
      bankName: 'JPMorgan Chase',
      bic: 'CHASUS33',
      status: 'ACTIVE',
      address: { phoneNumber: '+1 212 270 6000', country: 'US' },
    }),
    true,
  );
  assert.equal(valid('BankDetails', { status: 'CLOSED' }), false);
  assert.equal(valid('PaymentList', { items: [fullPaymentRecord()], nextCursor: null }), true);
  assert.equal(valid('PaymentList', { items: [] }), false);
  assert.equal(
    valid('Problem', {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      errors: [
        { pointer: '/paymentInstruction/amount', code: 'required', message: 'amount is required' },
      ],
    }),
    true,
  );
  assert.equal(valid('Problem', { title: 'Bad Request', status: 400 }), false);
});

test('header and query parameter schemas reject malformed values', () => {
  const ajv = newAjv();
  const schemaOf = (name: string): Json => child(po, 'components', 'parameters', name, 'schema');
  const key = ajv.compile(schemaOf('IdempotentRequestKey'));
  assert.equal(key('3f2c1d9e-8a7b-4c6d-9e0f-112233445566'), true);
  for (const bad of ['', 'has space', 'ümlaut', 'x'.repeat(256)])
    assert.equal(key(bad), false, bad);
  const ref = ajv.compile(schemaOf('ExternalReferenceNo'));
  assert.equal(ref('PO-20261122-000042'), true);
  for (const bad of ['', 'a/b', '../x', 'x'.repeat(65)]) assert.equal(ref(bad), false, bad);
  const limit = ajv.compile(schemaOf('Limit'));
  assert.deepEqual(
    [limit(1), limit(100), limit(0), limit(101), limit(2.5)],
    [true, true, false, false, false],
  );
  const timestamp = ajv.compile(schemaOf('Timestamp'));
  assert.deepEqual([timestamp('2026-11-22T09:30:00Z'), timestamp('yesterday')], [true, false]);
});

test('accounts responses validate realistic data and reject broken items', () => {
  const valid = validatorFor(accounts, accountsId);
  const item = {
    id: 'tx-1',
    accountId: 'DE89370400440532013000',
    bookingDate: '2026-11-20',
    valueDate: '2026-11-20',
    amount: 42.1,
    currency: 'EUR',
    creditDebitIndicator: 'DEBIT',
    counterpartyName: 'Acme Energy GmbH',
    remittanceInformation: 'Invoice 4711',
    status: 'BOOKED',
  };
  assert.equal(valid('TransactionList', { items: [item], nextCursor: 'abc' }), true);
  assert.equal(
    valid('TransactionList', {
      items: [{ ...item, creditDebitIndicator: 'OUT' }],
      nextCursor: null,
    }),
    false,
  );
  assert.equal(
    valid('TransactionList', { items: [{ ...item, amount: -1 }], nextCursor: null }),
    false,
  );
  assert.equal(
    valid('TransactionList', {
      items: [{ ...item, bookingDate: '2026-11-20T10:00:00Z' }],
      nextCursor: null,
    }),
    false,
  );
  const balance = {
    accountId: 'DE89370400440532013000',
    currency: 'EUR',
    availableBalance: -10.5,
    bookedBalance: 100,
    asOf: '2026-11-22T05:00:00Z',
  };
  assert.equal(valid('BalanceList', { items: [balance] }), true);
  assert.equal(valid('BalanceList', { items: [{ ...balance, accountId: 'de89 3704' }] }), false);
  assert.equal(valid('BalanceList', { items: [{ ...balance, extra: 1 }] }), false);
});

/** Every `type: object` schema closes its properties, except free-form custom fields and overlays. */
function openObjects(value: unknown, where: string, found: string[]): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => openObjects(v, `${where}/${i}`, found));
    return;
  }
  if (!isRecord(value)) return;
  if (value['type'] === 'object' && value['additionalProperties'] !== false) found.push(where);
  for (const [k, v] of Object.entries(value)) openObjects(v, `${where}/${k}`, found);
}

test('every object schema has additionalProperties: false except customFields', () => {
  for (const doc of [po, accounts]) {
    const found: string[] = [];
    openObjects(at(doc, 'components', 'schemas'), '', found);
    const allowed = found.filter(
      (where) => where === '/CustomFields' || where.startsWith('/PaymentCreateRequest/allOf/1'),
    );
    assert.deepEqual(found, allowed);
  }
  assert.equal(at(po, 'components', 'schemas', 'CustomFields', 'maxProperties'), 50);
});
