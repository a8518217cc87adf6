// The payment history (tracker issue 14): creation, update (field-level changes), a skipped schedule
// instance and an operator status change all appear in getPaymentHistory, newest first, with actor, time
// and reason; only the owner sees it; pages follow nextCursor. getPayment shows a schedule's remaining
// instances and next execution date. Rows of the v1 status history survive the v2 migration.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import {
  componentSchemaBundle,
  loadOpenApiDocument,
  paymentOrderDocumentPath,
} from '../../src/payments/openapi/load.js';
import { openSqlite } from '../../src/shared/db/sqlite.js';
import { openPostgres } from '../../src/shared/db/postgres.js';
import { runMigrations } from '../../src/shared/db/migrations.js';
import type { Database } from '../../src/shared/db/types.js';
import { paymentMigrations } from '../../src/payments/storage/migrations.js';
import { historyPage, statusHistory } from '../../src/payments/storage/payments-repo.js';
import { DATABASE_URL, dropSchema, skipWithoutPostgres, uniqueName } from '../helpers/infra.js';
import {
  forEachStore,
  json,
  openHarness,
  OPERATOR_TOKEN,
  samplePayment,
  send,
  type Harness,
  holdSampleAccounts,
} from './harness.js';

type Json = Record<string, unknown>;
const refOf = (body: Json) => body['paymentInstructionReference'] as Json;
const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const T0 = new Date('2026-11-25T08:00:00.000Z');
const T1 = new Date('2026-11-25T09:15:00.000Z');
const T2 = new Date('2026-11-26T10:30:00.000Z');
const T3 = new Date('2026-11-27T11:45:00.000Z');

const monthly = () =>
  samplePayment({
    paymentInstruction: {
      amount: { instructedAmount: 10, instructedCurrency: 'EUR' },
      schedule: { startDate: '2027-01-01T00:00:00Z', frequency: 'MONTHLY', noOfRepetition: 12 },
    },
  });

/** Validators of the document's response schemas (strict Ajv, as the contract test compiles them). */
const schemaId = 'https://toolgate.invalid/payment-order.json';
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormatsModule.default(ajv);
ajv.addSchema(componentSchemaBundle(await loadOpenApiDocument(paymentOrderDocumentPath), schemaId));
function assertMatches(schema: string, body: unknown): void {
  const validate = ajv.getSchema(`${schemaId}#/$defs/${schema}`);
  assert.ok(validate, schema);
  assert.ok(validate(body), `${schema}: ${JSON.stringify(validate.errors)}`);
}

