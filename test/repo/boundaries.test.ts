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
  // The application boundaries use ESLint's rule; the layers inside the gateway typescript-eslint's
  // variant of it, so both apply to one file.
  return (result?.messages ?? []).some(
    (m) =>
      m.ruleId === 'no-restricted-imports' ||
      m.ruleId === '@typescript-eslint/no-restricted-imports',
  );
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

test('config ↛ gateway, payments, cli (src/config and test/config); shared code and other config modules are fine', async () => {
  const cases: [string, string, boolean][] = [
    ['src/config/probe.ts', "import { x } from '../gateway/auth/jwt/secure-url.js';", true],
    ['src/config/probe.ts', "import { x } from '../payments/domain/money.js';", true],
    ['src/config/probe.ts', "import { x } from '../cli/main.js';", true],
    [
      'test/config/probe.test.ts',
      "import { x } from '../../src/gateway/ratelimit/limiter.js';",
      true,
    ],
    ['test/config/probe.test.ts', "import { x } from '../../src/cli/demo.js';", true],
    // Allowed: shared code, another configuration module; and the applications reading configuration.
    ['src/config/probe.ts', "import { x } from '../shared/secure-url.js';", false],
    ['src/config/probe.ts', "import { x } from './gateway-jwt.js';", false],
    ['test/config/probe.test.ts', "import { x } from '../../src/config/load.js';", false],
    ['src/gateway/auth/probe.ts', "import { x } from '../../config/gateway-jwt.js';", false],
  ];
  for (const [file, line, expected] of cases)
    assert.equal(
      await restricted(file, `${line}\nexport const y = x;\n`),
      expected,
      `${file}: ${line}`,
    );
});

test('gateway data plane ↛ admin plane and portal; upstream ↛ mcp; catalogue ↛ forwarding, storage', async () => {
  const cases: [string, string, boolean][] = [
    [
      'src/gateway/auth/subscriptions/probe.ts',
      "import { x } from '../../admin/key-policy.js';",
      true,
    ],
    ['src/gateway/storage/probe.ts', "import { x } from '../admin/migrations.js';", true],
    ['src/gateway/probe.ts', "import { x } from './admin/services.js';", true],
    ['src/gateway/mcp/probe.ts', "import { x } from '../portal/plugin.js';", true],
    ['src/gateway/upstream/probe.ts', "import { x } from '../admin/app.js';", true],
    ['src/gateway/catalogue/probe.ts', "import type { X } from '../admin/tool-settings.js';", true],
    ['src/gateway/upstream/probe.ts', "import { x } from '../mcp/raw-json.js';", true],
    ['src/gateway/catalogue/probe.ts', "import { x } from '../forwarding/identity.js';", true],
    ['src/gateway/catalogue/probe.ts', "import type { X } from '../storage/approvals.js';", true],
    // The application boundary still holds where a gateway layer rule applies too.
    ['src/gateway/upstream/probe.ts', "import { x } from '../../payments/app.js';", true],
    ['src/gateway/catalogue/probe.ts', "import { x } from '../../payments/app.js';", true],
    // Allowed: the admin plane and the database wiring import the data plane and the admin migrations;
    // the data plane its own layers downwards; names that only look alike.
    ['src/gateway/admin/probe.ts', "import { x } from '../auth/subscriptions/store.js';", false],
    ['src/gateway/portal/probe.ts', "import { x } from '../admin/authenticate.js';", false],
    ['src/gateway/database.ts', "import { x } from './admin/migrations.js';", false],
    ['src/gateway/mcp/probe.ts', "import { x } from '../upstream/backend-client.js';", false],
    ['src/gateway/storage/probe.ts', "import type { X } from '../catalogue/directory.js';", false],
    ['src/gateway/auth/dev-idp/probe.ts', "import { x } from './portal-client.js';", false],
    // The identity settings in force read the stored versions through the data plane's own reader.
    [
      'src/gateway/auth/live-identity.ts',
      "import { x } from '../admin/identity-provider/store.js';",
      true,
    ],
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
