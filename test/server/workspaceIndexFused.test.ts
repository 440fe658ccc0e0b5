/**
 * The workspace index's own files (setText: the scan's occurrences stored without packing them
 * first, each entity found through its parse's memo) against the packed way (packText, then
 * setPacked, as a worker thread's files are stored): the same index after the same files, on the
 * shapes of benchmark 10's tree and of DataHub's own files (test/fixtures), indexed, indexed
 * again, removed, and with a byte budget that fills. And the index holds, for each file, exactly
 * what the full scanner reports of it (indexedOccurrences of scanText). The index's own scan
 * (scanTextForIndex: top-level URNs only, looked up in the parse cache's table) against scanText:
 * the same top-level occurrences, the same index built from them, and the scans' sequence left as
 * an open document's scan left it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_SETTINGS, type Settings } from '../../model/src/protocol';
import { parseUrn, printUrn, printUrnIn, withNamespace, type Urn } from '../../model/src/urn';
import { symbolFullName, symbolText } from '../../server/src/features/symbols';
import { scanText, scanTextForIndex } from '../../server/src/pipeline/check';
import { clearParseCache, scanSequenceForTests } from '../../server/src/scan/parseCache';
import { indexedOccurrences, packText, WorkspaceIndex } from '../../server/src/index/workspaceIndex';
import { seededRandom } from '../support/random';

/** Dataset URNs as benchmark 10 writes them, and other shapes a workspace has. */
function urn(next: () => number): string {
  const i = Math.floor(next() * 400);
  const r = next();
  if (r < 0.6) return `urn:li:dataset:(urn:li:dataPlatform:hive,bench.t_${i},PROD)`;
  if (r < 0.65) return `urn:acme:dataset:(urn:acme:dataPlatform:hive,bench.t_${i},PROD)`;
  if (r < 0.7) return `urn:li:dataset:(urn:li:dataPlatform:snowflake,Café.Crème_${i},DEV)`;
  if (r < 0.74) return `urn:li:glossaryTerm:Finance.Term_${i}`;
  if (r < 0.78) return `urn:li:corpuser:user_${i}`;
  if (r < 0.8) return `urn:li:dataset:(urn:li:dataPlatform:hive,${'long_'.repeat(120)}${i},PROD)`;
  if (r < 0.83) return `urn:li:dataset:(urn:li:dataPlatform:hive,db.{{ table }},PROD)`;
  if (r < 0.86) return 'urn:li:dataset:(not, well formed';
  if (r < 0.9) return `urn:li:mlFeature:(driver_stats,trips_${i})`;
  return `urn:li:dataset:(urn:li:dataPlatform:hive,数据.表_${i},PROD)`;
}

const KINDS: Array<[string, string]> = [
  ['py', 'python'],
  ['yaml', 'yaml'],
  ['sql', 'sql'],
  ['md', 'markdown'],
  ['json', 'json'],
  ['java', 'java'],
];

function fileText(kind: string, k: number, next: () => number): string {
  const [a, b, c] = [urn(next), urn(next), urn(next)];
  switch (kind) {
    case 'py':
      return next() < 0.3
        ? `from datahub.emitter.mce_builder import make_dataset_urn\nX = make_dataset_urn("hive", "bench.t_${k % 50}")\nY = "${a}"\n`
        : next() < 0.3
          ? `F = "urn:li:schemaField:(${a},c_${k})"\nJ = ("urn:li:dataset:(urn:li:dataPlatform:hive,"\n     "db.t_${k},PROD)")\nP = f"urn:li:dataset:(urn:li:dataPlatform:hive,{name},PROD)"\nS = "urn:li:dataset:(urn:li:dataPlatform:file,feast.*,PROD)" + "${b}"\nE = "urn:li:dataset:(urn:li:dataPlatform:hive,a\\\\"b_${k},PROD)"\n# ${c} and urn:li:dataset:*\n`
          : `"""Job ${k}: copies yesterday's rows."""\nSOURCE = "${a}"\nTARGET = "${b}"\nLOOKUP = "${c}"\n`;
    case 'yaml':
      if (next() < 0.15)
        return `- id: prop_${k % 7}\n  qualified_name: io.acryl.prop_${k % 7}\n  type: string\n  entity_types:\n    - dataset\n`;
      return `# Tables of job ${k}\ndatasets:\n  - urn: ${a}\n    description: Source of job ${k}.\n  - urn: "${b}"\n    description: Target.\nlookups:\n  - ${c}\n`;
    case 'sql':
      return `-- job ${k}\n-- source: ${a}\n-- target: ${b}\n-- lookup: ${c}\nSELECT 1;\n`;
    case 'java':
      return next() < 0.5
        ? `class Job${k} {\n  Urn a = UrnUtils.getUrn("${a}");\n  DatasetUrn b = new DatasetUrn(new DataPlatformUrn("hive"), "bench.t_${k % 50}", FabricType.PROD);\n  String c = "${c}"; // ${b}\n}\n`
        : `class Job${k} {\n  String s = "urn:li:schemaField:(${a},col_${k})";\n  String t = "urn:li:dataset:(urn:li:dataPlatform:hive," + name + ",PROD)";\n  String u = "${b}" + "${c}";\n}\n`;
    case 'md':
      return `# Job ${k}\n\nReads \`${a}\`, joins \`${c}\` and writes \`${b}\` every night.\n| t | ${a} |\n`;
    default:
      return `[{"urn": "${a}", "aspects": {"upstream": "${b}"}}, {"urn": "${c}"}]\n`;
  }
}

