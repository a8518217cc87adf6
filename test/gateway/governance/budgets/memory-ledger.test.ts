// Money budgets on the memory store (issue 25, "Money budgets": "on the same stores as the quotas").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryBudgetStore } from '../../../../src/gateway/governance/budgets/memory-store.js';
import { ledgerContract } from './ledger-contract.js';

ledgerContract({
  name: 'memory',
  skip: false,
  create: () => Promise.resolve(new MemoryBudgetStore({ sweepIntervalMs: 0 })),
});

describe('memory budget store specifics', () => {
  it('counters and release marks expire after their TTL and are swept', async () => {
    let now = 1_000_000;
    const store = new MemoryBudgetStore({ now: () => now, sweepIntervalMs: 0 });
    const counter = { key: 'u:alice:day', limitMinor: 100, ttlMs: 1000 };
    assert.deepEqual(await store.reserve([counter], 100), { ok: true });
    assert.deepEqual(await store.reserve([counter], 1), { ok: false, index: 0, usedMinor: 100 });
    assert.equal(await store.release('r1', [counter], 50, 500), true);
    assert.equal(await store.release('r1', [counter], 50, 500), false);
    assert.equal(await store.used(counter.key), 50);
    now += 1000;
    assert.equal(await store.used(counter.key), 0);
    assert.equal(store.sweep(), 1);
    await store.close();
  });
});
