/**
 * The client's boundaries (STYLE.md): client/src never imports server internals (shared things
 * come from model/), and the modules the tests load have no `vscode` import, so the rules they
 * hold run without an editor.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const CLIENT_SRC = path.resolve(__dirname, '..', '..', '..', 'client', 'src');
const PURE = [
  'endpoints.ts',
  'userText.ts',
  'launch.ts',
  'statusView.ts',
  'localCatalogProcess.ts',
  'crashRestarts.ts',
  'quietProgress.ts',
];

function importsOf(file: string): string[] {
  const text = readFileSync(path.join(CLIENT_SRC, file), 'utf8');
  return [...text.matchAll(/^\s*import\b[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}

test('client/src imports nothing from server/ or catalog/', () => {
  for (const file of readdirSync(CLIENT_SRC).filter((f) => f.endsWith('.ts'))) {
    for (const spec of importsOf(file))
      assert.doesNotMatch(spec, /(^|\/)(server|catalog)\//, `${file} imports ${spec}`);
  }
});

test('the unit-tested client modules do not import vscode', () => {
  for (const file of PURE) {
    for (const spec of importsOf(file))
      assert.ok(spec !== 'vscode' && !spec.startsWith('vscode-languageclient'), `${file} imports ${spec}`);
  }
});
