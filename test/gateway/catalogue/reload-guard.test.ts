// The reload guard (catalogue/reload-guard.ts): a catalogue that leaves a configured backend without tools
// is refused; a reload that removes more than gateway.mcp.reloadMaxLoss of the tools is refused; tools are
// counted per backend, so renames are not losses and gains elsewhere do not hide them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reloadRefusal, toolCounts } from '../../../src/gateway/catalogue/reload-guard.js';
import { catalogueOf } from '../../../src/gateway/catalogue/build.js';
import type { Tool } from '../../../src/gateway/catalogue/types.js';

const tool = (name: string, backend: string) => ({ name, backend }) as unknown as Tool;

test('tools are counted per configured backend, a backend without tools as 0', () => {
  const catalogue = catalogueOf([tool('a', 'payments'), tool('b', 'payments')], []);
  assert.deepEqual(toolCounts(catalogue, [{ name: 'payments' }, { name: 'accounts' }]), {
    payments: 2,
    accounts: 0,
  });
});

test('a backend left without tools is refused, also at startup (nothing to compare with)', () => {
  assert.equal(
    reloadRefusal({ payments: 0, accounts: 2 }, null, 0.5),
    'backend payments: its OpenAPI document yields no tools (no operations under paths)',
  );
  assert.match(
    reloadRefusal({ payments: 0, accounts: 0 }, { payments: 9, accounts: 2 }, 1) ?? '',
    /^backend payments, backend accounts: their OpenAPI documents yield no tools/,
  );
  assert.equal(reloadRefusal({ payments: 9, accounts: 2 }, null, 0.5), undefined);
});

test('more than reloadMaxLoss of the tools gone is refused; exactly that share is not', () => {
  const before = { payments: 9, accounts: 2 };
  assert.equal(
    reloadRefusal({ payments: 2, accounts: 2 }, before, 0.5),
    'the reload would remove 7 of 11 tools (64 %), more than gateway.mcp.reloadMaxLoss (50 %) allows',
  );
  assert.equal(
    reloadRefusal({ payments: 4, accounts: 2 }, { payments: 8, accounts: 2 }, 0.4),
    undefined,
  );
  assert.equal(
    reloadRefusal({ payments: 2, accounts: 2 }, before, 1),
    undefined,
    '1: no share check',
  );
});

test('gains in one backend do not hide losses in another; renames (same count) are no loss', () => {
  assert.match(
    reloadRefusal({ payments: 1, accounts: 20 }, { payments: 9, accounts: 2 }, 0.5) ?? '',
    /remove 8 of 11 tools/,
  );
  assert.equal(reloadRefusal({ payments: 9 }, { payments: 9 }, 0), undefined);
});
