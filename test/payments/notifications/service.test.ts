// Issue 26, "Status notifications", end to end: the payment service as `toolgate payments` starts it
// (openPaymentsService, its own delivery worker on the system clock) POSTs a signed notification to the
// configured receiver for a creation and for an operator's status change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/load.js';
import { createLogger } from '../../../src/shared/log/logger.js';
import { openPaymentsService } from '../../../src/payments/service.js';
import { LogCapture } from '../../helpers/capture.js';
import {
  GATEWAY_SECRET,
  OPERATOR_TOKEN,
  holdSampleAccounts,
  samplePayment,
  userHeaders,
  BASE,
} from '../harness.js';
import { startReceiver, verifySignature } from './receiver.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';

const SECRET = 'whsec-service-0123456789abcdefghijklmnopqrstuv';

test('the running payment service delivers signed notifications of a creation and a status change', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-webhooks-service-'));
  const receiver = await startReceiver();
  const config = loadConfig({
    env: {},
    overrides: {
      dataDir: dir,
      logging: { level: 'warn' },
      payments: {
        port: 0,
        identity: { sharedSecret: GATEWAY_SECRET },
        operator: { tokens: [OPERATOR_TOKEN] },
        bankLookup: { loadSampleOnStart: false },
        webhooks: [{ url: receiver.url, secret: SECRET }],
        webhookDelivery: { pollIntervalMs: 50 },
      },
    },
  });
  const logs = new LogCapture();
  const { logger } = createLogger({ level: 'info', destination: logs });
  const service = await openPaymentsService(config, logger);
  try {
    const side = openSqlite({ path: join(dir, 'payments.db') });
    await holdSampleAccounts(side, 'alice');
    await side.close();
    const created = await service.app.inject({
      method: 'POST',
      url: `${BASE}/payments`,
      headers: userHeaders('alice'),
      payload: samplePayment(),
    });
    assert.equal(created.statusCode, 201, created.body);
    const id = String(
      (created.json() as { paymentInstructionReference: { identification: string } })
        .paymentInstructionReference.identification,
    );
    await receiver.waitFor(1);
    const changed = await service.app.inject({
      method: 'POST',
      url: `/internal/payments/${id}/status`,
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
      payload: { status: 'PENDING' },
    });
    assert.equal(changed.statusCode, 200, changed.body);
    await receiver.waitFor(2);
    const bodies = receiver.received.map((r) => JSON.parse(r.body) as Record<string, unknown>);
    assert.deepEqual(
      bodies.map((b) => b['type']),
      ['payment.created', 'payment.status_changed'],
    );
    for (const r of receiver.received)
      assert.ok(verifySignature(SECRET, r.headers, r.body, Date.now() / 1000));
    assert.ok(!logs.text.includes(SECRET));
  } finally {
    await service.close(0);
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