forEachStore('payment history', (kind) => {
  let h: Harness;
  let clock = T0;
  before(async () => {
    h = await openHarness(kind, { now: () => clock });
    await holdSampleAccounts(h.db, 'alice');
  });
  after(async () => h.close());

  async function create(owner = 'alice'): Promise<string> {
    clock = T0;
    const res = await send(h, owner, 'POST', 'payments', monthly());
    assert.equal(res.statusCode, 201, res.body);
    return String(refOf(json(res))['identification']);
  }

  test('create, update, skip one instance, operator change: all in the history, newest first', async () => {
    const id = await create();
    const got = await send(h, 'alice', 'GET', `payments/${id}`);
    assert.deepEqual(
      [refOf(json(got))['remainingInstances'], refOf(json(got))['nextExecutionDate']],
      [12, '2027-01-01T00:00:00.000Z'],
    );

    // The record from getPayment sent back with changes; its server-set fields are ignored.
    clock = T1;
    const changed = structuredClone(json(got));
    const instruction = changed['paymentInstruction'] as Json;
    (instruction['amount'] as Json)['instructedAmount'] = 12.5;
    Object.assign(refOf(changed), {
      remainingInstances: 1,
      nextExecutionDate: '2030-01-01T00:00:00Z',
    });
    changed['customFields'] = { note: 'rent' };
    const updated = await send(h, 'alice', 'PUT', `payments/${id}`, changed);
    assert.equal(updated.statusCode, 200, updated.body);
    assert.equal(refOf(json(updated))['remainingInstances'], 12);
    assert.equal(refOf(json(updated))['nextExecutionDate'], '2027-01-01T00:00:00.000Z');

    clock = T2;
    const skipped = await send(h, 'alice', 'POST', `payments/${id}/cancel`, {
      cancellationType: 'SINGLE_PAYMENT_INSTANCE',
    });
    assert.equal(json(skipped)['status'], 'success', skipped.body);
    const afterSkipBody = json(await send(h, 'alice', 'GET', `payments/${id}`));
    assertMatches('PaymentRecord', afterSkipBody);
    const afterSkip = refOf(afterSkipBody);
    assert.deepEqual(
      [afterSkip['status'], afterSkip['remainingInstances'], afterSkip['nextExecutionDate']],
      ['SCHEDULED', 11, '2027-02-01T00:00:00.000Z'],
    );

    clock = T3;
    const suspended = await send(
      h,
      undefined,
      'POST',
      `/internal/payments/${id}/status`,
      { status: 'SUSPENDED', reason: 'AM04', description: 'funds check' },
      operator,
    );
    assert.equal(suspended.statusCode, 200, suspended.body);

    const res = await send(h, 'alice', 'GET', `payments/${id}/history`);
    assert.equal(res.statusCode, 200, res.body);
    const body = json(res);
    assertMatches('PaymentHistory', body);
    assert.equal(body['nextCursor'], null);
    const items = body['items'] as Json[];
    assert.deepEqual(
      items.map((e) => [e['version'], e['kind'], e['at'], String(e['actor']).split(':')[0]]),
      [
        [4, 'STATUS_CHANGED', T3.toISOString(), 'operator'],
        [3, 'CANCELLED', T2.toISOString(), 'user'],
        [2, 'UPDATED', T1.toISOString(), 'user'],
        [1, 'CREATED', T0.toISOString(), 'user'],
      ],
    );
    const [status, cancel, update, creation] = items as [Json, Json, Json, Json];
    assert.deepEqual(
      [status['fromStatus'], status['toStatus'], status['reason'], status['description']],
      ['SCHEDULED', 'SUSPENDED', 'AM04', 'funds check'],
    );
    assert.match(String(status['actor']), /^operator:…/);
    assert.ok(!res.body.includes(OPERATOR_TOKEN));
    assert.deepEqual(cancel['cancellation'], {
      cancellationType: 'SINGLE_PAYMENT_INSTANCE',
      instances: 1,
    });
    assert.equal(cancel['reason'], 'CUST');
    assert.equal(cancel['toStatus'], undefined, 'a skipped instance leaves the status');
    assert.equal(update['actor'], 'user:alice');
    assert.equal(update['toStatus'], undefined, 'the update kept the status');
    assert.deepEqual(update['changes'], [
      { pointer: '/customFields/note', before: null, after: 'rent' },
      { pointer: '/paymentInstruction/amount/instructedAmount', before: '10.00', after: '12.50' },
    ]);
    assert.deepEqual(
      [creation['fromStatus'], creation['toStatus'], creation['actor']],
      [null, 'SCHEDULED', 'user:alice'],
    );

    // The operator endpoint's own answer still lists the status changes, from the same history.
    assert.deepEqual(
      (json(suspended)['history'] as Json[]).map((c) => [c['from'], c['to']]),
      [
        [null, 'SCHEDULED'],
        ['SCHEDULED', 'SUSPENDED'],
      ],
    );
  });

  test('another user gets 404 (problem+json), like getPayment; an unknown reference too', async () => {
    const id = await create();
    for (const [user, path] of [
      ['bob', `payments/${id}/history`],
      ['alice', 'payments/PO-20261125-NOSUCHPAYMNT/history'],
    ] as const) {
      const res = await send(h, user, 'GET', path);
      assert.equal(res.statusCode, 404, res.body);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
      assert.equal(json(res)['code'], 'PAYMENT_NOT_FOUND');
    }
    assert.equal((await send(h, undefined, 'GET', `payments/${id}/history`)).statusCode, 401);
  });

  test('pages of `limit` entries follow nextCursor to the first entry; a forged cursor is 400', async () => {
    const id = await create();
    const base = refOf(json(await send(h, 'alice', 'GET', `payments/${id}`)));
    for (const note of ['a', 'b', 'c', 'd']) {
      const record = { ...monthly(), customFields: { note }, paymentInstructionReference: base };
      const res = await send(h, 'alice', 'PUT', `payments/${id}`, record);
      assert.equal(res.statusCode, 200, res.body);
    }
    const versions: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '?limit=2' : `?limit=2&cursor=${cursor}`;
      const res = await send(h, 'alice', 'GET', `payments/${id}/history${query}`);
      assert.equal(res.statusCode, 200, res.body);
      const page = json(res);
      versions.push(...(page['items'] as Json[]).map((e) => Number(e['version'])));
      cursor = page['nextCursor'] as string | null;
      pages += 1;
    } while (cursor !== null && pages < 10);
    assert.deepEqual(versions, [5, 4, 3, 2, 1]);
    assert.equal(pages, 3);
    const forged = await send(h, 'alice', 'GET', `payments/${id}/history?cursor=bm9wZQ`);
    assert.equal(forged.statusCode, 400);
    assert.equal((await send(h, 'alice', 'GET', `payments/${id}/history?limit=0`)).statusCode, 400);
  });

  test('a refused cancellation changes nothing and records nothing', async () => {
    const id = await create();
    const refused = await send(h, 'alice', 'POST', `payments/${id}/cancel`, {
      identification: 'PO-OTHER',
    });
    assert.equal(json(refused)['status'], 'failure');
    const items = json(await send(h, 'alice', 'GET', `payments/${id}/history`))['items'] as Json[];
    assert.deepEqual(
      items.map((e) => e['kind']),
      ['CREATED'],
    );
  });
});

