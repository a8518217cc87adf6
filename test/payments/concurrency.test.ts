// Concurrency over real sockets: 50 parallel creates with one idempotency key give exactly one payment
// (the rest are replays or 409 in-progress answers); 20 parallel updates with the same If-Match give
// exactly one success (the rest 412).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import {
  forEachStore,
  openHarness,
  samplePayment,
  userHeaders,
  BASE,
  type Harness,
  holdSampleAccounts,
} from './harness.js';

forEachStore('concurrency (real sockets)', (kind) => {
  let h: Harness;
  let url: string;
  before(async () => {
    h = await openHarness(kind);
    await holdSampleAccounts(h.db, 'racer');
    url = await h.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(async () => h.close());

  const call = async (
    method: 'POST' | 'PUT',
    path: string,
    body: unknown,
    headers: Record<string, string>,
  ) => {
    const res = await request(`${url}${BASE}/${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...userHeaders('racer'), ...headers },
      body: JSON.stringify(body),
    });
    const text = await res.body.text();
    return {
      status: res.statusCode,
      replayed: res.headers['idempotent-replayed'] === 'true',
      body: JSON.parse(text) as Record<string, unknown>,
    };
  };

  test('50 parallel creates with one key → exactly one payment', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        call('POST', 'payments', samplePayment(), { 'idempotent-request-key': 'race-key-1' }),
      ),
    );
    const fresh = results.filter((r) => r.status === 201 && !r.replayed);
    const replays = results.filter((r) => r.status === 201 && r.replayed);
    const inProgress = results.filter((r) => r.status === 409);
    assert.equal(fresh.length, 1);
    assert.equal(
      replays.length + inProgress.length,
      49,
      JSON.stringify(results.map((r) => r.status)),
    );
    const id = (fresh[0]?.body['paymentInstructionReference'] as Record<string, unknown>)[
      'identification'
    ];
    for (const r of replays)
      assert.equal(
        (r.body['paymentInstructionReference'] as Record<string, unknown>)['identification'],
        id,
      );
    const rows = await h.db.query('SELECT id FROM payments WHERE owner = $1', ['racer']);
    assert.equal(rows.length, 1);
  });

  test('20 parallel updates with the same If-Match → exactly one succeeds', async () => {
    const created = await call('POST', 'payments', samplePayment(), {});
    const id = String(
      (created.body['paymentInstructionReference'] as Record<string, unknown>)['identification'],
    );
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('PUT', `payments/${id}`, samplePayment({ customFields: { writer: i } }), {
          'if-match': '"v1"',
        }),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    assert.equal(ok.length, 1);
    assert.equal(results.filter((r) => r.status === 412).length, 19);
    const rows = await h.db.query<{ version: number; record: string }>(
      'SELECT version, record FROM payments WHERE id = $1',
      [id],
    );
    assert.equal(Number(rows[0]?.version), 2);
    assert.deepEqual(
      (JSON.parse(rows[0]?.record ?? '{}') as Record<string, unknown>)['customFields'],
      ok[0]?.body['customFields'],
    );
  });
});
