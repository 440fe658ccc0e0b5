/**
 * The scan pool's worker threads (server/src/index/scanPool.ts, scanWorker.ts) against the main
 * thread: the same workspace index and the same Check Workspace diagnostics on a generated tree of
 * every file kind; a worker that stops leaves the rest to the main thread; a worker reads as the
 * main thread does (a link or a too-large file passed over). And Check Workspace resolving in
 * chunks against one resolve of every file (what it did before).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_SETTINGS, type Settings } from '../../model/src/protocol';
import type { Resolution } from '../../server/src/catalogClient/client';
import type { PlainDiagnostic } from '../../server/src/features/diagnostics';
import { createScanPool, type ScanPool } from '../../server/src/index/scanPool';
import { WorkspaceIndex, type IndexHost } from '../../server/src/index/workspaceIndex';
import { diagnose, scanText } from '../../server/src/pipeline/check';
import { resolvableItems, resolveItems, type Resolver } from '../../server/src/resolution/resolve';
import { clearParseCache } from '../../server/src/scan/parseCache';
import type { ScanResult } from '../../server/src/scan/types';
import {
  checkWorkspace,
  LANGUAGE_BY_EXTENSION,
  listFiles,
  readCappedSync,
  type ScanFiles,
  type WorkspaceDeps,
} from '../../server/src/workspace';

const dataset = (i: number): string => `urn:li:dataset:(urn:li:dataPlatform:hive,bench.t_${i},PROD)`;

const PROPERTIES = [
  '- id: io.acryl.privacy.retentionTime',
  '  type: string',
  '  cardinality: MULTIPLE',
  '  allowed_values:',
  '    - value: short',
  '    - value: long',
  '',
].join('\n');

const VALUES = [
  'id: db.users',
  'platform: hive',
  'structured_properties:',
  '  io.acryl.privacy.retentionTime: [short, forever]',
  '',
].join('\n');

/** One file of kind `k` naming `urns` (some kinds name none, or a malformed or templated one). */
function fileOf(kind: string, k: number, [a, b, c]: string[]): [string, string] {
  switch (kind) {
    case 'py':
      return ['py', `SOURCE = "${a}"\nTARGET = "${b}"\nmake_dataset_urn("hive", "db.made_${k % 7}")\n# ${c}\n`];
    case 'yaml':
      return ['yaml', `datasets:\n  - urn: ${a}\n    description: Source ${k}.\n  - urn: ${b}\nlookups:\n  - ${c}\n`];
    case 'sql':
      return ['sql', `-- source: ${a}\n-- target: ${b}\nSELECT 1; -- ${c}\n`];
    case 'md':
      return ['md', `# Job ${k}\n\nReads \`${a}\`, joins \`${c}\` and writes \`${b}\`.\n| t | ${a} |\n`];
    case 'json':
      return ['json', JSON.stringify({ inputs: [a, b], output: c, n: k }, null, 2)];
    case 'ts':
      return ['ts', `export const urns = ['${a}', \`${b}\`];\n// ${c}\n`];
    case 'quiet':
      return ['py', `def run(day):\n    return day + ${k}\n`];
    case 'malformed':
      return ['yaml', `x: urn:li:dataset:(urn:li:dataPlatform:hive,db.x${k})\ny: ${a}\n`];
    case 'template':
      return ['py', `T = "urn:li:dataset:(urn:li:dataPlatform:{p},t_${k},PROD)"\nU = "${a}"\n`];
    default:
      return ['txt', `${a} ${b} ${c}\n`];
  }
}

const KINDS = ['py', 'yaml', 'sql', 'md', 'json', 'ts', 'quiet', 'malformed', 'template', 'txt'];

/** A tree of `files` files in folders of 50, plus DataHub YAML formats, a too-large file, a link and a FIFO. */
function generate(root: string, files: number, pool: number): void {
  let seed = 7;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let k = 0; k < files; k++) {
    const dir = join(root, `pkg_${String(Math.floor(k / 50)).padStart(3, '0')}`);
    if (k % 50 === 0) mkdirSync(dir, { recursive: true });
    const urns = [0, 1, 2].map(() => dataset(Math.floor(next() * pool)));
    const [ext, text] = fileOf(KINDS[k % KINDS.length]!, k, urns);
    writeFileSync(join(dir, `job_${k}.${ext}`), text);
  }
  // A DataHub dataset file that names no URN, and the structured properties file that defines its
  // values' property, in the last folder (its chunk comes after the values').
  mkdirSync(join(root, 'a_first'));
  writeFileSync(join(root, 'a_first', 'users.yaml'), VALUES);
  mkdirSync(join(root, 'zz_last'));
  writeFileSync(join(root, 'zz_last', 'properties.yaml'), PROPERTIES);
  writeFileSync(join(root, 'zz_last', 'large.py'), `X = "${dataset(1)}"\n${'#'.repeat(12_000)}\n`);
  symlinkSync(join(root, 'pkg_000', 'job_0.py'), join(root, 'zz_last', 'link.py'));
}

