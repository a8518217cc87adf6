// Notification of new approvals (issue 25: "Pending approvals are listed for approvers, with notification
// via a configurable webhook"): a local HTTP receiver gets a signed POST when an approval is created, a
// failed delivery is retried, and the call that asked for the approval never waits for the webhook.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createConsentService } from '../../../src/gateway/governance/consent/service.js';
import {
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  webhookSignature,
} from '../../../src/gateway/governance/consent/webhook.js';
import { createLogger } from '../../../src/shared/log/logger.js';
import { DATABASE_TARGETS, testConfig } from '../admin/support.js';
import { consentDecision, paymentCall } from './consent-support.js';

const SECRET = 'webhook-secret-0123456789abcdef';

interface Received {
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A receiver answering each POST with the next status of `statuses` (then 204), recording what came. */
async function receiver(statuses: number[]) {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(statuses.shift() ?? 204).end();
      waiters.splice(0).forEach((w) => w());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/approvals`,
    received,
    /** Resolves once `n` requests have arrived. */
    async count(n: number) {
      while (received.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('a new approval is POSTed to the webhook, signed (HMAC-SHA256 over timestamp and body); a reused one is not announced again', async () => {
  const hook = await receiver([]);
  const opened = await DATABASE_TARGETS[0]!.open();
  try {
    const config = testConfig({
      admin: { publicUrl: 'https://admin.example.test' },
      gateway: {
        governance: { approvals: { webhook: { url: hook.url, secret: SECRET, retries: 0 } } },
      },
    });
    const consent = createConsentService({
      db: opened.db,
      config,
      logger: createLogger({ level: 'silent' }).logger,
    });
    const approval = await consent.request(
      paymentCall({ amount: '15000.00' }),
      consentDecision('approve'),
    );
    await hook.count(1);
    const [first] = hook.received;
    assert.ok(first);
    assert.equal(first.headers['content-type'], 'application/json');
    const timestamp = Number(first.headers[TIMESTAMP_HEADER]);
    assert.ok(Number.isInteger(timestamp) && timestamp > 0);
    assert.equal(first.headers[SIGNATURE_HEADER], webhookSignature(SECRET, timestamp, first.body));
    assert.match(String(first.headers[SIGNATURE_HEADER]), /^v1=[0-9a-f]{64}$/);
    const payload = JSON.parse(first.body) as {
      type: string;
      approval: Record<string, unknown>;
    };
    assert.equal(payload.type, 'approval.created');
    assert.equal(payload.approval.id, approval.id);
    assert.equal(
      payload.approval.url,
      `https://admin.example.test/portal/approvals/${approval.id}`,
    );
    assert.equal(payload.approval.kind, 'approve');
    assert.equal(payload.approval.approverRole, 'payments-approver');
    assert.equal(payload.approval.initiator, 'alice');
    assert.ok(!first.body.includes(SECRET), 'the secret never travels');

    await consent.request(paymentCall({ amount: '15000.00' }), consentDecision('approve'));
    const other = await consent.request(
      paymentCall({ amount: '16000.00' }),
      consentDecision('approve'),
    );
    await hook.count(2);
    assert.equal(
      (JSON.parse(hook.received[1]!.body) as { approval: { id: string } }).approval.id,
      other.id,
      'the reused pending approval was not announced a second time',
    );
  } finally {
    await opened.close();
    await hook.close();
  }
});

test('a failed delivery is retried (with back-off) until the receiver accepts it', async () => {
  const hook = await receiver([500, 503]);
  const opened = await DATABASE_TARGETS[0]!.open();
  try {
    const config = testConfig({
      gateway: {
        governance: { approvals: { webhook: { url: hook.url, secret: SECRET, retries: 3 } } },
      },
    });
    const consent = createConsentService({
      db: opened.db,
      config,
      logger: createLogger({ level: 'silent' }).logger,
    });
    const approval = await consent.request(paymentCall(), consentDecision('confirm'));
    await hook.count(3);
    const ids = hook.received.map(
      (r) => (JSON.parse(r.body) as { approval: { id: string } }).approval.id,
    );
    assert.deepEqual(ids, [approval.id, approval.id, approval.id]);
  } finally {
    await opened.close();
    await hook.close();
  }
});

test('the call does not wait for an unreachable webhook', async () => {
  const opened = await DATABASE_TARGETS[0]!.open();
  try {
    // A receiver that accepts the connection and never answers: request() still returns.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
    const config = testConfig({
      gateway: {
        governance: {
          approvals: { webhook: { url, secret: SECRET, retries: 0, timeoutMs: 60000 } },
        },
      },
    });
    const consent = createConsentService({
      db: opened.db,
      config,
      logger: createLogger({ level: 'silent' }).logger,
    });
    const approval = await consent.request(paymentCall(), consentDecision('confirm'));
    assert.equal(approval.status, 'pending');
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  } finally {
    await opened.close();
  }
});
