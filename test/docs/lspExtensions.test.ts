/**
 * docs/dev/lsp-extensions.md documents the custom messages (model/src/protocol.ts) and the server
 * commands (model/src/commandIds.ts). It opens with the protocol file's sha256: a change to the
 * protocol fails here until someone has read the document again and updated the hash (as
 * rust-analyzer's docs/dev/lsp-extensions.md does).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServerCommands } from '../../model/src/commandIds';
import { REPO_ROOT } from '../support/shared';

const PROTOCOL = 'model/src/protocol.ts';
const DOC = 'docs/dev/lsp-extensions.md';
const protocolText = readFileSync(join(REPO_ROOT, PROTOCOL), 'utf8');
const doc = readFileSync(join(REPO_ROOT, DOC), 'utf8');

describe('the LSP extensions document (docs/dev/lsp-extensions.md)', () => {
  test('names the sha256 of model/src/protocol.ts as it is now', () => {
    const hash = createHash('sha256')
      .update(readFileSync(join(REPO_ROOT, PROTOCOL)))
      .digest('hex');
    const said = /^`?model\/src\/protocol\.ts`? hash: `?([0-9a-f]{64})`?$/m.exec(doc)?.[1];
    assert.ok(said, `${DOC} has no line "model/src/protocol.ts hash: <sha256>"`);
    assert.equal(
      said,
      hash,
      `${PROTOCOL} changed: check whether ${DOC} needs changes too, then set its hash line to ${hash}`,
    );
  });

  test('says to update the hash when the protocol changes', () => {
    assert.match(
      doc,
      /If you change model\/src\/protocol\.ts, update this hash and check whether this document needs changes too/,
    );
  });

  test('documents every custom message and every server command of the protocol', () => {
    const methods = [...protocolText.matchAll(/method: '(catalogLens\/\w+)'/g)].map((m) => m[1]);
    assert.ok(methods.length >= 8, 'the protocol declares its custom messages');
    for (const method of methods) assert.ok(doc.includes(`\`${method}\``), `${method} is not in ${DOC}`);
    for (const id of Object.values(ServerCommands)) assert.ok(doc.includes(id), `${id} is not in ${DOC}`);
  });
});
