// Lifecycle: every (from, to) pair through the operator endpoint, update permission per status, and
// every cancellation type on one-off and scheduled payments.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  PAYMENT_STATUSES,
  TRANSITIONS,
  UPDATABLE,
  type PaymentStatus,
} from '../../src/payments/domain/lifecycle.js';
import { statusHistory } from '../../src/payments/storage/payments-repo.js';
import {
  forEachStore,
  openHarness,
  send,
  samplePayment,
  json,
  OPERATOR_TOKEN,
  type Harness,
  holdSampleAccounts,
} from './harness.js';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

/** Shortest operator path from `start` to `target` through the transition table. */
function pathTo(start: PaymentStatus, target: PaymentStatus): PaymentStatus[] | undefined {
  const queue: PaymentStatus[][] = [[start]];
  const seen = new Set<PaymentStatus>([start]);
  while (queue.length > 0) {
    const route = queue.shift() ?? [];
    const last = route[route.length - 1] as PaymentStatus;
    if (last === target) return route.slice(1);
    for (const next of TRANSITIONS[last]) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push([...route, next]);
      }
    }
  }
  return undefined;
}

const schedule = (extra: Record<string, unknown>) =>
  samplePayment({
    paymentInstruction: {
      amount: { instructedAmount: 10, instructedCurrency: 'EUR' },
      schedule: { startDate: '2027-01-01T00:00:00Z', frequency: 'MONTHLY', ...extra },
    },
  });

