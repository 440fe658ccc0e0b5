/**
 * The workspace index in flat arrays (server/src/index/workspaceIndex.ts) against the maps it
 * replaced (test/support/referenceWorkspaceIndex.ts): the same random changes — files indexed
 * from text and from a whole scan, indexed again, removed, passed over, folders dropped, a byte
 * budget that fills — on both, and after each change every answer compared: counts, places,
 * files naming an entity, entities named, symbols, what Check Workspace is told. Some runs compact
 * after a few dead occurrences (`compactAfter`), so compaction is reached and checked too.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_SETTINGS, type Settings } from '../../model/src/protocol';
import { scanText } from '../../server/src/pipeline/check';
import { readDataHubYaml } from '../../server/src/formats';
import { WorkspaceIndex } from '../../server/src/index/workspaceIndex';
import { ReferenceWorkspaceIndex } from '../support/referenceWorkspaceIndex';
import { seededRandom } from '../support/random';

/** Entities as a workspace writes them: namespace words, nested URNs, non-ASCII names, paths, other kinds. */
function urnPool(): string[] {
  const out: string[] = [];
  const names = [
    'db.users',
    'db.orders',
    'Sales.Q1',
    'bucket/dir/file.csv',
    'café.crème',
    '数据.表',
    'x',
    'db.users_v2',
  ];
  for (const ns of ['li', 'acme']) {
    for (const name of names) {
      out.push(`urn:${ns}:dataset:(urn:${ns}:dataPlatform:hive,${name},PROD)`);
      out.push(`urn:${ns}:dataset:(urn:${ns}:dataPlatform:snowflake,${name},DEV)`);
    }
    out.push(`urn:${ns}:glossaryTerm:Finance.Revenue`, `urn:${ns}:corpuser:jdoe`, `urn:${ns}:tag:pii`);
    out.push(`urn:${ns}:mlFeature:(driver_stats,trips_today)`, `urn:${ns}:dataPlatform:kafka`);
  }
  // Over DataHub's length limit: never indexed.
  out.push(`urn:li:dataset:(urn:li:dataPlatform:hive,${'long_'.repeat(120)},PROD)`);
  return out;
}

const FOLDERS = ['file:///w/a/', 'file:///w/a/sub/', 'file:///w/b/', 'file:///w/c%20d/'];
const LANGUAGES: Array<[string, string]> = [
  ['py', 'python'],
  ['yaml', 'yaml'],
  ['sql', 'sql'],
  ['md', 'markdown'],
  ['json', 'json'],
];

function fileText(next: () => number, pool: string[], ext: string): string {
  const pick = (): string => pool[Math.floor(next() * pool.length)]!;
  const n = Math.floor(next() * 6);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const urn = pick();
    const pad = ' '.repeat(Math.floor(next() * 3));
    switch (ext) {
      case 'yaml':
        lines.push(next() < 0.5 ? `- urn: ${urn}\n  description: Row ${i}.` : `lookups:\n  - ${urn}`);
        break;
      case 'json':
        lines.push(`${pad}{"urn": "${urn}", "n": ${i}},`);
        break;
      case 'md':
        lines.push(`Reads \`${urn}\` and ${next() < 0.3 ? `\`${pick()}\`` : 'more'}.`);
        break;
      default:
        lines.push(`${pad}X${i} = "${urn}"  # also ${next() < 0.2 ? pick() : 'none'}`);
    }
    if (next() < 0.1) lines.push('urn:li:dataset:(not, well formed');
  }
  return ext === 'json' ? `[\n${lines.join('\n')}\n{}]\n` : `${lines.join('\n')}\n`;
}

type Chosen = Pick<Settings, 'languages' | 'excludeFolders' | 'maxFileSize'>;

/** Indexes a file's text as WorkspaceIndex.setText does, on the reference. */
function setTextOnReference(
  ref: ReferenceWorkspaceIndex,
  uri: string,
  text: string,
  languageId: string,
  settings: Settings,
): void {
  const yaml = languageId === 'yaml';
  const scan = scanText(text, yaml ? 'plaintext' : languageId, settings);
  const datahubYaml = yaml && scan.occurrences.length === 0 && readDataHubYaml(text) !== undefined;
  ref.setScan(uri, text, scan, settings, yaml, datahubYaml);
}

