// Issue 26, "Status notifications": the payments.webhooks configuration is checked at load — HTTPS
// required outside loopback (src/shared/secure-url.ts), no credentials in the URL, one entry per URL, a
// secret of at least 32 characters, known event types, back-off bounds in order — and the secrets are
// registered with the log scrubber.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/config/load.js';
import { configuredSecrets } from '../../../src/cli/secrets.js';

const SECRET = 'whsec-config-0123456789abcdefghijklmnopqrstuvw';
const load = (payments: Record<string, unknown>) =>
  loadConfig({ env: {}, overrides: { payments } });

test('payments.webhooks: defaults, and a valid receiver list', () => {
  const none = load({});
  assert.deepEqual(none.payments.webhooks, []);
  assert.equal(none.payments.webhookDelivery.enabled, true);
  assert.equal(none.payments.webhookDelivery.maxAttempts, 12);
  const config = load({
    webhooks: [
      { url: 'https://hooks.example.com/toolgate', secret: SECRET },
      { url: 'http://127.0.0.1:9000/hook', secret: SECRET, events: ['payment.cancelled'] },
    ],
  });
  assert.equal(config.payments.webhooks.length, 2);
  assert.ok(configuredSecrets(config).includes(SECRET));
});

test('payments.webhooks: bad receivers are refused with the key named', () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [
      { webhooks: [{ url: 'http://hooks.example.com/x', secret: SECRET }] },
      /payments\.webhooks\.0\.url: URL must use https/,
    ],
    [
      { webhooks: [{ url: 'https://user:pw@hooks.example.com/x', secret: SECRET }] },
      /payments\.webhooks\.0\.url: URL must not carry credentials/,
    ],
    [
      {
        webhooks: [
          { url: 'https://hooks.example.com/x', secret: SECRET },
          { url: 'https://HOOKS.example.com/x', secret: SECRET },
        ],
      },
      /payments\.webhooks\.1\.url: listed twice/,
    ],
    [{ webhooks: [{ url: 'https://hooks.example.com/x', secret: 'short' }] }, /secret/],
    [
      {
        webhooks: [
          { url: 'https://hooks.example.com/x', secret: SECRET, events: ['payment.paid'] },
        ],
      },
      /events/,
    ],
    [
      { webhookDelivery: { initialBackoffSeconds: 600, maxBackoffSeconds: 60 } },
      /payments\.webhookDelivery\.maxBackoffSeconds: 60 is below initialBackoffSeconds/,
    ],
  ];
  for (const [payments, message] of cases) assert.throws(() => load(payments), message);
});
