// Money budgets on Redis (issue 25, "Money budgets": "exact across replicas on the same stores as the
// quotas"; "Tests": "Budgets exact across two gateway replicas on Redis under concurrent calls").
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { CounterBudgetLedger } from '../../../../src/gateway/governance/budgets/ledger.js';
import { RedisBudgetStore } from '../../../../src/gateway/governance/budgets/redis-store.js';
import { REDIS_URL, skipWithoutRedis } from '../../../helpers/infra.js';
import { ledgerContract } from './ledger-contract.js';
import { limit, paymentCall } from './calls.js';

const runPrefix = `toolgate-test:budget:${randomBytes(4).toString('hex')}:`;
let storeNo = 0;

after(async () => {
  if (!REDIS_URL) return;
  const admin = new Redis(REDIS_URL);
  const keys = await admin.keys(`{${runPrefix}*`);
  if (keys.length > 0) await admin.del(...keys);
  await admin.quit();
});

async function redisStore(keyPrefix: string): Promise<RedisBudgetStore> {
  const store = new RedisBudgetStore({ url: REDIS_URL ?? '', keyPrefix, commandTimeoutMs: 5000 });
  await store.ready();
  return store;
}

ledgerContract({
  name: 'redis',
  skip: skipWithoutRedis,
  create: () => redisStore(`${runPrefix}${++storeNo}:`),
});

describe('redis budget store specifics', { skip: skipWithoutRedis }, () => {
  it('two ledgers on two connections (two replicas) admit exactly floor(limit/amount)*amount under concurrent reservations', async () => {
    const prefix = `${runPrefix}replicas:`;
    const stores = [await redisStore(prefix), await redisStore(prefix)];
    const [a, b] = stores.map((s) => new CounterBudgetLedger(s, { timeZone: 'UTC' }));
    try {
      const day = limit(1_000_000, 'user', 'day');
      const month = limit(2_000_000, 'subscription', 'month');
      const amount = 7_001;
      const fire = (ledger: CounterBudgetLedger | undefined) =>
        Array.from({ length: 200 }, () =>
          (ledger as CounterBudgetLedger).reserve(paymentCall({ baseMinor: amount }), [day, month]),
        );
      const outcomes = await Promise.all([...fire(a), ...fire(b)]);
      const admitted = outcomes.filter((o) => o.ok).length;
      const expected = Math.floor(1_000_000 / amount);
      assert.equal(admitted, expected);
      assert.equal(await (a as CounterBudgetLedger).used(paymentCall(), day), expected * amount);
      assert.equal(await (b as CounterBudgetLedger).used(paymentCall(), month), expected * amount);
      for (const o of outcomes)
        if (!o.ok) assert.equal(o.remainingMinor, 1_000_000 - expected * amount);
    } finally {
      for (const s of stores) await s.close();
    }
  });

  it('releases from two replicas at once give a reservation back once', async () => {
    const prefix = `${runPrefix}release:`;
    const stores = [await redisStore(prefix), await redisStore(prefix)];
    const [a, b] = stores.map((s) => new CounterBudgetLedger(s, { timeZone: 'UTC' })) as [
      CounterBudgetLedger,
      CounterBudgetLedger,
    ];
    try {
      const day = limit(10_000);
      const call = paymentCall({ baseMinor: 4000 });
      const first = await a.reserve(call, [day]);
      await a.reserve(paymentCall({ baseMinor: 4000 }), [day]);
      assert.ok(first.ok);
      await Promise.all([a.release(call, first.reservation), b.release(call, first.reservation)]);
      assert.equal(await b.used(call, day), 4000);
    } finally {
      for (const s of stores) await s.close();
    }
  });

  it('keys carry the prefix and expire after their window (plus a margin)', async () => {
    const prefix = `${runPrefix}ttl:`;
    const store = await redisStore(prefix);
    const admin = new Redis(REDIS_URL ?? '');
    try {
      const now = Date.now();
      const ledger = new CounterBudgetLedger(store, { timeZone: 'UTC', now: () => now });
      const at = new Date(now);
      await ledger.reserve(paymentCall({ baseMinor: 100, at, subject: 'ttl-user' }), [limit(1000)]);
      const keys = await admin.keys(`{${prefix}}*`);
      assert.equal(keys.length, 1);
      const [key] = keys as [string];
      assert.match(
        key,
        /^\{toolgate-test:budget:[0-9a-f]+:ttl:\}u:ttl-user:day:\d{4}-\d{2}-\d{2}:budget-user-day:EUR$/,
      );
      const midnight = new Date(at);
      midnight.setUTCHours(24, 0, 0, 0);
      const pttl = await admin.pttl(key);
      const expected = midnight.getTime() - now + 3600_000;
      assert.ok(pttl > 0 && pttl <= expected, `pttl ${pttl}, at most ${expected}`);
    } finally {
      await admin.quit();
      await store.close();
    }
  });

  it('two gateway processes (replicas) on one Redis admit exactly floor(limit/amount)*amount of 600 concurrent reservations', async () => {
    const worker = fileURLToPath(new URL('./budget-worker.js', import.meta.url));
    const prefix = `${runPrefix}processes:`;
    const at = new Date().toISOString();
    const amount = 7_001;
    const children = [0, 1].map(() =>
      spawn(process.execPath, [worker, REDIS_URL ?? '', prefix, String(amount), '300', at], {
        stdio: ['pipe', 'pipe', 'inherit'],
      }),
    );
    const lineOf = (child: (typeof children)[number], want: (l: string) => boolean) =>
      new Promise<string>((resolve, reject) => {
        let buf = '';
        child.stdout.on('data', (chunk: Buffer) => {
          buf += chunk.toString();
          const line = buf.split('\n').find(want);
          if (line !== undefined) resolve(line);
        });
        child.on('exit', (code) => reject(new Error(`worker exited with ${code}`)));
      });
    await Promise.all(children.map((c) => lineOf(c, (l) => l === 'ready')));
    const results = children.map((c) => lineOf(c, (l) => l.startsWith('{')));
    for (const c of children) c.stdin.write('go\n');
    const parsed = (await Promise.all(results)).map(
      (l) => JSON.parse(l) as { admitted: number; total: number },
    );
    assert.deepEqual(
      parsed.map((p) => p.total),
      [300, 300],
    );
    const expected = Math.floor(1_000_000 / amount);
    assert.equal(
      parsed.reduce((sum, p) => sum + p.admitted, 0),
      expected,
    );
    const store = await redisStore(prefix);
    try {
      const ledger = new CounterBudgetLedger(store, { timeZone: 'UTC' });
      const call = paymentCall({ at: new Date(at) });
      assert.equal(await ledger.used(call, limit(1_000_000, 'user', 'day')), expected * amount);
      assert.equal(
        await ledger.used(call, limit(1_500_000, 'subscription', 'month')),
        expected * amount,
      );
    } finally {
      await store.close();
    }
  });
});