function compare(index: WorkspaceIndex, ref: ReferenceWorkspaceIndex, pool: string[], step: string): void {
  const at = (what: string): string => `${what} after ${step}`;
  assert.equal(index.fileCount, ref.fileCount, at('fileCount'));
  assert.equal(index.occurrenceCount, ref.occurrenceCount, at('occurrenceCount'));
  assert.equal(index.byteCount, ref.byteCount, at('byteCount'));
  assert.equal(index.isFull, ref.isFull, at('isFull'));
  assert.deepEqual(index.entitiesNamedIn(), ref.entitiesNamedIn(), at('entitiesNamedIn'));
  const inB = (u: string): boolean => u.startsWith('file:///w/b/');
  assert.deepEqual(index.entitiesNamedIn(inB), ref.entitiesNamedIn(inB), at('entitiesNamedIn(b)'));
  for (const urn of pool) {
    for (const spelled of [urn, urn.replaceAll('urn:li:', 'urn:svc:')]) {
      assert.deepEqual(index.placesOf(spelled), ref.placesOf(spelled), at(`placesOf ${spelled}`));
      assert.deepEqual(index.filesNaming(spelled), ref.filesNaming(spelled), at(`filesNaming ${spelled}`));
    }
  }
  for (const query of ['', 'users', 'DB.', 'u', 'é', '数', 'revenue', 'csv', 'zzz'])
    for (const max of [3, 200])
      assert.deepEqual(index.symbols(query, max), ref.symbols(query, max), at(`symbols ${query} ${max}`));
  const chosen: Chosen = { languages: ['python'], excludeFolders: [], maxFileSize: 1 };
  for (const folder of ['file:///w/a', 'file:///w/b/', 'file:///w/c%20d'])
    for (const open of [[], ['file:///w/a/1.py', 'file:///w/b/2.yaml']])
      assert.deepEqual(
        index.filesToCheck(folder, chosen, open),
        ref.filesToCheck(folder, chosen, open),
        at(`filesToCheck ${folder}`),
      );
  assert.equal(index.definitionsKey(), ref.definitionsKey(), at('definitionsKey'));
}