/** DataHub's own files the tests ship (golden MCE files, lineage), each a JSON file of the workspace. */
function fixtureFiles(): Array<{ uri: string; text: string; languageId: string }> {
  const out: Array<{ uri: string; text: string; languageId: string }> = [];
  const root = join(__dirname, '..', '..', '..', 'test', 'fixtures');
  for (const dir of readdirSync(root))
    for (const name of readdirSync(join(root, dir)))
      if (name.endsWith('.json'))
        out.push({
          uri: `file:///w/fixtures/${dir}/${name}`,
          text: readFileSync(join(root, dir, name), 'utf8'),
          languageId: 'json',
        });
  return out;
}

function host(logs: string[]): ConstructorParameters<typeof WorkspaceIndex>[0] {
  return {
    settingsFor: () => Promise.resolve(DEFAULT_SETTINGS),
    openDocument: () => undefined,
    scan: scanText,
    log: (m: string) => logs.push(m),
  };
}

function sameIndex(a: WorkspaceIndex, b: WorkspaceIndex, step: string): void {
  const at = (what: string): string => `${what} after ${step}`;
  assert.equal(a.fileCount, b.fileCount, at('fileCount'));
  assert.equal(a.occurrenceCount, b.occurrenceCount, at('occurrenceCount'));
  assert.equal(a.byteCount, b.byteCount, at('byteCount'));
  assert.equal(a.isFull, b.isFull, at('isFull'));
  assert.deepEqual(a.storage, b.storage, at('storage'));
  const entities = a.entitiesNamedIn();
  assert.deepEqual(entities, b.entitiesNamedIn(), at('entitiesNamedIn'));
  for (const e of entities) {
    assert.deepEqual(a.placesOf(e), b.placesOf(e), at(`placesOf ${e}`));
    assert.deepEqual(a.filesNaming(e), b.filesNaming(e), at(`filesNaming ${e}`));
  }
  for (const q of ['', 't_1', 'BENCH.', 'café', '数', 'term', 'user_3', 'zzz'])
    assert.deepEqual(a.symbols(q, 500), b.symbols(q, 500), at(`symbols ${q}`));
  const chosen = { languages: ['python'], excludeFolders: [], maxFileSize: 1 };
  for (const index of [a, b])
    (index as unknown as { covered: Map<string, typeof chosen> }).covered.set('file:///w', chosen);
  assert.deepEqual(a.filesToCheck('file:///w', chosen), b.filesToCheck('file:///w', chosen), at('filesToCheck'));
  assert.equal(a.definitionsKey(), b.definitionsKey(), at('definitionsKey'));
}

/** A file of many lines (its line starts are not kept past it), then the shapes above. */
function longFile(next: () => number): { uri: string; text: string; languageId: string } {
  const lines = Array.from({ length: 5000 }, (_, i) => (i % 997 === 0 ? `-- ${urn(next)}` : `SELECT ${i};`));
  return { uri: 'file:///w/long/many_lines.sql', text: `${lines.join('\n')}\n`, languageId: 'sql' };
}

