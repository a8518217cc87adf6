// The development authorization server's store (issue 27, trap 2): oidc-provider's models in the gateway
// database — expiry, lookup by uid, consumption, revocation per grant — on SQLite and PostgreSQL.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  databaseAdapter,
  openDevIdpStore,
} from '../../../../src/gateway/auth/dev-idp/store-adapter.js';
import type { Database } from '../../../../src/shared/db/types.js';
import { dropSchema, skipWithoutPostgres, uniqueName } from '../../../helpers/infra.js';
import { openTestStore } from './store.js';

function suite(name: string, open: () => Promise<Database>, skip: string | false = false): void {
  describe(name, { skip }, () => {
    test('entries expire, are found by uid, consumed in place, and revoked per grant across models', async () => {
      const db = await open();
      let now = 1_000_000;
      const Adapter = databaseAdapter(db, { now: () => now });
      const codes = new Adapter('AuthorizationCode');
      const refresh = new Adapter('RefreshToken');
      const interactions = new Adapter('Interaction');

      await codes.upsert('c1', { grantId: 'g1', kind: 'AuthorizationCode' }, 60);
      await refresh.upsert('r1', { grantId: 'g1' }, 3600);
      await refresh.upsert('r2', { grantId: 'g2' }, 3600);
      await interactions.upsert('i1', { uid: 'u1' }, 10);

      assert.deepEqual(await codes.find('c1'), { grantId: 'g1', kind: 'AuthorizationCode' });
      assert.equal(await refresh.find('c1'), undefined, 'models do not share ids');
      assert.deepEqual(await interactions.findByUid('u1'), { uid: 'u1' });

      await codes.consume('c1');
      assert.equal((await codes.find('c1'))?.consumed, 1000);

      now += 11_000;
      assert.equal(await interactions.find('i1'), undefined, 'expired after 10 s');
      assert.equal(await interactions.findByUid('u1'), undefined);
      assert.ok(await codes.find('c1'), 'the code lives 60 s');

      await refresh.revokeByGrantId('g1');
      assert.equal(await codes.find('c1'), undefined, 'every artefact of the grant goes');
      assert.equal(await refresh.find('r1'), undefined);
      assert.ok(await refresh.find('r2'), 'other grants stay');

      await refresh.destroy('r2');
      assert.equal(await refresh.find('r2'), undefined);
    });

    test('a client without expiry survives; an upsert replaces the entry and clears its consumption', async () => {
      const db = await open();
      const Adapter = databaseAdapter(db, {
        filter: (model, payload) => (model === 'Client' ? { ...payload, filtered: true } : payload),
      });
      const clients = new Adapter('Client');
      await clients.upsert('client-1', { client_id: 'client-1', scope: 'openid' });
      assert.deepEqual(await clients.find('client-1'), {
        client_id: 'client-1',
        scope: 'openid',
        filtered: true,
      });
      const sessions = new Adapter('Session');
      await sessions.upsert('s1', { uid: 'x', v: 1 }, 60);
      await sessions.consume('s1');
      await sessions.upsert('s1', { uid: 'x', v: 2 }, 60);
      assert.deepEqual(await sessions.find('s1'), { uid: 'x', v: 2 });
    });

    test('every process on the database signs cookies with the same key, made once', async () => {
      const db = await open();
      const first = await openDevIdpStore(db);
      const second = await openDevIdpStore(db);
      assert.equal(first.cookieKeys.length, 1);
      assert.ok((first.cookieKeys[0] ?? '').length >= 43, '256 bits');
      assert.deepEqual(second.cookieKeys, first.cookieKeys);
    });
  });
}

suite('dev-idp store on SQLite', () =>
  openTestStore(mkdtempSync(join(tmpdir(), 'tg-dev-idp-store-'))),
);

const schema = uniqueName('tg_dev_idp_store');
suite(
  'dev-idp store on PostgreSQL',
  async () => {
    const db = await openTestStore(mkdtempSync(join(tmpdir(), 'tg-dev-idp-store-')), schema);
    await db.execute('DELETE FROM dev_idp_entries');
    return db;
  },
  skipWithoutPostgres,
);
after(() => dropSchema(schema));
