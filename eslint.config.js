// Flat ESLint configuration: typescript-eslint's recommended rules plus the project's own guards.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Forbids imports from the named top-level folders of src/ in the given files. */
function boundary(files, folders, message) {
  return {
    files: [files],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: folders.map((folder) => ({
            regex: `^(\\.\\./)+(src/)?${folder}(/|$)`,
            message,
          })),
        },
      ],
    },
  };
}

/** The data plane never imports the admin plane or the portal (relative imports from anywhere in it). */
const GATEWAY_PLANES = {
  regex: '^(\\./|(\\.\\./)+)(gateway/)?(admin|portal)(/|$)',
  message:
    'The gateway data plane never imports the admin plane or the portal: it reads what they write through interfaces it owns.',
};

/** A sibling folder of src/gateway, seen from a file inside another one. */
function gatewayLayer(folder, message) {
  return { regex: `^(\\.\\./)+${folder}(/|$)`, message };
}

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-console': 'off',
    },
  },
  {
    // Configuration is parsed once at startup: only src/config and the CLI entry read process.env.
    files: ['src/**/*.ts'],
    ignores: ['src/config/**', 'src/cli/main.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration from the frozen Config object instead.',
        },
      ],
    },
  },
  // Boundaries (docs/architecture.md): the gateway and the payment service are separate applications
  // that share only src/shared (and are wired by src/config and src/cli); shared code knows neither.
  boundary('src/gateway/**/*.ts', ['payments'], 'The gateway never imports payment-service code.'),
  boundary('src/payments/**/*.ts', ['gateway'], 'The payment service never imports gateway code.'),
  boundary(
    'src/shared/**/*.ts',
    ['gateway', 'payments', 'cli'],
    'Shared code imports neither application nor the CLI (configuration types are fine).',
  ),
  // Configuration is loaded, checked and resolved on its own: the applications and the CLI read it, it
  // reads none of them (what both need lives in src/shared). Its tests hold it the same way.
  boundary(
    'src/config/**/*.ts',
    ['gateway', 'payments', 'cli'],
    'Configuration imports no gateway, payment-service or CLI code (move what both need to src/shared).',
  ),
  boundary(
    'test/config/**/*.ts',
    ['gateway', 'payments', 'cli'],
    'Configuration tests exercise src/config alone (tests of how an application reads it live with the application).',
  ),
  // Layers inside the gateway (docs/architecture.md, "Building the gateway"): typescript-eslint's variant
  // of the rule, so these stack with the application boundaries above instead of replacing them. Each
  // block repeats the planes pattern because a later block for the same files replaces the rule's options.
  // The data plane: src/gateway except admin/ and portal/ (which write what it reads) and database.ts (the
  // one module that knows every component's migrations).
  {
    files: ['src/gateway/**/*.ts'],
    ignores: [
      'src/gateway/admin/**',
      'src/gateway/portal/**',
      'src/gateway/database.ts',
      'src/gateway/upstream/**',
      'src/gateway/catalogue/**',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [GATEWAY_PLANES] }],
    },
  },
  {
    files: ['src/gateway/upstream/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            GATEWAY_PLANES,
            gatewayLayer(
              'mcp',
              'Upstream code (backend HTTP) never imports the MCP layer above it.',
            ),
          ],
        },
      ],
    },
  },
  {
    files: ['src/gateway/catalogue/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            GATEWAY_PLANES,
            gatewayLayer(
              'forwarding',
              'The catalogue never imports identity forwarding (it owns the rule it needs).',
            ),
            gatewayLayer(
              'storage',
              'The catalogue never imports storage: storage implements the interfaces the catalogue owns.',
            ),
          ],
        },
      ],
    },
  },
  // The payment service's layers (docs/architecture.md, "The payment service"), with typescript-eslint's
  // variant of the rule so they stack with payments ↛ gateway above. The domain is pure: no HTTP (it
  // carries its own FieldProblem and RuleViolation; the HTTP layer converts them), storage, identity,
  // routes or use cases. Routes call use cases, which own storage and its transactions.
  {
    files: ['src/payments/domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(src/)?shared/http(/|$)',
              message:
                'The payment domain carries its own types (FieldProblem, RuleViolation); the HTTP layer converts them.',
            },
            {
              regex: '^(\\.\\./)+(payments/)?(storage|routes|http|usecases|identity)(/|$)',
              message:
                'The payment domain is pure: routes and use cases call it, it calls no storage, HTTP or identity code.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/payments/routes/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(payments/)?storage(/|$)',
              message:
                'Payment routes call use cases (src/payments/usecases), which own storage and transactions.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
  },
);