async function openStore(kind: 'sqlite' | 'postgres', schema: string): Promise<Database> {
  return kind === 'sqlite'
    ? openSqlite({ path: ':memory:' })
    : openPostgres({
        url: DATABASE_URL ?? '',
        schema,
        poolSize: 2,
        connectTimeoutMs: 5000,
        statementTimeoutMs: 15000,
      });
}

for (const kind of ['sqlite', 'postgres'] as const) {
  test(
    `migration v2 copies the v1 status history into the payment history [${kind}]`,
    { skip: kind === 'postgres' ? skipWithoutPostgres : false },
    async () => {
      const schema = uniqueName('payments_history_migration');
      const db = await openStore(kind, schema);
      try {
        await runMigrations(db, 'payments', paymentMigrations.slice(0, 1));
        await db.execute(
          `INSERT INTO payments (id, owner, status, reason, version, record, instances_consumed,
             created_at, updated_at) VALUES ('PO-1', 'alice', 'CANCELLED', 'CUST', 4, '{}', 0, $1, $1)`,
          [T0.toISOString()],
        );
        const rows: [number, string | null, string, string | null, string][] = [
          [1, null, 'INITIATED', null, 'user:alice'],
          [2, 'INITIATED', 'SCHEDULED', 'UPDATED', 'user:alice'],
          [3, 'SCHEDULED', 'SUSPENDED', 'AM04', 'operator:…wxyz'],
          [4, 'SUSPENDED', 'CANCELLED', 'CUST', 'user:alice'],
        ];
        for (const [version, from, to, reason, actor] of rows)
          await db.execute(
            `INSERT INTO payment_status_history
               (payment_id, version, changed_at, from_status, to_status, reason, actor)
             VALUES ('PO-1', $1, $2, $3, $4, $5, $6)`,
            [version, T0.toISOString(), from, to, reason, actor],
          );
        await runMigrations(db, 'payments', paymentMigrations);
        const entries = await historyPage(db, 'PO-1', { limit: 10 });
        assert.deepEqual(
          entries.map((e) => [e.version, e.kind, e.fromStatus, e.toStatus, e.reason, e.actor]),
          [...rows]
            .reverse()
            .map(([version, from, to, reason, actor]) => [
              version,
              ['CREATED', 'UPDATED', 'STATUS_CHANGED', 'CANCELLED'][version - 1],
              from,
              to,
              reason,
              actor,
            ]),
        );
        assert.equal((await statusHistory(db, 'PO-1')).length, 4);
      } finally {
        await db.close();
        if (kind === 'postgres') await dropSchema(schema);
      }
    },
  );
}