forEachStore('lifecycle', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind, { now: () => new Date('2026-11-25T08:00:00Z') });
    await holdSampleAccounts(h.db, 'alice');
  });
  after(async () => h.close());

  async function create(body = samplePayment()): Promise<string> {
    const res = await send(h, 'alice', 'POST', 'payments', body);
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
  const statusOf = async (id: string) =>
    (
      json(await send(h, 'alice', 'GET', `payments/${id}`))[
        'paymentInstructionReference'
      ] as Record<string, unknown>
    )['status'];

  async function paymentIn(status: PaymentStatus): Promise<string> {
    const id = await create();
    for (const step of pathTo('INITIATED', status) ?? []) {
      const res = await setStatus(id, step);
      assert.equal(res.statusCode, 200, `${step}: ${res.body}`);
    }
    assert.equal(await statusOf(id), status);
    return id;
  }

  test('every status is reachable from INITIATED', () => {
    for (const s of PAYMENT_STATUSES) assert.ok(pathTo('INITIATED', s), s);
  });

  test('every allowed transition succeeds and every forbidden one is refused with 409', async () => {
    for (const from of PAYMENT_STATUSES) {
      for (const to of PAYMENT_STATUSES) {
        const id = await paymentIn(from);
        const res = await setStatus(id, to, 'TEST');
        const allowed = TRANSITIONS[from].includes(to);
        assert.equal(res.statusCode, allowed ? 200 : 409, `${from} → ${to}: ${res.body}`);
        assert.equal(await statusOf(id), allowed ? to : from);
        if (!allowed) assert.equal(json(res)['paymentStatus'], from);
      }
    }
  });

  test('status changes are recorded with time, from, to, reason and actor', async () => {
    const id = await paymentIn('CONFIRMED');
    const history = await statusHistory(h.db, id);
    assert.deepEqual(
      history.map((c) => [c.from, c.to]),
      [
        [null, 'INITIATED'],
        ['INITIATED', 'PENDING'],
        ['PENDING', 'CONFIRMED'],
      ],
    );
    assert.match(history[1]?.actor ?? '', /^operator:…/);
    assert.ok(!JSON.stringify(history).includes(OPERATOR_TOKEN));
    assert.ok(history.every((c) => !Number.isNaN(Date.parse(c.at))));
  });

  test('the operator endpoint needs the operator token (a user identity is not enough)', async () => {
    const id = await create();
    const none = await send(h, 'alice', 'POST', `/internal/payments/${id}/status`, {
      status: 'PENDING',
    });
    assert.equal(none.statusCode, 401);
    const wrong = await send(
      h,
      undefined,
      'POST',
      `/internal/payments/${id}/status`,
      { status: 'PENDING' },
      { authorization: 'Bearer nope-nope-nope-nope' },
    );
    assert.equal(wrong.statusCode, 401);
    assert.equal(await statusOf(id), 'INITIATED');
    const bad = await setStatus(id, 'DONE');
    assert.equal(bad.statusCode, 400);
    const unknown = await setStatus('PO-NOPE', 'PENDING');
    assert.equal(unknown.statusCode, 404);
  });

  test('update is allowed only in INITIATED, SCHEDULED and SUSPENDED; otherwise 409 names the status', async () => {
    for (const status of PAYMENT_STATUSES) {
      const id = await paymentIn(status);
      const res = await send(
        h,
        'alice',
        'PUT',
        `payments/${id}`,
        samplePayment({ customFields: { note: 'changed' } }),
      );
      if (UPDATABLE.has(status)) {
        assert.equal(res.statusCode, 200, `${status}: ${res.body}`);
        assert.deepEqual(json(res)['customFields'], { note: 'changed' });
      } else {
        assert.equal(res.statusCode, 409, status);
        assert.equal(json(res)['paymentStatus'], status);
        assert.match(String(json(res)['detail']), new RegExp(status));
      }
    }
  });

  test('ETag / If-Match: a stale version gets 412 and changes nothing', async () => {
    const id = await create();
    const first = await send(
      h,
      'alice',
      'PUT',
      `payments/${id}`,
      samplePayment({ customFields: { n: 1 } }),
      { 'if-match': '"v1"' },
    );
    assert.equal(first.statusCode, 200);
    assert.equal(first.headers['etag'], '"v2"');
    const stale = await send(
      h,
      'alice',
      'PUT',
      `payments/${id}`,
      samplePayment({ customFields: { n: 2 } }),
      { 'if-match': '"v1"' },
    );
    assert.equal(stale.statusCode, 412);
    const now = json(await send(h, 'alice', 'GET', `payments/${id}`));
    assert.deepEqual(now['customFields'], { n: 1 });
  });

  test('update keeps identification and uetr, refuses to change them, and another user gets 404', async () => {
    const id = await create();
    const before = json(await send(h, 'alice', 'GET', `payments/${id}`));
    const uetr = (before['paymentInstructionReference'] as Record<string, unknown>)['uetr'];
    const changed = await send(
      h,
      'alice',
      'PUT',
      `payments/${id}`,
      samplePayment({
        paymentInstructionReference: { uetr: '7d3b0a4e-1f0e-4c2b-9a51-0c6f9a1d2e3f' },
      }),
    );
    assert.equal(changed.statusCode, 422);
    const ok = await send(h, 'alice', 'PUT', `payments/${id}`, samplePayment());
    assert.equal(
      (json(ok)['paymentInstructionReference'] as Record<string, unknown>)['uetr'],
      uetr,
    );
    assert.equal((await send(h, 'bob', 'PUT', `payments/${id}`, samplePayment())).statusCode, 404);
    assert.equal((await send(h, 'bob', 'POST', `payments/${id}/cancel`, {})).statusCode, 404);
  });

  test('a schedule or a future requested execution date gives SCHEDULED', async () => {
    assert.equal(await statusOf(await create(schedule({ noOfRepetition: 3 }))), 'SCHEDULED');
    const future = samplePayment({
      paymentInstruction: {
        amount: { instructedAmount: 1, instructedCurrency: 'EUR' },
        paymentDates: { requestedExecutionDate: '2999-01-01T09:00:00Z' },
      },
    });
    assert.equal(await statusOf(await create(future)), 'SCHEDULED');
  });

  const cancel = (id: string, body: Record<string, unknown>) =>
    send(h, 'alice', 'POST', `payments/${id}/cancel`, body);

  test('one-off payment: every cancellation type cancels it', async () => {
    for (const cancellationType of [
      'SINGLE_PAYMENT_INSTANCE',
      'MULTIPLE_PAYMENT_INSTANCE',
      'COMPLETE_SCHEDULE',
    ]) {
      const id = await create();
      const res = await cancel(id, {
        cancellationType,
        ...(cancellationType === 'MULTIPLE_PAYMENT_INSTANCE' ? { noOfInstances: '2' } : {}),
      });
      assert.equal(res.statusCode, 200);
      assert.equal(json(res)['status'], 'success', cancellationType);
      assert.equal(json(res)['reasonCode'], 'CUST');
      assert.equal(await statusOf(id), 'CANCELLED');
    }
    const empty = await create();
    assert.equal(
      json(await send(h, 'alice', 'POST', `payments/${empty}/cancel`))['status'],
      'success',
    );
    assert.equal(await statusOf(empty), 'CANCELLED');
  });

  test('schedule: SINGLE skips the next instance, MULTIPLE skips n, more than remain cancels, COMPLETE cancels', async () => {
    const id = await create(schedule({ noOfRepetition: 5 }));
    const single = await cancel(id, { cancellationType: 'SINGLE_PAYMENT_INSTANCE' });
    assert.deepEqual([json(single)['status'], await statusOf(id)], ['success', 'SCHEDULED']);
    assert.match(String(json(single)['reasonDescription']), /4 instance/);
    const multi = await cancel(id, {
      cancellationType: 'MULTIPLE_PAYMENT_INSTANCE',
      noOfInstances: '3',
    });
    assert.deepEqual([json(multi)['status'], await statusOf(id)], ['success', 'SCHEDULED']);
    assert.match(String(json(multi)['reasonDescription']), /1 instance/);
    const last = await cancel(id, { cancellationType: 'SINGLE_PAYMENT_INSTANCE' });
    assert.deepEqual([json(last)['status'], await statusOf(id)], ['success', 'CANCELLED']);

    const many = await create(schedule({ endDate: '2027-06-15T00:00:00Z' }));
    const tooMany = await cancel(many, {
      cancellationType: 'MULTIPLE_PAYMENT_INSTANCE',
      noOfInstances: '7',
    });
    assert.deepEqual([json(tooMany)['status'], await statusOf(many)], ['success', 'CANCELLED']);

    const open = await create(schedule({}));
    await cancel(open, { cancellationType: 'MULTIPLE_PAYMENT_INSTANCE', noOfInstances: '50' });
    assert.equal(await statusOf(open), 'SCHEDULED');
    const complete = await cancel(open, { cancellationType: 'COMPLETE_SCHEDULE' });
    assert.deepEqual([json(complete)['status'], await statusOf(open)], ['success', 'CANCELLED']);
  });

  test('business refusals are 200 with status failure and an ISO reason code', async () => {
    const expected: [PaymentStatus, string][] = [
      ['CANCELLED', 'DUPL'],
      ['RETURNED', 'ARDT'],
      ['FAILED', 'ARJT'],
      ['COMPLETED', 'PTNA'],
      ['CONFIRMED', 'PTNA'],
      ['PENDING', 'PTNA'],
    ];
    for (const [status, code] of expected) {
      const id = await paymentIn(status);
      const res = await cancel(id, { cancellationType: 'COMPLETE_SCHEDULE' });
      assert.equal(res.statusCode, 200);
      assert.deepEqual([json(res)['status'], json(res)['reasonCode']], ['failure', code], status);
      assert.equal(await statusOf(id), status);
    }
    const id = await create();
    const mismatch = await cancel(id, { identification: 'PO-SOMETHING-ELSE' });
    assert.deepEqual([json(mismatch)['status'], json(mismatch)['reasonCode']], ['failure', 'NOOR']);
    assert.equal((await cancel('PO-UNKNOWN', {})).statusCode, 404);
  });
});
