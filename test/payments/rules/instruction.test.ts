// Rules on the instruction as a whole: the creditor of a credit transfer, and dates against the service's
// clock (pinned to NOW = 2026-11-25T08:00:00Z).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  forEachStore,
  openHarness,
  send,
  json,
  type Harness,
  holdSampleAccounts,
} from '../harness.js';
import { NOW, sepaCreditTransfer } from './fixtures.js';

type Json = Record<string, unknown>;
type Entry = { pointer: string; code: string; reason: string };
const entries = (body: Json) =>
  ((body['errors'] ?? []) as Entry[]).map((e) => [e.pointer, e.code, e.reason]);

const withSchedule = (schedule: Json) =>
  sepaCreditTransfer({ instruction: { schedule: { frequency: 'MONTHLY', ...schedule } } });

forEachStore('instruction rules', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind, { now: () => NOW });
    await holdSampleAccounts(h.db, 'alice');
  });
  after(async () => h.close());
  const create = (record: Json) => send(h, 'alice', 'POST', 'payments', record);

  test('a credit transfer without payee party is refused (RR03), on create and validate', async () => {
    const record = sepaCreditTransfer();
    delete record['payeeReference'];
    const res = await create(record);
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(entries(json(res)), [
      ['/payeeReference/involvedParty/partyName', 'CREDITOR_REQUIRED', 'RR03'],
    ]);
    const validated = json(await send(h, undefined, 'POST', 'payments/validate', record));
    const ref = validated['paymentInstructionReference'] as Json;
    assert.deepEqual([ref['status'], ref['reason']], ['FAILED', 'RR03']);
  });

  test('a credit transfer without payee account is refused (AC03) by validatePayment', async () => {
    const record = sepaCreditTransfer();
    delete record['payeeAccountReference'];
    const res = await send(h, undefined, 'POST', 'payments/validate', record);
    const ref = json(res)['paymentInstructionReference'] as Json;
    assert.deepEqual(
      (ref['statusReasons'] as Entry[]).map((e) => [e.pointer, e.code, e.reason]),
      [['/payeeAccountReference/paymentInstructionAccount/accountId', 'CREDITOR_REQUIRED', 'AC03']],
    );
  });

  test('a requested execution date on a past day is refused (DT01); today is accepted', async () => {
    const past = sepaCreditTransfer({
      instruction: { paymentDates: { requestedExecutionDate: '2026-11-24T23:59:59Z' } },
    });
    const res = await create(past);
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(entries(json(res)), [
      ['/paymentInstruction/paymentDates/requestedExecutionDate', 'EXECUTION_DATE_PAST', 'DT01'],
    ]);
    const today = sepaCreditTransfer({
      instruction: { paymentDates: { requestedExecutionDate: '2026-11-25T00:00:00Z' } },
    });
    assert.equal((await create(today)).statusCode, 201);
  });

  test('a schedule lying wholly in the past is refused; one still running is accepted', async () => {
    const ended = await create(
      withSchedule({ startDate: '2026-01-05T00:00:00Z', endDate: '2026-10-31T00:00:00Z' }),
    );
    assert.equal(ended.statusCode, 422, ended.body);
    assert.deepEqual(entries(json(ended)), [
      ['/paymentInstruction/schedule/endDate', 'SCHEDULE_IN_PAST', 'DT01'],
    ]);
    const counted = await create(
      withSchedule({ startDate: '2026-01-05T00:00:00Z', noOfRepetition: 6 }),
    );
    assert.deepEqual(entries(json(counted)), [
      ['/paymentInstruction/schedule/startDate', 'SCHEDULE_IN_PAST', 'DT01'],
    ]);
    const running = await create(
      withSchedule({ startDate: '2026-01-05T00:00:00Z', noOfRepetition: 12 }),
    );
    assert.equal(running.statusCode, 201, running.body);
  });

  test('a schedule without startDate is refused (DT01) with the pointer of the missing field', async () => {
    const res = await create(withSchedule({ noOfRepetition: 3 }));
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(entries(json(res)), [
      ['/paymentInstruction/schedule/startDate', 'SCHEDULE_START_REQUIRED', 'DT01'],
    ]);
  });
});