describe('the workspace index in flat arrays answers as the maps it replaced', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    test(`random changes, seed ${seed}`, () => {
      const next = seededRandom(seed);
      const pool = urnPool();
      const logs: string[] = [];
      const host = {
        settingsFor: () => Promise.resolve(DEFAULT_SETTINGS),
        openDocument: () => undefined,
        scan: scanText,
        log: (m: string) => logs.push(m),
      };
      // Odd seeds compact as soon as the dead occurrences outnumber the live ones and pass 8.
      const index = new WorkspaceIndex(host, seed % 2 === 1 ? { compactAfter: 8 } : {});
      const ref = new ReferenceWorkspaceIndex(host);
      // Check Workspace's account of a folder needs a build of it: as one had run with these settings.
      const chosen: Chosen = { languages: ['python'], excludeFolders: [], maxFileSize: 1 };
      for (const folder of ['file:///w/a', 'file:///w/b', 'file:///w/c%20d']) {
        (index as unknown as { covered: Map<string, Chosen> }).covered.set(folder, chosen);
        ref.cover(folder, chosen);
      }
      // Seeds 5 and 6 fill a small byte budget.
      const settings: Settings =
        seed >= 5 ? { ...DEFAULT_SETTINGS, index: { ...DEFAULT_SETTINGS.index, maxBytes: 1500 } } : DEFAULT_SETTINGS;
      const uris: string[] = [];
      for (const folder of FOLDERS)
        for (let i = 0; i < 6; i++) uris.push(`${folder}${i}.${LANGUAGES[i % LANGUAGES.length]![0]}`);
      uris.push('untitled:Untitled-1');
      for (let step = 0; step < 400; step++) {
        const uri = uris[Math.floor(next() * uris.length)]!;
        const ext = uri.startsWith('untitled:') ? 'py' : uri.slice(uri.lastIndexOf('.') + 1);
        const languageId = LANGUAGES.find(([e]) => e === ext)![1];
        const r = next();
        let what: string;
        if (r < 0.55) {
          const text = fileText(next, pool, ext);
          what = `setText ${uri}`;
          index.setText(uri, text, languageId, settings);
          setTextOnReference(ref, uri, text, languageId, settings);
        } else if (r < 0.7) {
          // An open document: scanned whole, YAML as YAML.
          const text = fileText(next, pool, ext);
          const scan = scanText(text, languageId, settings);
          what = `setScan ${uri}`;
          index.setScan(uri, text, scan, settings);
          ref.setScan(uri, text, scan, settings);
        } else if (r < 0.85) {
          what = `remove ${uri}`;
          index.remove(uri);
          ref.remove(uri);
        } else if (r < 0.95) {
          what = `passOver ${uri}`;
          const why = next() < 0.5 ? { tooLarge: true as const } : { error: 'EACCES' };
          index.passOver(uri, why);
          ref.passOver(uri, why);
        } else {
          const folder = FOLDERS[Math.floor(next() * FOLDERS.length)]!.replace(/\/$/, '');
          what = `removeFolder ${folder}`;
          index.removeFolder(folder);
          ref.removeFolder(folder);
        }
        compare(index, ref, pool, `step ${step} (${what})`);
      }
      assert.ok(index.occurrenceCount > 0, 'the changes left occurrences to compare');
      if (seed >= 5) assert.ok(index.isFull, 'the byte budget filled');
      if (seed % 2 === 1) assert.ok(index.storage.compactions > 0, 'the storage was compacted');
      // Every file and folder gone: no folder is kept, and at most `compactAfter` dead occurrences are.
      for (const folder of FOLDERS) {
        index.removeFolder(folder);
        ref.removeFolder(folder);
      }
      index.remove('untitled:Untitled-1');
      ref.remove('untitled:Untitled-1');
      compare(index, ref, pool, 'every folder removed');
      assert.equal(index.storage.folders, 0, 'folders kept after every file was removed');
      if (seed % 2 === 1) assert.ok(index.storage.stored <= 8, `${index.storage.stored} dead occurrences kept`);
    });
  }

  test('a compaction keeps fewer occurrences and every answer stays the same', () => {
    const pool = urnPool();
    const host = {
      settingsFor: () => Promise.resolve(DEFAULT_SETTINGS),
      openDocument: () => undefined,
      scan: scanText,
      log: () => {},
    };
    const index = new WorkspaceIndex(host, { compactAfter: 16 });
    const ref = new ReferenceWorkspaceIndex(host);
    const next = seededRandom(7);
    const uris = Array.from({ length: 60 }, (_, i) => `file:///w/c/f${i}.py`);
    for (const uri of uris) {
      // At least one URN a file.
      const text = `${fileText(next, pool, 'py')}A = "${pool[Math.floor(next() * (pool.length - 1))]!}"\n`;
      index.setText(uri, text, 'python', DEFAULT_SETTINGS);
      setTextOnReference(ref, uri, text, 'python', DEFAULT_SETTINGS);
    }
    compare(index, ref, pool, 'indexing');
    const before = index.storage;
    assert.equal(before.stored, index.occurrenceCount, 'nothing dead yet');
    // Removing every other file, then indexing some again: dead occurrences pass the live ones.
    let compacted = false;
    for (let i = 0; i < uris.length; i += 2) {
      const stored = index.storage.stored;
      index.remove(uris[i]!);
      ref.remove(uris[i]!);
      if (index.storage.compactions > before.compactions && !compacted) {
        compacted = true;
        assert.ok(index.storage.stored < stored, 'the compaction kept fewer occurrences');
        assert.equal(index.storage.stored, index.occurrenceCount, 'only live occurrences are kept');
        assert.equal(index.storage.capacity, index.occurrenceCount, 'the arrays just hold them');
      }
      compare(index, ref, pool, `remove ${uris[i]!}`);
    }
    assert.ok(compacted, 'a compaction ran');
    for (let i = 0; i < uris.length; i += 4) {
      const text = fileText(next, pool, 'py');
      index.setText(uris[i]!, text, 'python', DEFAULT_SETTINGS);
      setTextOnReference(ref, uris[i]!, text, 'python', DEFAULT_SETTINGS);
      compare(index, ref, pool, `setText ${uris[i]!} after the compaction`);
    }
  });

  test('a folder whose files are all gone is not kept, and its number is reused', () => {
    const host = {
      settingsFor: () => Promise.resolve(DEFAULT_SETTINGS),
      openDocument: () => undefined,
      scan: scanText,
      log: () => {},
    };
    const index = new WorkspaceIndex(host);
    const text = 'A = "urn:li:corpuser:jdoe"\n';
    index.setText('file:///w/x/1.py', text, 'python', DEFAULT_SETTINGS);
    index.setText('file:///w/x/2.py', text, 'python', DEFAULT_SETTINGS);
    index.setText('file:///w/y/1.py', 'nothing here\n', 'python', DEFAULT_SETTINGS);
    assert.equal(index.storage.folders, 2);
    index.remove('file:///w/x/1.py');
    assert.equal(index.storage.folders, 2, 'a folder with a file left is kept');
    index.remove('file:///w/x/2.py');
    assert.equal(index.storage.folders, 1, 'the folder went with its last file');
    index.removeFolder('file:///w/y');
    assert.equal(index.storage.folders, 0, 'removeFolder frees the folder');
    index.setText('file:///w/z/1.py', text, 'python', DEFAULT_SETTINGS);
    assert.equal(index.storage.folders, 1);
    assert.deepEqual(index.filesNaming('urn:li:corpuser:jdoe'), ['file:///w/z/1.py']);
    const folders = (index as unknown as { folders: string[] }).folders;
    assert.ok(folders.length <= 2, `folder numbers reused (${folders.length} made)`);
  });

  test('many files indexed again and removed: the storage is compacted and answers stay the same', () => {
    const pool = urnPool();
    const host = {
      settingsFor: () => Promise.resolve(DEFAULT_SETTINGS),
      openDocument: () => undefined,
      scan: scanText,
      log: () => {},
    };
    const index = new WorkspaceIndex(host);
    const ref = new ReferenceWorkspaceIndex(host);
    const next = seededRandom(99);
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 1500; i++) {
        const uri = `file:///w/many/f${i}.py`;
        if (next() < 0.3 && round > 0) {
          index.remove(uri);
          ref.remove(uri);
          continue;
        }
        const text = fileText(next, pool, 'py');
        index.setText(uri, text, 'python', DEFAULT_SETTINGS);
        setTextOnReference(ref, uri, text, 'python', DEFAULT_SETTINGS);
      }
      compare(index, ref, pool, `round ${round}`);
    }
  });
});
