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
