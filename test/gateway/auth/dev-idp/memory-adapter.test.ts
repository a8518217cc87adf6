import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createMemoryStore,
  memoryAdapter,
} from '../../../../src/gateway/auth/dev-idp/memory-adapter.js';

test('entries expire, are found by uid, consumed in place, and revoked per grant across models', async () => {
  let now = 1_000_000;
  const Adapter = memoryAdapter(createMemoryStore(() => now));
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
