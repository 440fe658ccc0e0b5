/**
 * The workspace index in flat arrays (server/src/index/workspaceIndex.ts) against the maps it
 * replaced (test/support/referenceWorkspaceIndex.ts): the same random changes — files indexed
 * from text and from a whole scan, indexed again, removed, passed over, folders dropped, a byte
 * budget that fills — on both, and after each change every answer compared: counts, places,
 * files naming an entity, entities named, symbols, what Check Workspace is told.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_SETTINGS, type Settings } from '../../model/src/protocol';
import { scanText } from '../../server/src/pipeline/check';
import { readDataHubYaml } from '../../server/src/formats';
import { WorkspaceIndex } from '../../server/src/index/workspaceIndex';
import { ReferenceWorkspaceIndex } from '../support/referenceWorkspaceIndex';

/** A small seeded generator (mulberry32), so a failure can be run again. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
      const next = random(seed);
      const pool = urnPool();
      const logs: string[] = [];
      const host = {
        settingsFor: () => Promise.resolve(DEFAULT_SETTINGS),
        openDocument: () => undefined,
        scan: scanText,
        log: (m: string) => logs.push(m),
      };
      const index = new WorkspaceIndex(host);
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
    });
  }

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
    const next = random(99);
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
