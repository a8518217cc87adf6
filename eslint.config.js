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
  // The payment service's layers (docs/architecture.md, "The payment service"): the domain is pure — no
  // HTTP (it carries its own FieldProblem and RuleViolation; the HTTP layer converts them), storage,
  // identity, routes or use cases. A block's options replace an earlier block's for the same rule and file,
  // so it repeats payments ↛ gateway.
  {
    files: ['src/payments/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(src/)?gateway(/|$)',
              message: 'The payment service never imports gateway code.',
            },
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
  // Payment routes call use cases only (docs/architecture.md, "The payment service"): storage and its
  // transactions belong to src/payments/usecases. Repeats payments ↛ gateway (see the block above).
  {
    files: ['src/payments/routes/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(src/)?gateway(/|$)',
              message: 'The payment service never imports gateway code.',
            },
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
