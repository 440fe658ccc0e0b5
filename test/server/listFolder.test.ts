/**
 * The workspace index's listing (server/src/index/listFolder.ts) against workspace.ts listFiles
 * and fileUri: the same files in the same order, each with fileUri's spelling of its path, on a
 * tree with excluded, hidden and linked folders, names that need encoding, and a folder read
 * across several turns of the event loop.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { test } from 'node:test';
import { LANGUAGE_BY_EXTENSION } from '../../model/src/languages';
import { DEFAULT_SETTINGS } from '../../model/src/protocol';
import { listFolder } from '../../server/src/index/listFolder';
import { fileUri, listFiles } from '../../server/src/workspace';

async function expected(root: string, exclude: string[], languages: readonly string[]) {
  const paths: string[] = [];
  await listFiles(root, exclude, paths, () => false);
  return paths.flatMap((path) => {
    const languageId = LANGUAGE_BY_EXTENSION[extname(path).toLowerCase()];
    return languageId && languages.includes(languageId) ? [{ path, uri: fileUri(path), languageId }] : [];
  });
}

test('listFolder lists what listFiles lists, with fileUri spellings', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'catalog-lens-list-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const names = [
    'a.py',
    'B.PY',
    'c d.sql',
    'e%f.md',
    'g#h.yaml',
    'ü.py',
    '数据.json',
    "q'(x).py",
    'r+s,t;u=v@w.py',
    'no.txt',
    'noext',
    '.hidden.py',
  ];
  const folders = [
    '',
    'pkg',
    'pkg/sub',
    'pkg/sub/deep',
    'my folder',
    'ü dir',
    '.git',
    'node_modules',
    'pkg/node_modules',
    'x%20y',
    'C:',
  ];
  for (const f of folders) {
    mkdirSync(join(root, f), { recursive: true });
    for (const n of names) writeFileSync(join(root, f, n), 'urn:li:corpuser:x\n');
  }
  // Many folders: the listing yields between them.
  for (let i = 0; i < 70; i++) {
    mkdirSync(join(root, 'many', `m${i}`), { recursive: true });
    writeFileSync(join(root, 'many', `m${i}`, `f${i}.py`), '');
  }
  if (process.platform !== 'win32') {
    symlinkSync(join(root, 'pkg'), join(root, 'linked'));
    symlinkSync(join(root, 'pkg', 'a.py'), join(root, 'pkg', 'link.py'));
  }
  const all = Object.values(LANGUAGE_BY_EXTENSION).filter((l, i, a) => a.indexOf(l) === i);
  let compared = 0;
  for (const top of [root, `${root}/`, join(root, 'pkg'), join(root, 'pkg', '..', 'my folder')])
    for (const exclude of [[], ['node_modules'], ['sub', 'many']])
      for (const languages of [all, DEFAULT_SETTINGS.languages, ['python']]) {
        const got = await listFolder(top, exclude, languages, () => false);
        assert.deepEqual(got, await expected(top, exclude, languages), `${top} ${exclude.join()} ${languages.join()}`);
        compared += got.length;
      }
  assert.ok(compared > 1000, `${compared} files compared`);
  // Gone, and cancelled: nothing listed.
  assert.deepEqual(await listFolder(join(root, 'gone'), [], all, () => false), []);
  assert.deepEqual(await listFolder(root, [], all, () => true), []);
  // The event loop turns while the 70 folders are listed (a timer set before the listing fires),
  // and a cancel asked part way stops it part way.
  let ticks = 0;
  const timer = setInterval(() => ticks++, 0);
  const many = await listFolder(join(root, 'many'), [], all, () => false);
  clearInterval(timer);
  assert.equal(many.length, 70);
  assert.ok(ticks >= 1, 'the listing yielded to the event loop');
  let asked = 0;
  const part = await listFolder(join(root, 'many'), [], all, () => ++asked > 20);
  assert.ok(part.length > 0 && part.length < 70, `${part.length} listed before the cancel`);
});
