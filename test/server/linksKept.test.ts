/**
 * documentLink answered per document version (server/src/service/languageService.ts `doLinks`):
 * the links are made once per version with entityPageMaker, kept, and answered again as they are
 * with their JSON kept by the writer (server/src/transport/messageWriter.ts `keepJsonOf`). Through
 * the real server process: the answer is the links each occurrence's own page gives (the plain
 * reading, made here from the same text), the same when asked again, and a new version, new
 * settings or a closed and reopened document give the links they make.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import type { DocumentLink } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_SETTINGS, type Settings } from '../../model/src/protocol';
import { entityUrlFor } from '../../server/src/features/links';
import { scanText } from '../../server/src/pipeline/check';
import { S, useSampleServer } from '../support/fixture';
import { REPO_ROOT } from '../support/shared';

/** The links of `text` as the plain reading makes them: each outermost URN's own page, its range from TextDocument. */
function plainLinks(text: string, languageId: string, s: Settings): DocumentLink[] {
  const doc = TextDocument.create('file:///plain', languageId, 1, text);
  return scanText(text, languageId, s).occurrences.flatMap((o) => {
    if (o.template || !o.parsed?.ok || o.parent !== undefined) return [];
    const target = entityUrlFor(s, o.parsed.urn, o.urn);
    return target
      ? [{ range: { start: doc.positionAt(o.start), end: doc.positionAt(o.end) }, target, tooltip: 'Open in catalog' }]
      : [];
  });
}

/** A golden file's shape: MCEs that repeat their URNs, CRLF line ends in half of them. */
function golden(n: number): string {
  const records: string[] = [];
  for (let i = 0; i < n; i++) {
    const ds = `urn:li:dataset:(urn:li:dataPlatform:hive,db.t_${i % 7},PROD)`;
    const field = `urn:li:schemaField:(${ds},col_${i % 3})`;
    const rec = [
      '{',
      `  "entityUrn": "${ds}",`,
      `  "aspect": {"owners": [{"owner": "urn:li:corpuser:u${i % 5}"}], "tags": ["urn:li:tag:Legacy"]},`,
      `  "fields": ["${field}", "${S.users}"],`,
      `  "upstream": "urn:li:dataset:(urn:li:dataPlatform:s3,bucket/a b?\\"c\\",PROD)"`,
      '}',
    ];
    records.push(rec.join(i % 2 === 0 ? '\r\n' : '\n'));
  }
  return `[\n${records.join(',\n')}\n]\n`;
}

describe('documentLink: made once per version, answered again as it is', () => {
  const env = useSampleServer();

  test('the links of each occurrence on its own, three times the same; a new version, new settings and a reopened document are seen', async () => {
    const files: Array<[string, string, string]> = [
      ['file:///links/golden.json', 'json', golden(60)],
      [
        'file:///links/feast.json',
        'json',
        readFileSync(
          path.join(REPO_ROOT, 'test', 'fixtures', 'datahub-golden', 'feast_repository_mces_golden.json'),
          'utf8',
        ),
      ],
      ['file:///links/doc.md', 'markdown', `| a | \`${S.users}\` |\n\nSee \`${S.orders}\` and \`${S.users}\`.\r\n`],
      ['file:///links/x.py', 'python', `U = "${S.users}"\nD = make_dataset_urn("hive", "db.orders")\n`],
    ];
    const settings = (): Settings => ({ ...DEFAULT_SETTINGS, url: env.catalog.url });
    for (const [uri, languageId, text] of files) {
      await env.lsp.open(uri, languageId, text);
      const expected = plainLinks(text, languageId, settings());
      assert.ok(expected.length > 0, uri);
      const first = await env.lsp.links(uri);
      assert.deepEqual(first, expected, uri);
      for (let round = 0; round < 2; round++) assert.deepEqual(await env.lsp.links(uri), expected, `${uri} again`);
    }

    // A new version: its links, then the same again.
    const [uri, languageId, text] = files[0]!;
    const edited = `\n\n${text.replaceAll('db.t_3', 'db.t_three')}`;
    await env.lsp.change(uri, edited);
    const afterEdit = plainLinks(edited, languageId, settings());
    assert.notDeepEqual(afterEdit, plainLinks(text, languageId, settings()));
    assert.deepEqual(await env.lsp.links(uri), afterEdit);
    assert.deepEqual(await env.lsp.links(uri), afterEdit);

    // New settings (a page template): the links they make.
    env.lsp.settings['entityUrlTemplate'] = '{uiUrl}/browse?urn={urn}';
    await env.lsp.configurationChanged();
    const templated = plainLinks(edited, languageId, { ...settings(), entityUrlTemplate: '{uiUrl}/browse?urn={urn}' });
    assert.ok(templated.every((l) => l.target!.includes('/browse?urn=')));
    assert.deepEqual(await env.lsp.links(uri), templated);
    delete env.lsp.settings['entityUrlTemplate'];
    await env.lsp.configurationChanged();
    assert.deepEqual(await env.lsp.links(uri), afterEdit);

    // Closed and opened again at version 1 with the first text: its links, not the kept ones of the edit.
    await env.lsp.close(uri);
    await env.lsp.open(uri, languageId, text);
    assert.deepEqual(await env.lsp.links(uri), plainLinks(text, languageId, settings()));
  });
});