const SETTINGS: Settings = { ...DEFAULT_SETTINGS, maxFileSize: 10_000 };

/** How many files each run of the workers handed over (of how many). */
const handed: Array<[number, number]> = [];

function hostOf(pool?: ScanPool, log: string[] = []): IndexHost {
  return {
    settingsFor: async () => SETTINGS,
    openDocument: () => undefined,
    scan: scanText,
    log: (m) => log.push(m),
    ...(pool
      ? {
          readFiles: async (files, take, cancelled) => {
            const n = await pool.run(
              'index',
              files,
              (i, r) => take(i, 'packed' in r ? r.packed : 'failed' in r ? r.failed : {}),
              cancelled,
            );
            handed.push([n, files.length]);
            return n;
          },
        }
      : {}),
  };
}

/** What the index answers through its public methods, for a comparison. */
function account(index: WorkspaceIndex, folder: string): unknown {
  const entities = index.entitiesNamedIn();
  return {
    files: index.fileCount,
    occurrences: index.occurrenceCount,
    bytes: index.byteCount,
    full: index.isFull,
    toCheck: index.filesToCheck(folder, SETTINGS),
    entities,
    places: entities.map((urn) => index.placesOf(urn)),
    naming: entities.map((urn) => index.filesNaming(urn)),
    definitions: index.propertyDefinitions(),
    definitionsKey: index.definitionsKey(),
    symbols: index.symbols('', 100_000).map((s) => [s.key, s.name]),
  };
}

async function built(folder: string, pool?: ScanPool, log?: string[]): Promise<WorkspaceIndex> {
  const index = new WorkspaceIndex(hostOf(pool, log));
  await index.build(
    [folder],
    () => undefined,
    () => false,
  );
  clearParseCache();
  return index;
}

describe('scan workers: the workspace index', () => {
  let root: string;
  let folder: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'catalog-lens-workers-'));
    generate(root, 700, 300);
    folder = pathToFileURL(root).toString();
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  for (const local of [false, true])
    test(`workers (small slices, two of them${local ? ', the main thread reading too' : ''}) build the same index as the main thread`, async (t) => {
      const pool = createScanPool({ log: () => undefined, size: 2, maxFiles: 7, maxBytes: 2_000, local });
      t.after(() => pool.close());
      const main = await built(folder);
      const log: string[] = [];
      handed.length = 0;
      const workers = await built(folder, pool, log);
      assert.deepEqual(log, []);
      assert.equal(handed.length, 1);
      assert.equal(handed[0]![0], handed[0]![1], 'every file read by the workers');
      assert.ok(main.occurrenceCount > 1000);
      assert.deepEqual(account(workers, folder), account(main, folder));
      // The too-large file was passed over, the link never listed.
      const toCheck = workers.filesToCheck(folder, SETTINGS)!;
      assert.deepEqual(
        toCheck.passedOver.filter(([u]) => u.endsWith('/large.py')).map(([, why]) => why),
        [{ tooLarge: true }],
      );
      assert.ok(!toCheck.mentioning.some((u) => u.endsWith('/link.py')));
      assert.ok(toCheck.mentioning.some((u) => u.endsWith('/a_first/users.yaml')));
    });

  test('a worker that stops: the build still ends, the rest read on the main thread, and the log says so', async (t) => {
    const crashing = join(root, '..', `crash-${process.pid}.js`);
    const real = require.resolve('../../server/src/index/scanWorker');
    writeFileSync(
      crashing,
      `const { parentPort } = require('node:worker_threads');\nlet n = 0;\nparentPort.on('message', () => { if (++n === 3) process.exit(7); });\nrequire(${JSON.stringify(real)});\n`,
    );
    t.after(() => rmSync(crashing, { force: true }));
    const pool = createScanPool({ log: () => undefined, size: 1, maxFiles: 20, file: crashing, local: false });
    t.after(() => pool.close());
    const log: string[] = [];
    const main = await built(folder);
    handed.length = 0;
    const workers = await built(folder, pool, log);
    assert.ok(
      handed[0]![0] >= 20 && handed[0]![0] < handed[0]![1],
      `${handed[0]![0]} of ${handed[0]![1]} by the worker`,
    );
    assert.deepEqual(account(workers, folder), account(main, folder));
    assert.equal(log.length, 0, 'the index logs nothing of it');
    const poolLog: string[] = [];
    const pool2 = createScanPool({ log: (m) => poolLog.push(m), size: 1, maxFiles: 20, file: crashing, local: false });
    t.after(() => pool2.close());
    const again = await built(folder, pool2);
    assert.deepEqual(account(again, folder), account(main, folder));
    assert.equal(poolLog.length, 1);
    assert.match(
      poolLog[0]!,
      /^scan workers: the worker thread exited \(code 7\); the other \d+ of \d+ files are read on the main thread$/,
    );
  });

  test('a worker reads as the main thread does: a link is not followed, a too-large file is passed over', async (t) => {
    const pool = createScanPool({ log: () => undefined, size: 1, local: false });
    t.after(() => pool.close());
    const paths = [
      join(root, 'zz_last', 'link.py'),
      join(root, 'zz_last', 'large.py'),
      join(root, 'pkg_000', 'job_0.py'),
    ];
    for (const mode of ['index', 'check'] as const) {
      const got: unknown[] = [];
      const n = await pool.run(
        mode,
        paths.map((path) => ({ path, languageId: 'python', settings: SETTINGS })),
        (i, r) => (got[i] = r),
        () => false,
      );
      assert.equal(n, 3);
      assert.deepEqual(got[0], { failed: readCappedSync(paths[0]!, SETTINGS.maxFileSize, { listedRegular: true }) });
      assert.deepEqual(got[0], { failed: { notRegular: 'a symbolic link' } });
      assert.deepEqual(got[1], { failed: { tooLarge: true } });
      assert.ok(mode === 'index' ? 'packed' in (got[2] as object) : 'scan' in (got[2] as object));
    }
  });
});

