import test from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyRequest } from 'fastify';
import { createSharedSecretResolver } from '../../../src/payments/identity/shared-secret.js';
import { PaymentError } from '../../../src/payments/domain/errors.js';

const SECRET = 'first-secret-0123456789';
const ROTATED = 'second-secret-0123456789';
const resolver = createSharedSecretResolver([SECRET, ROTATED]);
const req = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;
const rejected = (e: unknown) => e instanceof PaymentError && e.code === 'IDENTITY_REJECTED';

test('a valid key (either rotated secret) vouches for the user and forwarded claims', async () => {
  for (const key of [SECRET, ROTATED]) {
    const id = await resolver.resolve(
      req({
        'x-toolgate-gateway-key': key,
        'x-user-id': 'auth0|42',
        'x-user-email': 'a@example.com',
        'x-toolgate-application': 'demo-app',
      }),
    );
    assert.deepEqual(id, {
      kind: 'user',
      userId: 'auth0|42',
      claims: { sub: 'auth0|42', email: 'a@example.com' },
      application: 'demo-app',
    });
  }
});

test('no identity headers → anonymous; X-User-Id anonymous with a key → anonymous', async () => {
  assert.deepEqual(await resolver.resolve(req({})), { kind: 'anonymous' });
  assert.deepEqual(
    await resolver.resolve(req({ 'x-toolgate-gateway-key': SECRET, 'x-user-id': 'anonymous' })),
    { kind: 'anonymous' },
  );
  assert.deepEqual(await resolver.resolve(req({ 'x-toolgate-gateway-key': SECRET })), {
    kind: 'anonymous',
  });
});

test('any identity header without a valid key is a spoof attempt', async () => {
  const spoofs: Record<string, string>[] = [
    { 'x-user-id': 'alice' },
    { 'x-user-email': 'alice@example.com' },
    { 'x-toolgate-application': 'x' },
    { 'x-toolgate-identity': 'eyJ.x.y' },
    { 'x-user-id': 'alice', 'x-toolgate-gateway-key': 'first-secret-012345678' },
    { 'x-toolgate-gateway-key': 'wrong' },
  ];
  for (const headers of spoofs) {
    await assert.rejects(resolver.resolve(req(headers)), rejected, JSON.stringify(headers));
  }
  await assert.rejects(
    createSharedSecretResolver([]).resolve(req({ 'x-user-id': 'a', 'x-toolgate-gateway-key': '' })),
    rejected,
  );
  for (const userId of ['tab\there', 'nul\u0000', 'x'.repeat(513)])
    await assert.rejects(
      resolver.resolve(req({ 'x-user-id': userId, 'x-toolgate-gateway-key': SECRET })),
      rejected,
      JSON.stringify(userId),
    );
  // The gateway's subject rule (visible ASCII, inner spaces allowed) is the service's too.
  const spaced = await resolver.resolve(
    req({ 'x-user-id': 'Jane Doe', 'x-toolgate-gateway-key': SECRET }),
  );
  assert.equal(spaced.kind === 'user' ? spaced.userId : spaced.kind, 'Jane Doe');
});
