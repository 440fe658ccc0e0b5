/**
 * The language service answers a hover made before again, as it is, while all it was made from is
 * the same (server/src/service/languageService.ts `markdownHover`), and the writer sends its kept
 * JSON (server/src/transport/messageWriter.ts `keepJsonOf`): through the real server process, a
 * hover asked again at every offset of a document answers what it answered the first time, and a
 * new version of the document or a new answer of the catalog gives the hover they make.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Hover } from 'vscode-languageserver';
import { ServerCommands } from '../../model/src/commandIds';
import { S, useSampleServer } from '../support/fixture';
import { hoverText } from '../support/lspClient';
import { ingest } from '../support/catalogHttp';

const TEXT = [
  'import x',
  `USERS = "${S.users}"`,
  `ORDERS = "${S.orders}"`,
  'GHOST = "urn:li:dataset:(urn:li:dataPlatform:hive,db.ghost,PROD)"',
  'USER = "urn:li:corpuser:jdoe"',
  '',
].join('\n');

/** Every position of `text`, line by line. */
function positions(text: string): Array<{ line: number; character: number }> {
  return text
    .split('\n')
    .flatMap((l, line) => Array.from({ length: l.length + 1 }, (_, character) => ({ line, character })));
}

describe('a hover asked again answers what it answered, until what it is made from changes', () => {
  const env = useSampleServer();

  test('every offset hovered three times answers the same; a new version and a refreshed answer are seen', async () => {
    const uri = 'file:///kept/a.py';
    const published = env.lsp.diagnostics(uri, (d) => d.some((x) => x.code === 'unknown-urn'));
    await env.lsp.open(uri, 'python', TEXT);
    await published;
    const first: Array<Hover | null> = [];
    for (const p of positions(TEXT)) first.push(await env.lsp.hover(uri, p));
    assert.ok(first.filter((h) => h !== null).length > 100);
    for (let round = 0; round < 2; round++) {
      const again: Array<Hover | null> = [];
      for (const p of positions(TEXT)) again.push(await env.lsp.hover(uri, p));
      assert.deepEqual(again, first, `round ${round}`);
    }
    const at = { line: 1, character: TEXT.split('\n')[1]!.indexOf('db.users') + 2 };
    assert.match(hoverText(await env.lsp.hover(uri, at)), /db\.users/);

    // A new version: the hover at the same offset is of what is there now.
    const edited = TEXT.replace(S.users, S.orders);
    await env.lsp.change(uri, edited);
    assert.match(hoverText(await env.lsp.hover(uri, at)), /db\.orders/);
    await env.lsp.change(uri, TEXT);
    const before = hoverText(await env.lsp.hover(uri, at));
    assert.match(before, /db\.users/);

    // A new answer from the catalog (a description edited, then Refresh): the hover says it.
    const status = await ingest(env.catalog.url, 'dataset', S.users, 'editableDatasetProperties', {
      description: 'Edited just now.',
    });
    assert.equal(status, 200);
    assert.equal(hoverText(await env.lsp.hover(uri, at)), before);
    await env.lsp.command(ServerCommands.refresh, {});
    assert.match(hoverText(await env.lsp.hover(uri, at)), /Edited just now\./);
  });
});
