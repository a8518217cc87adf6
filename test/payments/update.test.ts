// updatePayment replaces the whole record: an incomplete body is refused (422) instead of erasing the
// stored accounts, parties and references; the status is kept unless the change itself needs another;
// server-set fields sent back are accepted and ignored — by the service and by the gateway's tool schema.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadCatalogue } from '../../src/gateway/catalogue/load.js';
import { ArgumentValidator } from '../../src/gateway/mcp/arguments.js';
import {
  forEachStore,
  openHarness,
  send,
  json,
  type Harness,
  holdSampleAccounts,
} from './harness.js';
import { NOW, sepaCreditTransfer } from './rules/fixtures.js';

type Json = Record<string, unknown>;
const refOf = (body: Json) => body['paymentInstructionReference'] as Json;
const later = (date: string) =>
  sepaCreditTransfer({ instruction: { paymentDates: { requestedExecutionDate: date } } });

forEachStore('update replaces the whole record', (kind) => {
  let h: Harness;
  let clock = NOW;
  before(async () => {
    h = await openHarness(kind, { now: () => clock });
    await holdSampleAccounts(h.db, 'alice');
  });
  after(async () => h.close());
  async function create(record: Json): Promise<{ id: string; body: Json }> {
    clock = NOW;
    const res = await send(h, 'alice', 'POST', 'payments', record);
    assert.equal(res.statusCode, 201, res.body);
    return { id: String(refOf(json(res))['identification']), body: json(res) };
  }

  test('a body with only an amount is refused with 422 naming what is missing; nothing changes', async () => {
    const { id, body } = await create(later('2026-12-01T09:00:00Z'));
    assert.equal(refOf(body)['status'], 'SCHEDULED');
    const res = await send(h, 'alice', 'PUT', `payments/${id}`, {
      paymentInstruction: { amount: { instructedAmount: 99, instructedCurrency: 'EUR' } },
    });
    assert.equal(res.statusCode, 422, res.body);
    const errors = json(res)['errors'] as { pointer: string; code: string }[];
    assert.deepEqual(errors.map((e) => [e.pointer, e.code]).sort(), [
      ['/payeeAccountReference/paymentInstructionAccount/accountId', 'CREDITOR_REQUIRED'],
      ['/payeeReference/involvedParty/partyName', 'CREDITOR_REQUIRED'],
      ['/payerAccountReference/paymentInstructionAccount/accountId', 'PAYMENT_INCOMPLETE'],
    ]);
    const now = await send(h, 'alice', 'GET', `payments/${id}`);
    assert.deepEqual(json(now), body);
    assert.equal(now.headers['etag'], '"v1"');
  });

  test('an update that leaves the dates alone keeps SCHEDULED, even on the execution day', async () => {
    const { id, body } = await create(later('2026-12-01T09:00:00Z'));
    clock = new Date('2026-12-01T07:00:00Z');
    const changed = structuredClone(body);
    (changed['paymentProcessingConfiguration'] as Json)['remittanceInfo'] = {
      type: 'UNSTRUCTURED',
      content: 'Rent December 2026, flat 3',
    };
    const res = await send(h, 'alice', 'PUT', `payments/${id}`, changed);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(refOf(json(res))['status'], 'SCHEDULED');
  });

  test('an update that moves the execution date to a later day makes INITIATED SCHEDULED', async () => {
    const { id, body } = await create(sepaCreditTransfer());
    assert.equal(refOf(body)['status'], 'INITIATED');
    const res = await send(h, 'alice', 'PUT', `payments/${id}`, later('2026-12-03T09:00:00Z'));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(refOf(json(res))['status'], 'SCHEDULED');
  });

  test('the record from getPayment can be sent back with server-set fields, which are ignored', async () => {
    const { id } = await create(sepaCreditTransfer());
    const got = json(await send(h, 'alice', 'GET', `payments/${id}`));
    const back = structuredClone(got);
    Object.assign(refOf(back), { status: 'COMPLETED', reason: 'ACSC', usedMechanism: 'FEDWIRE' });
    const res = await send(h, 'alice', 'PUT', `payments/${id}`, back);
    assert.equal(res.statusCode, 200, res.body);
    const ref = refOf(json(res));
    assert.deepEqual(
      [ref['identification'], ref['status'], ref['reason'], ref['usedMechanism']],
      [id, 'INITIATED', undefined, undefined],
    );
    const other = structuredClone(got);
    refOf(other)['identification'] = 'PO-20261125-SOMEONEELSE0';
    const refused = await send(h, 'alice', 'PUT', `payments/${id}`, other);
    assert.equal(refused.statusCode, 422, 'another payment’s identification is not “sent back”');
  });
});

test('the gateway’s updatePayment tool accepts a record read with getPayment (status included)', async () => {
  const catalogue = await loadCatalogue([
    {
      name: 'payments',
      openapi: { file: 'src/payments/openapi/payment-order.yaml' },
      injectHeaders: {},
    },
  ]);
  const tool = catalogue.byName.get('updatePayment');
  assert.ok(tool);
  const record = sepaCreditTransfer();
  record['paymentInstructionReference'] = {
    identification: 'PO-20261125-ABCDEFGHJKMN',
    uetr: 'eb6305c9-1f7f-49de-aed0-16487c27b42d',
    status: 'SCHEDULED',
    reason: 'ACTC',
    usedMechanism: 'SEPA',
    remainingInstances: 11,
    nextExecutionDate: '2027-02-01T00:00:00.000Z',
  };
  const problems = new ArgumentValidator().validate(tool, {
    externalReferenceNo: 'PO-20261125-ABCDEFGHJKMN',
    body: record,
  });
  assert.equal(problems, undefined, JSON.stringify(problems));
});
