/**
 * The workspace index's own files (setText: the scan's occurrences stored without packing them
 * first, each entity found through its parse's memo) against the packed way (packText, then
 * setPacked, as a worker thread's files are stored): the same index after the same files, on the
 * shapes of benchmark 10's tree and of DataHub's own files (test/fixtures), indexed, indexed
 * again, removed, and with a byte budget that fills. And the index holds, for each file, exactly
 * what the full scanner reports of it (indexedOccurrences of scanText).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_SETTINGS, type Settings } from '../../model/src/protocol';
import { scanText } from '../../server/src/pipeline/check';
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
];

function fileText(kind: string, k: number, next: () => number): string {
  const [a, b, c] = [urn(next), urn(next), urn(next)];
  switch (kind) {
    case 'py':
      return next() < 0.3
        ? `from datahub.emitter.mce_builder import make_dataset_urn\nX = make_dataset_urn("hive", "bench.t_${k % 50}")\nY = "${a}"\n`
        : `"""Job ${k}: copies yesterday's rows."""\nSOURCE = "${a}"\nTARGET = "${b}"\nLOOKUP = "${c}"\n`;
    case 'yaml':
      if (next() < 0.15)
        return `- id: prop_${k % 7}\n  qualified_name: io.acryl.prop_${k % 7}\n  type: string\n  entity_types:\n    - dataset\n`;
      return `# Tables of job ${k}\ndatasets:\n  - urn: ${a}\n    description: Source of job ${k}.\n  - urn: "${b}"\n    description: Target.\nlookups:\n  - ${c}\n`;
    case 'sql':
      return `-- job ${k}\n-- source: ${a}\n-- target: ${b}\n-- lookup: ${c}\nSELECT 1;\n`;
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

for (const [seed, maxBytes] of [
  [1, undefined],
  [2, undefined],
  [3, 15_000],
] as const) {
  test(`setText stores what packText and setPacked store, seed ${seed}${maxBytes ? `, ${maxBytes} bytes` : ''}`, () => {
    const next = seededRandom(seed);
    const settings: Settings = maxBytes ? { ...DEFAULT_SETTINGS, index: { maxBytes } } : DEFAULT_SETTINGS;
    const logs: string[] = [];
    const fused = new WorkspaceIndex(host(logs));
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
