// ESLint: typescript-eslint's type-checked rules over every TypeScript project of the
// repository (root tsconfig.json, client/, test/vscode/), found per file by the project
// service. `npm run lint` runs it after prettier --check; `npm test` runs `npm run lint`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'out/',
      'dist/',
      'test-results/',
      'examples/',
      'bench/fixtures/',
      'test/e2e/fixtures/',
      'test/lint/fixtures/',
      '**/*.mjs',
      '**/*.js',
    ],
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      // node:test's test() and describe() return promises the runner itself awaits and
      // reports; every test file calls them at top level without await.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      // Left off from recommendedTypeChecked (counts at the commit that added this file):
      // no-unsafe-* (100 reports): values parsed from JSON or LSP payloads read without a
      // declared shape, nearly all in tests; typing each is work of its own.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // String(x) of unknown/union values, deliberately (messages of MarkupContent | string,
      // YAML scalars, error fields of any type) (19 reports).
      '@typescript-eslint/no-base-to-string': 'off',
      // async functions with no await implement Promise-returning interfaces (stubs, command
      // handlers) (16 reports); dropping async would turn a throw into a synchronous one.
      '@typescript-eslint/require-await': 'off',
      // Every control character in a regular expression here is meant: sanitisers of
      // untrusted text (inertText.ts, security.ts) and their tests.
      'no-control-regex': 'off',
    },
  },
  {
    // The scanners compare charCodeAt's numbers with CharCode (server/src/scan/charCode.ts), a
    // const enum of character codes: a number compared with an enum member is the point there.
    files: ['server/src/scan/**/*.ts'],
    rules: { '@typescript-eslint/no-unsafe-enum-comparison': 'off' },
  },
  {
    // Test helpers returning parsed JSON of any shape (6 reports).
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
