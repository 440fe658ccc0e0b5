/**
 * `npm run lint` fails on a floating promise: the repository's own eslint.config.mjs, run through
 * ESLint's Node API on test/lint/fixtures/promises.ts (ignored by `eslint .`, type-checked with the
 * fixture's tsconfig.json), reports the floating and the misused promise and leaves the `void` one.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';

/** The repository root, seen from out/test/lint. */
const ROOT = path.resolve(__dirname, '..', '..', '..');

test('eslint.config.mjs reports a floating promise and a misused one', async () => {
  const eslint = new ESLint({ cwd: ROOT, ignore: false });
  const [result] = await eslint.lintFiles([path.join(ROOT, 'test', 'lint', 'fixtures', 'promises.ts')]);
  assert.ok(result);
  assert.deepEqual(
    result.messages.map((m) => `${m.line} ${m.ruleId}`),
    ['5 @typescript-eslint/no-floating-promises', '9 @typescript-eslint/no-misused-promises'],
  );
});
