import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  forEachStore,
  openHarness,
  send,
  samplePayment,
  json,
  type Harness,
  holdSampleAccounts,
} from './harness.js';

forEachStore('payment API basics', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind);
    await holdSampleAccounts(h.db, 'alice');
  });
  after(async () => h.close());

  test('create → get → list', async () => {
    const sepa = samplePayment();
    // SEPA schemes take charge bearer SLEV only (issue 26, item 3).
    (sepa['paymentInstruction'] as Record<string, unknown>)['chargeBearer'] = 'SLEV';
    const created = await send(h, 'alice', 'POST', 'payments', sepa, {
      'used-mechanism': 'SEPA_INST',
      timestamp: '2026-11-22T09:30:00+01:00',
    });
    assert.equal(created.statusCode, 201, created.body);
    const body = json(created);
    const ref = body['paymentInstructionReference'] as Record<string, unknown>;
    assert.equal(ref['status'], 'INITIATED');
    assert.equal(ref['usedMechanism'], 'SEPA_INST');
    assert.match(
      String(created.headers['location']),
      /^\/payments\/payment-order\/v1\/payments\/PO-/,
    );
    assert.match(String(ref['uetr']), /^[0-9a-f-]{36}$/);
    const id = String(ref['identification']);
    assert.equal(created.headers['etag'], '"v1"');
    const got = await send(h, 'alice', 'GET', `payments/${id}`);
    assert.equal(got.statusCode, 200);
    assert.deepEqual(json(got), body);
    const other = await send(h, 'bob', 'GET', `payments/${id}`);
    assert.equal(other.statusCode, 404);
    const list = await send(h, 'alice', 'GET', 'payments?limit=5');
    assert.equal((json(list)['items'] as unknown[]).length, 1);
  });
});

forEachStore('listing', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind);
    for (const user of ['lister', 'someone-else']) await holdSampleAccounts(h.db, user);
  });
  after(async () => h.close());

  test('cursor pagination walks every own payment once, newest first; status filter applies', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await send(h, 'lister', 'POST', 'payments', samplePayment());
      ids.push(
        String(
          (json(res)['paymentInstructionReference'] as Record<string, unknown>)['identification'],
        ),
      );
    }
    await send(h, 'someone-else', 'POST', 'payments', samplePayment());
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = json(
        await send(h, 'lister', 'GET', `payments?limit=2${cursor ? `&cursor=${cursor}` : ''}`),
      );
      for (const item of page['items'] as Record<string, Record<string, unknown>>[]) {
        seen.push(String(item['paymentInstructionReference']?.['identification']));
      }
      cursor = page['nextCursor'] as string | null;
    } while (cursor);
    assert.deepEqual([...seen].sort(), [...ids].sort());
    assert.equal(new Set(seen).size, 5);
    await send(h, 'lister', 'POST', `payments/${ids[0]}/cancel`, {});
    const cancelled = json(await send(h, 'lister', 'GET', 'payments?status=CANCELLED'));
    assert.deepEqual(
      (cancelled['items'] as Record<string, Record<string, unknown>>[]).map(
        (i) => i['paymentInstructionReference']?.['identification'],
      ),
      [ids[0]],
    );
    assert.equal((await send(h, 'lister', 'GET', 'payments?cursor=garbage')).statusCode, 400);
  });
});
