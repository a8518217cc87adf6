// Issue 26, "Status notifications": every status change (creation and cancellation included) writes one
// notification row to the outbox in the transaction of the change; a refused or rolled-back change writes
// none, and a failed outbox write undoes the change.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { eventsOf } from '../../../src/payments/storage/notification-outbox.js';
import {
  findPayment,
  updatePaymentIfVersion,
} from '../../../src/payments/storage/payments-repo.js';
import {
  forEachStore,
  holdSampleAccounts,
  json,
  openHarness,
  OPERATOR_TOKEN,
  samplePayment,
  send,
  type Harness,
} from '../harness.js';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const NOW = new Date('2026-11-25T08:00:00.000Z');

forEachStore('notification outbox', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind, { now: () => NOW });
    await holdSampleAccounts(h.db, 'alice');
  });
  after(async () => h.close());

  async function create(): Promise<string> {
    const res = await send(h, 'alice', 'POST', 'payments', samplePayment());
    assert.equal(res.statusCode, 201, res.body);
    return String(
      (json(res)['paymentInstructionReference'] as Record<string, unknown>)['identification'],
    );
  }
  const setStatus = (id: string, status: string, reason?: string) =>
    send(
      h,
      undefined,
      'POST',
      `/internal/payments/${id}/status`,
      { status, ...(reason ? { reason } : {}) },
      operator,
    );

  test('creation writes one payment.created event (ISO ACCP)', async () => {
    const id = await create();
    const events = await eventsOf(h.db, id);
    assert.equal(events.length, 1);
    assert.deepEqual(events[0], {
      eventId: `evt_${id}_v1`,
      type: 'payment.created',
      paymentId: id,
      paymentVersion: 1,
      owner: 'alice',
      fromStatus: null,
      toStatus: 'INITIATED',
      isoStatus: 'ACCP',
      reason: null,
      occurredAt: NOW.toISOString(),
    });
  });

  test('a status change through the operator route writes exactly one event, with its ISO code and reason', async () => {
    const id = await create();
    assert.equal((await setStatus(id, 'PENDING')).statusCode, 200);
    const failed = await setStatus(id, 'FAILED', 'AM04');
    assert.equal(failed.statusCode, 200, failed.body);
    const events = await eventsOf(h.db, id);
    assert.deepEqual(
      events.map((e) => [
        e.type,
        e.fromStatus,
        e.toStatus,
        e.isoStatus,
        e.reason,
        e.paymentVersion,
      ]),
      [
        ['payment.created', null, 'INITIATED', 'ACCP', null, 1],
        ['payment.status_changed', 'INITIATED', 'PENDING', 'ACSP', null, 2],
        ['payment.status_changed', 'PENDING', 'FAILED', 'RJCT', 'AM04', 3],
      ],
    );
  });

  test('a refused status change (not an allowed transition, unknown status) writes no event', async () => {
    const id = await create();
    assert.equal((await setStatus(id, 'COMPLETED')).statusCode, 409);
    assert.equal((await setStatus(id, 'DONE')).statusCode, 400);
    assert.equal((await eventsOf(h.db, id)).length, 1);
  });

  test('the owner’s cancellation writes one payment.cancelled event (ISO CANC)', async () => {
    const id = await create();
    const res = await send(h, 'alice', 'POST', `payments/${id}/cancel`, {});
    assert.equal(res.statusCode, 200, res.body);
    const events = await eventsOf(h.db, id);
    assert.deepEqual(
      events.map((e) => [e.type, e.toStatus, e.isoStatus]),
      [
        ['payment.created', 'INITIATED', 'ACCP'],
        ['payment.cancelled', 'CANCELLED', 'CANC'],
      ],
    );
  });

  test('an update of the content only writes no event', async () => {
    const id = await create();
    const res = await send(
      h,
      'alice',
      'PUT',
      `payments/${id}`,
      samplePayment({ customFields: { note: 'x' } }),
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await eventsOf(h.db, id)).length, 1);
  });

  test('same transaction: a change rolled back leaves no event; a failed outbox write undoes the change', async () => {
    const id = await create();
    await assert.rejects(
      h.db.transaction(async (tx) => {
        const current = await findPayment(tx, id);
        assert.ok(current);
        const updated = await updatePaymentIfVersion(tx, current, current.version, {
          status: 'PENDING',
          at: NOW.toISOString(),
          history: {
            kind: 'STATUS_CHANGED',
            actor: 'test',
            reason: null,
            fromStatus: 'INITIATED',
            toStatus: 'PENDING',
          },
        });
        assert.ok(updated);
        throw new Error('rolled back after the change');
      }),
      /rolled back/,
    );
    assert.equal((await eventsOf(h.db, id)).length, 1);
    assert.equal((await findPayment(h.db, id))?.status, 'INITIATED');

    // An event row already holding the next version's id makes the outbox insert fail: the status
    // change it belongs to is not committed either.
    await h.db.execute(
      `INSERT INTO payment_events (event_id, event_type, payment_id, payment_version, owner,
         from_status, to_status, iso_status, reason, occurred_at)
       VALUES ($1, 'payment.status_changed', $2, 99, 'alice', NULL, 'PENDING', 'ACSP', NULL, $3)`,
      [`evt_${id}_v2`, id, NOW.toISOString()],
    );
    const res = await setStatus(id, 'PENDING');
    assert.notEqual(res.statusCode, 200);
    assert.equal((await findPayment(h.db, id))?.status, 'INITIATED');
  });
});