/** A catalog client: every third benchmark dataset missing, the rest found without a description; what it was asked. */
function catalog(): Resolver & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    resolve: async (items) => {
      const out = new Map<string, Resolution>();
      for (const { urn, kind } of items) {
        asked.push(urn);
        const n = Number(/t_(\d+)/.exec(urn)?.[1] ?? 0);
        if (n % 3 === 0 || kind !== 'dataset') out.set(urn, { state: 'missing' });
        else
          out.set(urn, {
            state: 'found',
            kind: 'dataset',
            entity: {
              urn,
              exists: true,
              properties: n % 3 === 1 ? { description: `t ${n}` } : null,
              editableProperties: null,
              schemaMetadata: null,
              editableSchemaMetadata: null,
            },
          });
      }
      return out;
    },
    cached: () => undefined,
  };
}

const described = (text: string, ds: PlainDiagnostic[]): string[] =>
  ds.map((d) => `${d.start}-${d.end} ${d.code} ${d.severity} ${text.slice(d.start, d.end)} ${d.message}`).sort();

describe('scan workers: Check Workspace', () => {
  let root: string;
  let folder: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'catalog-lens-workers-check-'));
    generate(root, 1300, 2000);
    folder = pathToFileURL(root).toString();
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const run = async (
    scanFiles?: ScanFiles,
    client = catalog(),
    cancelled: (published: number) => boolean = () => false,
  ) => {
    const published = new Map<string, string[]>();
    const ctx: WorkspaceDeps = {
      settingsFor: async () => SETTINGS,
      clientFor: () => client,
      log: () => undefined,
      workspaceFolders: () => [folder],
      openDocument: () => undefined,
      scanOf: () => undefined,
      publish: (doc, ds) => published.set(doc.uri, described(doc.getText(), ds)),
      clear: (uri) => published.set(uri, []),
      ...(scanFiles ? { scanFiles } : {}),
    };
    const result = await checkWorkspace(ctx, { cancelled: () => cancelled(published.size) });
    return { result, published, asked: client.asked, ctx };
  };

  /** Check Workspace as it was: every file scanned, one resolve of all, every file diagnosed with every definition. */
  const reference = async () => {
    const paths: string[] = [];
    await listFiles(root, SETTINGS.excludeFolders, paths, () => false);
    const scanned: Array<{ uri: string; text: string; scan: ScanResult }> = [];
    for (const path of paths) {
      const languageId = LANGUAGE_BY_EXTENSION[extname(path)];
      if (!languageId || !SETTINGS.languages.includes(languageId)) continue;
      const text = readCappedSync(path, SETTINGS.maxFileSize, { listedRegular: true });
      if (typeof text !== 'string') continue;
      const scan = scanText(text, languageId, SETTINGS);
      if (scan.occurrences.length > 0) scanned.push({ uri: pathToFileURL(path).toString(), text, scan });
    }
    const resolved = await resolveItems(catalog(), resolvableItems(scanned.map((x) => x.scan)));
    const definitions = new Map(
      scanned.flatMap((x) =>
        (x.scan.formatPropertyDefinitions ?? []).map((d) => [d.urn, { uri: x.uri, definition: d.definition }] as const),
      ),
    );
    const out = new Map<string, string[]>();
    for (const x of scanned) {
      const ds = diagnose(x.scan, resolved, SETTINGS, undefined, (urn) => definitions.get(urn));
      if (ds.length > 0) out.set(x.uri, described(x.text, ds));
    }
    return out;
  };

  test('resolved in chunks, on the main thread and in workers: the diagnostics of one resolve of every file; each URN asked once', async (t) => {
    const pool = createScanPool({ log: () => undefined, size: 2, maxFiles: 50, maxBytes: 4_000, local: false });
    t.after(() => pool.close());
    const shared = createScanPool({ log: () => undefined, size: 1, maxFiles: 50, maxBytes: 4_000 });
    t.after(() => shared.close());
    const expected = await reference();
    clearParseCache();
    const main = await run();
    const both = await run((files, take, stop) =>
      shared.run('check', files, (i, r) => take(i, 'packed' in r ? { failed: {} } : r), stop),
    );
    assert.deepEqual(both.result, main.result);
    assert.deepEqual(both.published, main.published);
    const workers = await run((files, take, stop) =>
      pool.run('check', files, (i, r) => take(i, 'packed' in r ? { failed: {} } : r), stop),
    );
    assert.deepEqual(workers.result, main.result);
    assert.deepEqual(workers.published, main.published);
    assert.deepEqual(main.published, expected);
    assert.equal(main.result.skipped, 1, 'the too-large file');
    assert.ok(main.result.files > 1000);
    for (const asked of [main.asked, workers.asked]) {
      assert.equal(new Set(asked).size, asked.length, 'no URN asked twice');
      assert.equal(asked.length, main.result.urns);
    }
    // The structured property value checked against the definition of a file of a later chunk.
    const users = [...main.published].find(([u]) => u.endsWith('/a_first/users.yaml'))?.[1] ?? [];
    assert.ok(
      users.some((d) => d.includes("'forever' is not an allowed value")),
      users.join('\n'),
    );
  });
  test('a check cancelled after a chunk was published: the next check clears what those files no longer have', async () => {
    // One context for both checks (Check Workspace remembers what it flagged per context).
    const published = new Map<string, string[]>();
    let client: Resolver & { asked: string[] } = catalog();
    let stop = (): boolean => published.size > 0;
    const ctx: WorkspaceDeps = {
      settingsFor: async () => SETTINGS,
      clientFor: () => client,
      log: () => undefined,
      workspaceFolders: () => [folder],
      openDocument: () => undefined,
      scanOf: () => undefined,
      publish: (doc, ds) => published.set(doc.uri, described(doc.getText(), ds)),
      clear: (uri) => published.set(uri, []),
    };
    const first = await checkWorkspace(ctx, { cancelled: () => stop() });
    assert.equal(first.cancelled, true);
    const flagged = [...published].filter(([, ds]) => ds.length > 0).map(([u]) => u);
    assert.ok(flagged.length > 0);
    // Now the catalog has every URN, with a description: nothing to flag but the malformed ones.
    const everything = catalog();
    client = {
      ...everything,
      resolve: async (items) => {
        const out = await everything.resolve(items);
        for (const [urn] of out)
          out.set(urn, {
            state: 'found',
            kind: 'dataset',
            entity: {
              urn,
              exists: true,
              properties: { description: 'd' },
              editableProperties: null,
              schemaMetadata: null,
              editableSchemaMetadata: null,
            },
          });
        return out;
      },
    };
    published.clear();
    stop = () => false;
    await checkWorkspace(ctx, { cancelled: () => stop() });
    const stale = flagged.filter((u) => {
      const now = published.get(u);
      return now === undefined || now.some((d) => d.includes('unknown-urn') || d.includes('missing-description'));
    });
    assert.deepEqual(stale, []);
  });
});
