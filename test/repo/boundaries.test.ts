// The application boundaries of docs/architecture.md are enforced by ESLint (eslint.config.js): this test
// proves the rule fires for each forbidden direction and stays quiet for the allowed ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';

// The suite runs from the repository root (scripts/run-tests.mjs sets cwd).
const root = process.cwd();

async function restricted(file: string, source: string): Promise<boolean> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(source, { filePath: `${root}/${file}` });
  return (result?.messages ?? []).some((m) => m.ruleId === 'no-restricted-imports');
}

test('gateway ↛ payments, payments ↛ gateway, shared ↛ either (and shared ↛ cli)', async () => {
  const cases: [string, string, boolean][] = [
    ['src/gateway/mcp/probe.ts', "import { x } from '../../payments/app.js';", true],
    ['src/payments/routes/probe.ts', "import { x } from '../../gateway/errors.js';", true],
    ['src/shared/http/probe.ts', "import { x } from '../../gateway/errors.js';", true],
    ['src/shared/probe.ts', "import { x } from '../payments/app.js';", true],
    ['src/shared/probe.ts', "import { x } from '../cli/main.js';", true],
    // Allowed: shared code from an application, configuration types from shared code, the CLI wiring both.
    ['src/gateway/mcp/probe.ts', "import { x } from '../../shared/json-depth.js';", false],
    ['src/shared/probe.ts', "import type { X } from '../config/schema.js';", false],
    ['src/cli/probe.ts', "import { x } from '../payments/app.js';", false],
  ];
  for (const [file, line, expected] of cases)
    assert.equal(
      await restricted(file, `${line}\nexport const y = x;\n`),
      expected,
      `${file}: ${line}`,
    );
});

test('payment domain ↛ shared/http, storage, routes, http, identity, use cases (and still ↛ gateway)', async () => {
  const cases: [string, string, boolean][] = [
    [
      'src/payments/domain/probe.ts',
      "import type { X } from '../../shared/http/problem.js';",
      true,
    ],
    ['src/payments/domain/rules/probe.ts', "import { x } from '../../http/context.js';", true],
    ['src/payments/domain/probe.ts', "import { x } from '../storage/payments-repo.js';", true],
    [
      'src/payments/domain/fees/probe.ts',
      "import { x } from '../../storage/idempotency.js';",
      true,
    ],
    ['src/payments/domain/probe.ts', "import { x } from '../routes/payments.js';", true],
    ['src/payments/domain/probe.ts', "import { x } from '../http/context.js';", true],
    ['src/payments/domain/probe.ts', "import { x } from '../identity/types.js';", true],
    ['src/payments/domain/rules/probe.ts', "import { x } from '../../usecases/payments.js';", true],
    ['src/payments/domain/probe.ts', "import { x } from '../../gateway/errors.js';", true],
    // Allowed: the domain's own modules, the generated order types, configuration types, pure checkers.
    ['src/payments/domain/rules/probe.ts', "import { x } from '../payment-order.js';", false],
    [
      'src/payments/domain/probe.ts',
      "import type { X } from '../openapi/payment-order.generated.js';",
      false,
    ],
    [
      'src/payments/domain/probe.ts',
      "import type { X } from '../../config/payments-fees.js';",
      false,
    ],
    [
      'src/payments/domain/rules/probe.ts',
      "import { x } from '../../directory/routing-number.js';",
      false,
    ],
    // The HTTP layer is where problems are built.
    ['src/payments/http/probe.ts', "import { x } from '../../shared/http/problem.js';", false],
  ];
  for (const [file, line, expected] of cases)
    assert.equal(
      await restricted(file, `${line}\nexport const y = x;\n`),
      expected,
      `${file}: ${line}`,
    );
});

test('payment routes ↛ storage (use cases own it), and still ↛ gateway', async () => {
  const cases: [string, string, boolean][] = [
    ['src/payments/routes/probe.ts', "import { x } from '../storage/payments-repo.js';", true],
    ['src/payments/routes/probe.ts', "import type { X } from '../storage/idempotency.js';", true],
    ['src/payments/routes/probe.ts', "import { x } from '../../gateway/errors.js';", true],
    // Allowed: use cases, the HTTP layer, the domain's types and errors.
    ['src/payments/routes/probe.ts', "import { x } from '../usecases/payments.js';", false],
    ['src/payments/routes/probe.ts', "import { x } from '../http/context.js';", false],
    ['src/payments/routes/probe.ts', "import { x } from '../domain/errors.js';", false],
    // Use cases reach storage.
    ['src/payments/usecases/probe.ts', "import { x } from '../storage/payments-repo.js';", false],
  ];
  for (const [file, line, expected] of cases)
    assert.equal(
      await restricted(file, `${line}\nexport const y = x;\n`),
      expected,
      `${file}: ${line}`,
    );
});
