// The demo wiring of `toolgate start`: when it applies (development, no trust set up by the operator, a
// shipped payment backend configured), why it does not otherwise (one line for the banner), and what it
// changes: the shipped payment backends only; any other backend stays exactly as configured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { planDemo, withDemoWiring } from '../../src/cli/demo.js';

const petstore = {
  name: 'petstore',
  baseUrl: 'https://petstore.example.com/v1',
  openapi: { file: 'examples/petstore/petstore.yaml' },
  injectHeaders: { 'X-Store-Key': 'psk_0123456789' },
  identity: { mode: 'passthrough' },
  approve: 'all',
};
const shippedPayments = {
  name: 'payments',
  baseUrl: 'http://127.0.0.1:8081/payments/payment-order/v1',
  openapi: { file: 'src/payments/openapi/payment-order.yaml' },
  approve: 'all',
};

function config(overrides: Record<string, unknown>, env: Record<string, string> = {}) {
  return loadConfig({
    env: { TOOLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'toolgate-demo-plan-')), ...env },
    overrides,
  });
}

test('planDemo: wires by default and next to custom backends; says why not otherwise', () => {
  assert.deepEqual(planDemo(config({})), { wire: true, access: true });
  assert.deepEqual(planDemo(config({ gateway: { backends: [shippedPayments, petstore] } })), {
    wire: true,
    access: true,
  });
  const production = planDemo(config({}, { TOOLGATE_ENVIRONMENT: 'production' }));
  assert.equal(production.wire, false);
  assert.equal(production.access, false);
  assert.match(!production.wire ? production.reason : '', /^environment is production/);
  const ownTrust = planDemo(config({ payments: { identity: { sharedSecret: 'x'.repeat(32) } } }));
  assert.equal(ownTrust.wire, false);
  assert.match(
    !ownTrust.wire ? ownTrust.reason : '',
    /payments\.identity\.sharedSecret is configured/,
  );
  const onlyCustom = planDemo(config({ gateway: { backends: [petstore] } }));
  assert.equal(onlyCustom.wire, false);
  assert.equal(onlyCustom.access, true, 'the demo key and token still help with other backends');
  assert.match(!onlyCustom.wire ? onlyCustom.reason : '', /none of the shipped payment documents/);
});

test('withDemoWiring: the shipped backend gets the key, the identity secret and the real address; others are untouched', async () => {
  const before = config(
    { gateway: { backends: [shippedPayments, petstore] } },
    { TOOLGATE_PAYMENTS_PORT: '9099' },
  );
  const after = await withDemoWiring(before);
  const [payments, store] = after.gateway.backends;
  assert.deepEqual(
    store,
    before.gateway.backends[1],
    'the third-party backend is exactly as configured',
  );
  assert.equal(payments?.baseUrl, 'http://127.0.0.1:9099/payments/payment-order/v1');
  const secret = after.payments.identity.sharedSecret;
  assert.ok(secret !== undefined && secret.length >= 32);
  assert.equal(payments?.identity.sharedSecret, secret);
  assert.equal(payments?.identity.claims.email, 'X-User-Email');
  assert.deepEqual(Object.keys(payments?.injectHeaders ?? {}), ['api-key']);
  assert.deepEqual(after.payments.bankLookup.apiKeys, [payments?.injectHeaders['api-key']]);
  assert.ok(Object.isFrozen(after.gateway.backends), 'the result is frozen like any configuration');

  // A shipped document served from elsewhere keeps its address (only the local service is rewired).
  const remote = config({
    gateway: { backends: [{ ...shippedPayments, baseUrl: 'https://payments.internal/po/v1' }] },
  });
  assert.equal(
    (await withDemoWiring(remote)).gateway.backends[0]?.baseUrl,
    'https://payments.internal/po/v1',
  );
});
