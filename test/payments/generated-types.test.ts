// The payment order's TypeScript types are generated from its OpenAPI document (one source): the committed
// module is byte for byte what the generator makes of payment-order.yaml, and a YAML changed without
// regenerating is caught.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = process.cwd();
const SCRIPT = path.join(root, 'scripts', 'generate-payment-order-types.mjs');
const YAML = path.join(root, 'src', 'payments', 'openapi', 'payment-order.yaml');

const generator = (...args: string[]) =>
  spawnSync(process.execPath, [SCRIPT, ...args], { cwd: root, encoding: 'utf8' });

test('the committed payment-order types are exactly what the YAML generates', () => {
  const checked = generator('--check');
  assert.equal(checked.status, 0, checked.stderr);
  assert.match(checked.stdout, /payment-order\.generated\.ts is up to date/);
});

test('a YAML changed without regenerating fails the check, naming the command to run', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'toolgate-types-'));
  try {
    const changed = path.join(scratch, 'payment-order.yaml');
    const yaml = readFileSync(YAML, 'utf8');
    const edited = yaml.replace(
      '    RemittanceInfo:\n',
      '    RemittanceInfo:\n      required: [content]\n',
    );
    assert.notEqual(edited, yaml, 'the edit applies');
    writeFileSync(changed, edited);
    const checked = generator('--check', '--yaml', changed);
    assert.equal(checked.status, 1, checked.stdout);
    assert.match(checked.stderr, /is not what .* generates: run npm run generate:types/);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