for (const [seed, maxBytes, indexScan] of [
  [1, undefined, false],
  [2, undefined, false],
  [3, 15_000, false],
  [4, undefined, true],
  [5, undefined, true],
  [6, 15_000, true],
] as const) {
  const how = indexScan ? 'setText with the index scan (scanTextForIndex)' : 'setText';
  test(`${how} stores what packText of scanText and setPacked store, seed ${seed}${maxBytes ? `, ${maxBytes} bytes` : ''}`, () => {
    const next = seededRandom(seed);
    const settings: Settings = maxBytes ? { ...DEFAULT_SETTINGS, index: { maxBytes } } : DEFAULT_SETTINGS;
    const logs: string[] = [];
    const fused = new WorkspaceIndex(indexScan ? { ...host(logs), scan: scanTextForIndex } : host(logs));
    const packed = new WorkspaceIndex(host([]));
    const files: Array<{ uri: string; text: string; languageId: string }> = [];
    for (let k = 0; k < 600; k++) {
      const [ext, languageId] = KINDS[k % KINDS.length]!;
      files.push({
        uri: `file:///w/pkg_${Math.floor(k / 100)}/job_${k}.${ext}`,
        text: fileText(ext, k, next),
        languageId,
      });
    }
    files.push(...fixtureFiles());
    files.splice(7, 0, longFile(next));
    const set = (f: { uri: string; text: string; languageId: string }): void => {
      fused.setText(f.uri, f.text, f.languageId, settings);
      packed.setPacked(f.uri, packText(f.text, f.languageId, settings, scanText)!, settings);
    };
    for (const f of files) set(f);
    sameIndex(fused, packed, 'indexing');
    if (maxBytes) assert.ok(fused.isFull && logs.some((l) => l.includes('full at')), 'the budget filled');
    else {
      // Each file's places are what the full scanner reports of it.
      for (const f of files) {
        const yaml = f.languageId === 'yaml';
        const found = indexedOccurrences(
          scanText(f.text, yaml ? 'plaintext' : f.languageId, settings),
          yaml ? f.text : undefined,
        );
        const places = new Set(
          found
            .flatMap(({ occ }) => fused.placesOf(occ.urn).filter((p) => p.uri === f.uri))
            .map((p) => JSON.stringify(p)),
        );
        const lines = f.text.split('\n');
        const offsetOf = (line: number, character: number): number =>
          lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0) + character;
        const starts = [...places].map(
          (p) => (JSON.parse(p) as { range: { start: { line: number; character: number } } }).range.start,
        );
        assert.deepEqual(
          starts.map((s) => offsetOf(s.line, s.character)).sort((x, y) => x - y),
          [...new Set(found.map(({ occ }) => occ.start))].sort((x, y) => x - y),
          `the places of ${f.uri}`,
        );
      }
    }
    // Files indexed again with other texts, removed, and indexed anew.
    for (let round = 0; round < 3; round++) {
      for (const f of files) {
        const r = next();
        if (r < 0.2) {
          const [ext] = KINDS.find(([, l]) => l === f.languageId) ?? ['json'];
          f.text = fileText(ext, Math.floor(next() * 600), next);
          set(f);
        } else if (r < 0.3) {
          fused.remove(f.uri);
          packed.remove(f.uri);
        } else if (r < 0.35) set(f);
      }
      sameIndex(fused, packed, `round ${round}`);
    }
    assert.ok(fused.occurrenceCount > (maxBytes ? 50 : 1000), `${fused.occurrenceCount} occurrences compared`);
  });
}

/** What a scan says of an occurrence, but for its parent (top-level ones have none; a merge deletes it rather than setting undefined). */
function said(o: ReturnType<typeof scanText>['occurrences'][number]): unknown {
  return {
    start: o.start,
    end: o.end,
    urn: o.urn,
    parsed: o.parsed,
    template: o.template,
    source: o.source,
    errorRange: o.errorRange,
    map: o.map,
  };
}

