// Issue 26, item 2: each bank-directory rule is one check of payments.directory.acceptance (refuse,
// warn or off); the configuration, the rule table and docs/configuration.md name the same checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIRECTORY_CHECKS, directoryModes } from '../../../src/config/payments-directory.js';
import {
  DIRECTORY_CHECK_OF,
  DIRECTORY_RULES,
} from '../../../src/payments/domain/rules/directory.js';
import { applyDirectoryModes } from '../../../src/payments/usecases/directory-facts.js';
import { loadConfig } from '../../../src/config/load.js';
import type { RuleCode, RuleViolation } from '../../../src/payments/domain/rules/rule.js';

test('every directory rule has its check, and every check a rule', () => {
  const ruleChecks = [...new Set(DIRECTORY_RULES.map((r) => DIRECTORY_CHECK_OF[r.code]))];
  assert.ok(!ruleChecks.includes(undefined), 'a directory rule without a check');
  assert.deepEqual([...ruleChecks].sort(), [...DIRECTORY_CHECKS].sort());
});

test('docs/configuration.md lists every check with its default and rule code', () => {
  const doc = readFileSync(join(process.cwd(), 'docs', 'configuration.md'), 'utf8');
  const defaults = directoryModes({ acceptance: {} });
  for (const check of DIRECTORY_CHECKS) {
    const code = Object.entries(DIRECTORY_CHECK_OF).find(([, c]) => c === check)?.[0] ?? '';
    assert.ok(
      doc.includes(`| \`${check}\` | \`${defaults[check]}\` | \`${code}\` |`),
      `docs/configuration.md row of ${check}`,
    );
  }
});

test('modes: refuse keeps, warn moves to warnings, off drops; other rules always refuse', () => {
  const config = loadConfig({
    env: {},
    overrides: {
      payments: { directory: { acceptance: { renumbered: 'warn', bicCountryMismatch: 'off' } } },
    },
  });
  const modes = directoryModes(config.payments.directory);
  const v = (code: RuleCode): RuleViolation => ({
    pointer: '/x',
    code,
    reason: 'RC10',
    message: code,
  });
  const { refusals, warnings } = applyDirectoryModes(
    [
      v('SAME_ACCOUNT'),
      v('ROUTING_NUMBER_RENUMBERED'),
      v('BIC_COUNTRY_MISMATCH'),
      v('ROUTING_NUMBER_UNKNOWN'),
    ],
    modes,
  );
  assert.deepEqual(
    refusals.map((r) => r.code),
    ['SAME_ACCOUNT', 'ROUTING_NUMBER_UNKNOWN'],
  );
  assert.deepEqual(
    warnings.map((r) => r.code),
    ['ROUTING_NUMBER_RENUMBERED'],
  );
});

test('an unknown check or mode in the configuration is a startup error', () => {
  assert.throws(() =>
    loadConfig({
      env: {},
      overrides: { payments: { directory: { acceptance: { nope: 'warn' } } } },
    }),
  );
  assert.throws(() =>
    loadConfig({
      env: {},
      overrides: { payments: { directory: { acceptance: { renumbered: 'maybe' } } } },
    }),
  );
  assert.throws(() =>
    loadConfig({
      env: {},
      overrides: { payments: { directory: { replaceMaxRemovedPercent: 101 } } },
    }),
  );
});
