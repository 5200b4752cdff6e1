import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'test/fixtures/**',
      'bench/.data/**',
    ],
  },
  js.configs.recommended,
  {
    // Type-aware lint for all TypeScript. The root tsconfig.json has no files, so each folder's own project is
    // named here; a file belongs to the first project that includes it (src-server to the server project).
    files: ['**/*.{ts,tsx}'],
    extends: [...tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: {
        project: [
          './tsconfig.server.json',
          './tsconfig.renderer.json',
          './tsconfig.main.json',
          './tsconfig.test.json',
        ],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Interface members as properties (`f: () => void`), so passing `props.onClose` along is not an unbound
      // method: the console hands callbacks around everywhere, and unbound-method stays on for real classes.
      '@typescript-eslint/method-signature-style': ['error', 'property'],
      // Counts, ports and flags read naturally in messages; objects and possibly-undefined values still may not.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      // With noUncheckedIndexedAccess an index we have just bounds-checked is still `T | undefined`; `!` there
      // states what the code already proved. The rule would push toward casts or dead branches instead.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // `onClick={() => setOpen(false)}` is the idiomatic React callback; braces around it add nothing.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // Passing along what something else failed with (a caught `unknown`, an AbortSignal's `any` reason) is
      // allowed, as only-throw-error allows rethrowing it by default; a reason we create must still be an Error.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      // Every dynamic delete here is on a value that must stay a plain object: outgoing HTTP headers (Node's
      // shape), the configuration store's JSON records keyed by id, the settings file. A Map would not serve.
      '@typescript-eslint/no-dynamic-delete': 'off',
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Vitest types its asymmetric matchers (expect.any, stringMatching, objectContaining) as `any` on purpose,
      // so every expected shape that uses one is an "unsafe assignment"; outside tests the rule stays on.
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'no-empty': ['error', { allowEmptyCatch: false }],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['src-server/**/*.ts'],
    ignores: ['src-server/core/threads/worker-thread.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              // A new isolate resets V8's flags that keep `gatehouse serve`'s young generation small.
              name: 'node:worker_threads',
              importNames: ['Worker'],
              allowTypeImports: true,
              message: 'Start worker threads with startWorker (core/threads/worker-thread.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // Any path into src-server but the one runtime import (its reason is in .dependency-cruiser.cjs): a pure
              // function with no imports.
              regex: '(^|/)src-server/(?!core/contracts/parameter-diff\\.js$)',
              allowTypeImports: true,
              message: 'The renderer talks to the server over HTTP only; import types only.',
            },
          ],
        },
      ],
    },
  },
  prettier,
);