test("the index's scan finds the top-level occurrences scanText finds, and none nested", () => {
  const next = seededRandom(11);
  const texts: Array<{ text: string; languageId: string }> = [];
  for (let k = 0; k < 400; k++) {
    const [ext, languageId] = KINDS[k % KINDS.length]!;
    const text = fileText(ext, k, next);
    texts.push({ text, languageId: languageId === 'yaml' ? 'plaintext' : languageId });
    // The same text as other languages read it (literal syntaxes, call extractors).
    for (const other of ['python', 'java', 'javascript', 'go', 'sql', 'json', 'markdown', 'plaintext'])
      if (next() < 0.15) texts.push({ text, languageId: other });
  }
  for (const f of fixtureFiles()) texts.push({ text: f.text, languageId: f.languageId });
  // A call that ends inside a URN of the text (at a `]` or `}` its tuple walker does not count): what
  // was nested in that URN is dropped with it by both scans (a reviewer's find: the full scan made it top-level).
  for (const close of [']]', '}', ']'])
    texts.push({
      text: `x = make_dataset_urn(urn:li:dataset:(urn:li:dataPlatform:a,b${close},urn:li:corpuser:q,PROD)\n`,
      languageId: 'python',
    });
  let nested = 0;
  let compared = 0;
  for (const { text, languageId } of texts) {
    for (const cold of [true, false]) {
      if (cold) clearParseCache();
      const full = scanText(text, languageId, DEFAULT_SETTINGS);
      const top = full.occurrences.filter((o) => o.parent === undefined);
      nested += full.occurrences.length - top.length;
      const mine = scanTextForIndex(text, languageId, DEFAULT_SETTINGS);
      const mineTop = mine.occurrences.filter((o) => o.parent === undefined);
      // Only the call extractors (Python's builders, Java's) report nested URNs still.
      if (languageId !== 'python' && languageId !== 'java')
        assert.equal(mineTop.length, mine.occurrences.length, `no nested occurrence (${languageId})`);
      assert.deepEqual(mineTop.map(said), top.map(said), `${languageId}: ${text.slice(0, 80)}`);
      // The shared parse of each URN, whichever scan looked it up.
      mineTop.forEach((o, i) => assert.equal(o.parsed, top[i]!.parsed));
      assert.deepEqual(mine.descriptions, full.descriptions);
      assert.deepEqual(mine.formatPropertyDefinitions, full.formatPropertyDefinitions);
      compared += top.length;
    }
  }
  assert.ok(nested > 500 && compared > 2000, `${compared} top-level occurrences compared, ${nested} nested left out`);
  assert.ok(
    !scanText(texts.at(-3)!.text, 'python', DEFAULT_SETTINGS).occurrences.some((o) => o.urn === 'urn:li:corpuser:q'),
    'the URN inside the dropped one is not top-level',
  );
  // A YAML language the index reads whole (an open document's): scanned as scanText scans it.
  const yaml = 'datasets:\n  - urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)\n    description: x\n';
  assert.deepEqual(
    scanTextForIndex(yaml, 'yaml', DEFAULT_SETTINGS).occurrences.map(said),
    scanText(yaml, 'yaml', DEFAULT_SETTINGS).occurrences.map(said),
  );
});

test("the index's scans leave the scans' sequence as an open document's scan left it", () => {
  const doc = `A = "${'urn:li:dataset:(urn:li:dataPlatform:hive,db.open_1,PROD)'}"\nB = "urn:li:corpuser:someone"\n`;
  for (const [scan, follows] of [
    [scanTextForIndex, true],
    [scanText, false],
  ] as const) {
    clearParseCache();
    scanText(doc, 'python', DEFAULT_SETTINGS);
    const before = scanSequenceForTests().items;
    assert.equal(before.length, 3, 'the dataset, its platform and the user');
    // The index reads other files between two scans of the open document.
    for (let k = 0; k < 20; k++)
      scan(`X = "urn:li:dataset:(urn:li:dataPlatform:hive,db.other_${k},PROD)"\n`, 'python', DEFAULT_SETTINGS);
    scanText(doc, 'python', DEFAULT_SETTINGS);
    const { items, last } = scanSequenceForTests();
    // Followed: the rescan's sequence is the last one's, item for item (nothing written for it).
    assert.equal(
      items.length === last.length &&
        items.every((item, k) => item.urn === last[k]!.urn && item.start === last[k]!.start),
      follows,
      scan === scanText ? 'a full scan in between: the rescan follows that one' : 'the rescan follows its own',
    );
    assert.deepEqual(
      items.map((i) => i.urn),
      before.map((i) => i.urn),
    );
  }
});

