import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isValidIBAN } from 'ibantools';
import { loadConfig } from '../../../src/config/load.js';
import { createLogger } from '../../../src/shared/log/logger.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import { openPaymentsService } from '../../../src/payments/service.js';
import {
  generateSampleDirectory,
  generateFedachRecords,
} from '../../../src/payments/directory/sample.js';
import { parseRoutingNumber } from '../../../src/payments/directory/routing-number.js';
import { parseBic } from '../../../src/payments/directory/bic.js';
import { DirectoryStore } from '../../../src/payments/directory/store.js';
import { LogCapture } from '../../helpers/capture.js';

test('the sample is deterministic, a few dozen banks, every code valid', () => {
  const a = generateSampleDirectory();
  assert.deepEqual(generateSampleDirectory(), a);
  assert.notDeepEqual(generateSampleDirectory(1), a);
  const districts = new Set<number | undefined>();
  for (const r of [...a.fedach, ...a.fedwire]) {
    const p = parseRoutingNumber(r.routingNumber);
    assert.ok(p.ok, r.routingNumber);
    districts.add(p.value.district);
  }
  assert.equal(districts.size, 12, 'one bank per Federal Reserve district');
  const countries = new Set(a.csv.map((r) => r.country));
  for (const c of ['US', 'DE', 'GB', 'FR', 'NL', 'CH']) assert.ok(countries.has(c), c);
  for (const r of a.csv) assert.ok(r.bic && parseBic(r.bic).ok, r.bic);
  assert.ok(a.exampleIbans.length >= 20);
  for (const e of a.exampleIbans) assert.ok(isValidIBAN(e.iban), e.iban);
});

test('bulk FedACH generator yields distinct valid routing numbers', () => {
  const seen = new Set<string>();
  for (const r of generateFedachRecords(2000, 5)) {
    assert.ok(parseRoutingNumber(r.routingNumber).ok);
    seen.add(r.routingNumber);
  }
  assert.equal(seen.size, 2000);
});

test('the payment service loads the sample on first start only when the directory is empty', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-sample-'));
  try {
    const config = loadConfig({
      env: {},
      overrides: { dataDir: dir, logging: { level: 'warn' }, payments: { port: 0 } },
    });
    const { logger } = createLogger({ level: 'warn', destination: new LogCapture() });
    const first = await openPaymentsService(config, logger);
    await first.close(0);
    const db = openSqlite({ path: join(dir, 'payments.db') });
    const store = new DirectoryStore(db);
    const count = await store.count();
    assert.equal(count, 53);
    await db.execute("DELETE FROM bank_directory WHERE source = 'csv'");
    await db.close();
    const second = await openPaymentsService(config, logger);
    await second.close(0);
    const again = openSqlite({ path: join(dir, 'payments.db') });
    assert.equal(await new DirectoryStore(again).count(), 22, 'not reloaded: not empty');
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
