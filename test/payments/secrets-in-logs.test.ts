// The gateway secret and operator tokens never reach the logs, even at trace level and on failures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  GATEWAY_SECRET,
  OPERATOR_TOKEN,
  openHarness,
  send,
  samplePayment,
  json,
  holdSampleAccounts,
} from './harness.js';

test('secrets are not logged', async () => {
  const h = await openHarness('sqlite', { logLevel: 'trace' });
  try {
    await holdSampleAccounts(h.db, 'logged');
    const created = await send(h, 'logged', 'POST', 'payments', samplePayment());
    const id = String(
      (json(created)['paymentInstructionReference'] as Record<string, unknown>)['identification'],
    );
    await send(
      h,
      undefined,
      'POST',
      `/internal/payments/${id}/status`,
      { status: 'PENDING' },
      { authorization: `Bearer ${OPERATOR_TOKEN}` },
    );
    await send(
      h,
      undefined,
      'POST',
      `/internal/payments/${id}/status`,
      { status: 'PENDING' },
      { authorization: `Bearer ${OPERATOR_TOKEN}x` },
    );
    await send(h, undefined, 'GET', 'payments', undefined, {
      'x-user-id': 'x',
      'x-toolgate-gateway-key': `${GATEWAY_SECRET}-wrong`,
    });
    assert.ok(h.logs.lines.length > 3, 'trace logging produced lines');
    assert.ok(h.logs.text.includes('payment status changed by operator'));
    assert.ok(!h.logs.text.includes(GATEWAY_SECRET));
    assert.ok(!h.logs.text.includes(OPERATOR_TOKEN));
  } finally {
    await h.close();
  }
});
