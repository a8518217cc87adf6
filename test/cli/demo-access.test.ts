// The demo subscription `toolgate start` creates is provisioned like any other: through KeyProvisioning,
// with its audit entry, and reused (no second subscription, no second entry) while its key still works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { demoAccess } from '../../src/cli/demo.js';
import { openGatewayStore } from '../../src/cli/commands/gateway-store.js';
import { AuditLog } from '../../src/gateway/admin/audit-log.js';

test('the demo subscription is created through KeyProvisioning: audited once, reused on the next start', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-demo-access-'));
  const config = loadConfig({ env: { TOOLGATE_DATA_DIR: dataDir } });

  const first = await demoAccess(config);
  const second = await demoAccess(config);
  assert.equal(second.subscriptionKey, first.subscriptionKey);

  const { db } = await openGatewayStore(config, { mayCreate: false });
  try {
    const created = await new AuditLog(db).query({ action: 'subscription.create' });
    assert.equal(created.length, 1);
    const [entry] = created;
    assert.equal(entry?.actor.subject, 'system');
    assert.equal(entry?.target.type, 'subscription');
    assert.equal((entry?.after as { application?: string }).application, 'demo-agent');
    assert.equal((await new AuditLog(db).verify()).ok, true);
  } finally {
    await db.close();
  }
});
