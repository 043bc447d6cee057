import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/src/generated/**',
      '**/clients/generated/**',
      '**/coverage/**',
      '**/.data/**',
      '**/node_modules/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    // Type-aware rules: each file is checked with the tsconfig.json of its package.
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      // Fastify awaits an async plugin, hook or handler instead of passing it a callback, so
      // `async` without `await` is its calling convention, not a mistake.
      '@typescript-eslint/require-await': 'off',
      'no-console': 'off',
    },
  },
  {
    // Tests read answers through `inject().json()` and `fetch().json()`, which are `any` by
    // design; their assertions check the shape. The unsafe-any rules would only add casts there.
    files: ['**/test/**/*.ts'],
    rules: {
      // A focused test skips the rest of its Jest file: in a batch (jest.batches.js), the
      // tests of every other file in it, and the run still passes.
      'no-restricted-properties': [
        'error',
        ...['describe', 'it', 'test'].map((object) => ({ object, property: 'only' })),
      ],
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
