// Money budgets fail closed (docs/decisions.md, D-241): while the shared store is down, a call with a
// budget is refused with BUDGET_UNAVAILABLE and never admitted unchecked; a release is logged, not thrown;
// once Redis is back, reservations work again. Against a real redis-server on a socket of this test's own,
// reached through a TCP relay bound to port 0 (test/helpers/tcp-relay.ts).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseBudgetsConfig } from '../../../../src/config/gateway-governance-budgets.js';
import { parseRateLimitConfig } from '../../../../src/config/gateway-ratelimit.js';
import { openBudgetLedger } from '../../../../src/gateway/governance/budgets/open.js';
import { GatewayError } from '../../../../src/gateway/errors.js';
import { startTcpRelay } from '../../../helpers/tcp-relay.js';
import { limit, paymentCall } from './calls.js';

const REDIS_SERVER = '/usr/bin/redis-server';
const skip = existsSync(REDIS_SERVER) ? false : `${REDIS_SERVER} not installed`;
const scratch = mkdtempSync(join(tmpdir(), 'toolgate-budget-outage-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function startRedis(socket: string): Promise<ChildProcess> {
  const child = spawn(
    REDIS_SERVER,
    [
      '--port',
      '0',
      '--unixsocket',
      socket,
      '--unixsocketperm',
      '700',
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not become ready: ${out}`));
    }, 15_000);
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/ready to accept connections/i.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
  });
}

function stopRedis(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('budgets while Redis is down', { skip }, () => {
  it('refuse with BUDGET_UNAVAILABLE (fail closed), log a failed release, and recover', async () => {
    const socket = join(scratch, 'budget.sock');
    let redis = await startRedis(socket);
    const relay = await startTcpRelay(socket);
    const warnings: string[] = [];
    const url = `redis://127.0.0.1:${relay.port}`;
    const ledger = await openBudgetLedger(
      {
        gateway: {
          rateLimit: parseRateLimitConfig({ redis: { url } }),
          redis: { connectTimeoutMs: 2000, commandTimeoutMs: 200 },
          governance: { budgets: parseBudgetsConfig({ redis: { commandTimeoutMs: 2000 } }) },
        },
      },
      { logger: { warn: (_obj, msg) => warnings.push(msg) } },
      10_000,
    );
    try {
      assert.equal(ledger.store, 'redis');
      const day = limit(10_000);
      const call = paymentCall({ baseMinor: 1000 });
      const first = await ledger.reserve(call, [day]);
      assert.ok(first.ok);

      await stopRedis(redis);
      await assert.rejects(ledger.reserve(paymentCall({ baseMinor: 1000 }), [day]), (err) => {
        assert.ok(err instanceof GatewayError);
        assert.equal(err.code, 'BUDGET_UNAVAILABLE');
        assert.equal(err.httpStatus, 503);
        assert.match(err.message, /not made; try again/);
        return true;
      });
      await ledger.release(call, first.reservation);
      assert.ok(warnings.some((w) => /release failed/.test(w)));
      assert.ok(warnings.some((w) => /fail closed/.test(w)));

      redis = await startRedis(socket);
      // The client reconnects in the background: wait for a reservation to go through (no sleeping
      // for a guessed time; bounded so a broken reconnect fails the test).
      const deadline = Date.now() + 20_000;
      let back = false;
      while (!back && Date.now() < deadline) {
        try {
          back = (await ledger.reserve(paymentCall({ baseMinor: 1000 }), [day])).ok;
        } catch {
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      assert.equal(back, true);
    } finally {
      await ledger.close();
      await relay.close();
      await stopRedis(redis);
    }
  });
});

describe('openBudgetLedger', () => {
  it('uses memory when the quotas do (no Redis configured), and closes cleanly', async () => {
    const ledger = await openBudgetLedger({
      gateway: {
        rateLimit: parseRateLimitConfig({}),
        redis: { connectTimeoutMs: 2000, commandTimeoutMs: 200 },
        governance: { budgets: parseBudgetsConfig({}) },
      },
    });
    assert.equal(ledger.store, 'memory');
    const day = limit(1000);
    assert.ok((await ledger.reserve(paymentCall({ baseMinor: 1000 }), [day])).ok);
    assert.equal((await ledger.reserve(paymentCall({ baseMinor: 1 }), [day])).ok, false);
    await ledger.close();
  });
});