test('the names and keys the index makes of a parse are symbolText’s and printUrn(withNamespace(…))’s', () => {
  const urns = [
    'urn:li:dataset:(urn:li:dataPlatform:hive,db.Users,PROD)',
    'urn:li:dataset:(urn:li:dataPlatform:s3,bucket/Dir/file.CSV,PROD)',
    'urn:li:dataset:(urn:li:dataPlatform:hive,noDots,PROD)',
    'urn:li:dataset:(urn:li:dataPlatform:hive,trailing.,PROD)',
    'urn:li:dataset:(urn:li:dataPlatform:hive,ΑΣ.ΟΔΟΣ%2Cx,PROD)',
    'urn:svc:dataset:(urn:svc:dataPlatform:hive,İstanbul.Straße,DEV)',
    'urn:li:mlFeature:(Driver_Stats,Trips%28n%29)',
    'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,Driver_Stats)',
    'urn:li:mlModel:(urn:li:dataPlatform:sagemaker,Model.A,PROD)',
    'urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,Group.B,PROD)',
    'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),Col.A)',
    'urn:li:corpuser:John.Doe',
    'urn:li:glossaryTerm:Finance.Revenue',
    'urn:li:dataPlatform:hive',
    'urn:li:tag:PII',
    'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,PROD),task)',
  ];
  for (const text of urns) {
    const p = parseUrn(text);
    assert.ok(p.ok, text);
    const { name, full } = symbolText(p.urn);
    const mine = symbolFullName(p.urn);
    assert.equal(mine.full, full, text);
    assert.equal(mine.full.slice(mine.nameAt), name, text);
    for (const ns of ['_', 'li', 'svc']) assert.equal(printUrnIn(p.urn, ns), printUrn(withNamespace(p.urn, ns)), text);
  }
});

test('the strings the index keeps of a file are its texts exactly: long, two-byte, lone surrogates, other namespaces', () => {
  // What the index owns (its folder, file names, keys, spellings and lower-case names) is copied
  // out of the file's text; each copy must be the same code units, a lone surrogate's too.
  const names = [
    `lone_\ud800_surrogate.table_with_a_long_name`,
    `ends_with_a_lone.surrogate_\udfff`,
    '数据仓库.非常长的表名_用于测试复制',
    'Café.Crème_Brûlée_with_Length',
  ];
  const urns = names.flatMap((n) => [
    `urn:li:dataset:(urn:li:dataPlatform:hive,${n},PROD)`,
    `urn:svc:dataset:(urn:svc:dataPlatform:hive,${n},PROD)`,
    `urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,${n},PROD),Col_${n.length})`,
  ]);
  for (const scan of [scanText, scanTextForIndex]) {
    clearParseCache();
    const index = new WorkspaceIndex({ ...host([]), scan });
    const uri = 'file:///w/a_folder_with_a_long_name/job_with_a_long_file_name.py';
    index.setText(uri, urns.map((u, i) => `U${i} = "${u}"\n`).join(''), 'python', DEFAULT_SETTINGS);
    assert.equal(index.occurrenceCount, urns.length);
    for (const [i, u] of urns.entries()) {
      const places = index.placesOf(u);
      assert.equal(places.length, u.startsWith('urn:svc:') || u.startsWith('urn:li:dataset:') ? 2 : 1, u);
      assert.equal(places[0]!.uri, uri, u);
      assert.ok(
        places.some((p) => p.range.start.line === i),
        u,
      );
    }
    // The spelling kept per entity: the first one the file wrote.
    assert.deepEqual(
      index.entitiesNamedIn(),
      [...new Set(urns.filter((u) => !u.startsWith('urn:svc:')))].sort((a, b) =>
        printUrnIn(parse(a), '_') < printUrnIn(parse(b), '_') ? -1 : 1,
      ),
    );
    for (const n of names) {
      const found = index.symbols(n.slice(0, 12));
      assert.ok(
        found.some((s) => s.name === n),
        `${n} in ${found.map((s) => s.name).join(', ')}`,
      );
    }
  }
});

function parse(text: string): Urn {
  const p = parseUrn(text);
  assert.ok(p.ok, text);
  return p.urn;
}
