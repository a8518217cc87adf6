// Mechanism "assertion": the payment service trusts only gateway-signed identity assertions, verified
// with the gateway's JWKS fetched over HTTP; everything else claiming an identity is refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createAssertionSigner,
  type AssertionSigner,
} from '../../../src/gateway/auth/assertion/sign.js';
import { BASE, openHarness, samplePayment, type Harness, holdSampleAccounts } from '../harness.js';

const GATEWAY = 'http://127.0.0.1:8080';
const AUDIENCE = 'http://127.0.0.1:8081';

let signer: AssertionSigner;
let jwksServer: Server;
let h: Harness;

before(async () => {
  signer = await createAssertionSigner();
  jwksServer = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(signer.publicJwks()));
  });
  await new Promise<void>((r) => jwksServer.listen(0, '127.0.0.1', r));
  const { port } = jwksServer.address() as AddressInfo;
  h = await openHarness('sqlite', {
    overrides: {
      identity: {
        mechanism: 'assertion',
        assertion: { issuer: GATEWAY, jwksUrl: `http://127.0.0.1:${port}/jwks.json` },
      },
    },
  });
  for (const user of ['carol', 'dave']) await holdSampleAccounts(h.db, user);
});
after(async () => {
  await h.close();
  jwksServer.close();
});

const assertionFor = (subject: string, audience = AUDIENCE, ttlSeconds = 60) =>
  signer.signAssertion({
    issuer: GATEWAY,
    audience,
    subject,
    ttlSeconds,
    claims: { app: 'demo-agent' },
  });

async function create(headers: Record<string, string>) {
  return h.app.inject({
    method: 'POST',
    url: `${BASE}/payments`,
    headers,
    payload: samplePayment(),
  });
}

test('a valid assertion identifies the user: the payment belongs to them', async () => {
  const res = await create({ 'x-toolgate-identity': await assertionFor('carol') });
  assert.equal(res.statusCode, 201, res.body);
  const id = (res.json() as { paymentInstructionReference: { identification: string } })
    .paymentInstructionReference.identification;
  const mine = await h.app.inject({
    url: `${BASE}/payments/${id}`,
    headers: { 'x-toolgate-identity': await assertionFor('carol') },
  });
  assert.equal(mine.statusCode, 200);
  const theirs = await h.app.inject({
    url: `${BASE}/payments/${id}`,
    headers: { 'x-toolgate-identity': await assertionFor('mallory') },
  });
  assert.equal(theirs.statusCode, 404, "another user's payment does not exist for them");
});

test('an assertion for another audience, or an anonymous one, does not make a user', async () => {
  const wrongAudience = await create({
    'x-toolgate-identity': await assertionFor('carol', 'http://other-backend'),
  });
  assert.equal(wrongAudience.statusCode, 401);
  assert.equal((wrongAudience.json() as { code: string }).code, 'IDENTITY_REJECTED');
  const anonymous = await create({ 'x-toolgate-identity': await assertionFor('anonymous') });
  assert.equal(anonymous.statusCode, 401, 'anonymous callers cannot create payments');
});

test('spoofing: X-User-Id without an assertion, a forged assertion, or a shared-secret header are refused', async () => {
  const attempts: Record<string, string>[] = [
    { 'x-user-id': 'carol' },
    { 'x-user-id': 'carol', 'x-toolgate-gateway-key': 'test-gateway-secret-0123456789' },
    { 'x-toolgate-identity': `${(await assertionFor('carol')).slice(0, -6)}AAAAAA` },
  ];
  for (const headers of attempts) {
    const res = await create(headers);
    assert.equal(res.statusCode, 401, JSON.stringify(headers));
  }
});

test('a user token from elsewhere (other issuer key) is not an assertion', async () => {
  const other = await createAssertionSigner();
  const forged = await other.signAssertion({
    issuer: GATEWAY,
    audience: AUDIENCE,
    subject: 'carol',
  });
  const res = await create({ 'x-toolgate-identity': forged });
  assert.equal(res.statusCode, 401);
});

test('an assertion whose subject is not exact visible ASCII is refused, never trimmed into another user', async () => {
  const res = await create({ 'x-toolgate-identity': await assertionFor('dave') });
  assert.equal(res.statusCode, 201, res.body);
  const id = (res.json() as { paymentInstructionReference: { identification: string } })
    .paymentInstructionReference.identification;
  for (const subject of ['dave ', ' dave', '\tdave', 'dave\t', 'da\u0000ve', 'davé']) {
    const read = await h.app.inject({
      url: `${BASE}/payments/${id}`,
      headers: { 'x-toolgate-identity': await assertionFor(subject) },
    });
    assert.equal(read.statusCode, 401, JSON.stringify(subject));
    assert.equal((read.json() as { code: string }).code, 'IDENTITY_REJECTED');
  }
});
