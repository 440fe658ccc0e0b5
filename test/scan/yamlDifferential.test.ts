/**
 * The YAML extractor against the reference copy of the one it replaced (./yamlReference): every
 * occurrence, context, key path, sibling, list owner, column, description, source map and problem
 * the same (deepStrictEqual of the whole scan), on generated docs-as-code YAML, DataHub-shaped
 * files, hand-written samples of each YAML feature, and random edits of all of them.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { scanDocument } from '../../server/src/scan';
import { reserveParseCache, startScanSequence } from '../../server/src/scan/parseCache';
import type { ScanOptions, ScanResult } from '../../server/src/scan/types';
import { findUrnsInYaml as referenceFindUrnsInYaml } from './yamlReference/yaml';
import { seededRandom } from '../support/random';
import { REPO_ROOT } from '../support/shared';

const OPTS: ScanOptions = { namespaces: ['li', 'svc'] };

/** The reference extractor run as scanDocument runs an extractor. */
function referenceScan(text: string, opts: ScanOptions): ScanResult {
  startScanSequence();
  const { occurrences, columns, descriptions, problems } = referenceFindUrnsInYaml(text, opts);
  reserveParseCache(occurrences.length);
  return { occurrences, columns, descriptions, problems };
}

function assertSame(text: string, label: string, opts: ScanOptions = OPTS): void {
  const expected = referenceScan(text, opts);
  const actual = scanDocument(text, 'yaml', opts);
  try {
    assert.deepStrictEqual(actual, expected);
  } catch (error) {
    assert.fail(`${label}: the scan differs from the reference on ${JSON.stringify(text)}\n${String(error)}`);
  }
}

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const DS2 = 'urn:li:dataset:(urn:li:dataPlatform:snowflake,shop.orders,PROD)';

/** One sample of each thing the extractor reads: styles, collections, anchors, comments, documents. */
const SAMPLES: string[] = [
  `urn: ${DS}\ndescription: Users.\nowner: urn:li:corpuser:jdoe\ncolumns:\n  - name: id\n    description: Key.\n  - fieldPath: email\n`,
  `datasets:\n  - urn: ${DS}\n    tags: [a, "b: c", ${DS2}]\n    columns: {id: "Key", email: {description: Mail}, age: ~, zip: null, n:}\n`,
  `- {urn: ${DS}, description: flow map}\n- [${DS}, ${DS2}, urn:li:corpuser:a]\n- {dataset: ${DS}, columns: [{name: x}, {name: y, description: z}]}\n`,
  `a: '${DS}'\nb: "${DS}"\nc: "say \\"hi\\" to urn:li:corpuser:\\u0041nn and urn:li:corpuser:b\\x6Fb"\nd: 'it''s urn:li:corpuser:x''s'\n`,
  `urn: "urn:li:dataset:(urn:li:dataPlatform:hive,\\\n   db.users,PROD)"\nother: "urn:li:corpuser:a\n  b"\n`,
  `description: |\n  First line.\n  Derived from ${DS}\n    and urn:li:corpuser:jdoe.\nfolded: >-\n  urn:li:corpuser:a\n  continues ${DS2}\n\n  more\nkeep: |+\n  urn:li:corpuser:k\n\n\nstrip: |2-\n    urn:li:corpuser:s\n`,
  `base: &b\n  urn: ${DS}\n  owner: urn:li:corpuser:x\ncopy: *b\nmerged:\n  <<: *b\n  urn: ${DS2}\n`,
  `# owner urn:li:corpuser:comment\nurn: ${DS} # trailing urn:li:corpuser:c2\n# ${DS2}\nlist:\n  - urn:li:corpuser:a # c\n`,
  `name: Ünïcödé 𝔘\nurn: urn:li:corpuser:zoë\ndescription: "Donnée 🚀 ${DS}"\nfeatures:\n  - urn:li:mlFeature:(tâble,count)\n`,
  `urn: ${DS}\n---\nurn: ${DS2}\ndescription: second\n...\n---\n- urn:li:corpuser:a\n`,
  `? complex key ${DS}\n: value urn:li:corpuser:a\n? [a, b]\n: ${DS2}\n{a: 1}: urn:li:corpuser:b\n`,
  `feature_table: urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,t)\nfeatures:\n  - urn:li:mlFeature:(t,a)\n  - "urn:li:mlFeature:(t,b)"\nurn_list: [urn:li:corpuser:a, urn:li:corpuser:b]\nmodel_urn: urn:li:mlModel:(urn:li:dataPlatform:mlflow,m,PROD)\n`,
  `items: [urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD), urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)]\nm: {k: urn:li:dataset:(urn:li:dataPlatform:hive,c,PROD), urn:li:dataset:(urn:li:dataPlatform:hive,d,PROD): v}\n`,
  `templ: urn:li:dataset:(urn:li:dataPlatform:{{ platform }},db.t,PROD)\nbad: urn:li:dataset:(urn:li:dataPlatform:hive,db.t,NOPE)\nsvc: urn:svc:thing:x\nnum: 12\nbool: true\nnull: ~\n1: one\n`,
  `key: "unclosed ${DS}\nnext: ${DS2}\n`,
  `key: [unclosed, ${DS}\nnext: ${DS2}\n`,
  `a:\n  b:\n    c: ${DS}\n   d: bad indent ${DS2}\n  e: urn:li:corpuser:x\n`,
  `\tkey: ${DS}\nk: v: w ${DS2}\n- mixed\n`,
  `key: value\r\nurn: ${DS}\r\ndescription: "a\r\n  b urn:li:corpuser:x"\r\n`,
  `dup: ${DS}\ndup: ${DS2}\n!!str tagged: !!str urn:li:corpuser:t\n%YAML 1.2\n`,
  `${'['.repeat(5)}${DS}${']'.repeat(5)}\n`,
  `${'  '.repeat(3)}x: ${DS}\n`,
  '',
  '# only a comment\n',
  `just text urn:li:corpuser:x`,
  `features:\n  - urn:li:mlFeature:(t,a)\nurn: urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,t)\n`,
  `urn: urn:li:dataset:(urn:li:dataPlatform:{{ p }},t,PROD)\ndataset_urn: ${DS}\nitems:\n  - urn:li:corpuser:a\n`,
  `id: ${DS2}\nurn: ${DS}\nlist: [urn:li:corpuser:a]\nother:\n  - ${DS}\n`,
  `group: urn:li:corpGroup:g\nmembers: [urn:li:corpuser:a, urn:li:corpuser:b]\ndescription:\n`,
  `a: "\\x75rn:li:corpuser:x"\nb: "see \\u0075rn:li:corpuser:y"\nc: "u\\\n  rn:li:corpuser:z"\nd: 'u\n  rn:li:corpuser:w'\ne: u\n  rn:li:corpuser:v\n`,
];

/** A file of this repository (a missing one fails the test, not skips it). */
function readRepoFile(path: string): string {
  return readFileSync(resolve(REPO_ROOT, path), 'utf8');
}

/** The repository's own YAML: examples and the DataHub-format fixtures of the editor tests. */
const FILES: string[] = [
  'examples/catalog/models.yml',
  'examples/catalog/users_dataset.yaml',
  'examples/catalog/datasets.yml',
  'examples/catalog/feature_tables.yml',
  'test/e2e/fixtures/datahub-yaml/dataproduct.yaml',
  'test/e2e/fixtures/datahub-yaml/business_glossary.yml',
  'test/e2e/fixtures/datahub-yaml/structured_properties.yaml',
].map(readRepoFile);

type Generate = { docsAsCodeYaml(bytes: number): string };

async function docsAsCode(bytes: number): Promise<string> {
  const url = pathToFileURL(resolve(REPO_ROOT, 'bench', 'lib', 'generate.mjs')).href;
  const generate = (await import(url)) as Generate;
  return generate.docsAsCodeYaml(bytes);
}

const INSERTS = [
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\n  ',
  '- ',
  ': ',
  ':',
  ',',
  '[',
  ']',
  '{',
  '}',
  '"',
  "'",
  "''",
  '\\',
  '\\x75',
  '\\u0075rn:',
  '\\\n',
  '# ',
  ' #c ',
  '&a ',
  '*a',
  '<<: *a\n',
  '? ',
  '|\n',
  '>-\n',
  '|+2\n',
  '---\n',
  '...\n',
  '!!str ',
  '~',
  'é',
  '𝔘',
  '🚀',
  'urn:',
  'urn:li:corpuser:x',
  DS,
  `urn: ${DS2}\n`,
  'description: d\n',
  'columns:\n  - name: c\n',
  '(',
  ')',
  '{{ x }}',
];

function mutate(text: string, next: () => number): string {
  let out = text;
  const edits = 1 + Math.floor(next() * 4);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(next() * (out.length + 1));
    const kind = next();
    if (kind < 0.45) {
      out = out.slice(0, at) + INSERTS[Math.floor(next() * INSERTS.length)]! + out.slice(at);
    } else if (kind < 0.7) {
      out = out.slice(0, at) + out.slice(Math.min(out.length, at + 1 + Math.floor(next() * 12)));
    } else if (kind < 0.85) {
      // Re-indent the line holding `at`.
      const lineStart = out.lastIndexOf('\n', at - 1) + 1;
      let p = lineStart;
      while (out.charCodeAt(p) === 32) p++;
      const indent = ' '.repeat(Math.floor(next() * 7));
      out = out.slice(0, lineStart) + indent + out.slice(p);
    } else {
      // Duplicate a line (duplicate keys, repeated list items).
      const lineStart = out.lastIndexOf('\n', at - 1) + 1;
      const lf = out.indexOf('\n', at);
      const lineEnd = lf < 0 ? out.length : lf + 1;
      out = out.slice(0, lineEnd) + out.slice(lineStart, lineEnd) + out.slice(lineEnd);
    }
  }
  return out;
}

describe('YAML extractor: the same scans as the reference it replaced', () => {
  test('hand-written samples of each YAML feature', () => {
    SAMPLES.forEach((text, i) => assertSame(text, `sample ${i}`));
  });

  test('the repository’s YAML files (examples, DataHub formats)', () => {
    assert.ok(FILES.length >= 5, 'the fixture files are found');
    FILES.forEach((text, i) => assertSame(text, `file ${i}`));
  });

  test('generated docs-as-code YAML, whole and in pieces', async () => {
    const text = await docsAsCode(300_000);
    assertSame(text, 'docs-as-code');
    for (let cut = 0; cut < text.length; cut += 9_973) assertSame(text.slice(cut, cut + 1_500), `piece at ${cut}`);
  });

  test('nesting past the limit (brackets, indentation) is read as text, at the same offset', () => {
    const deep = [
      `a: ${'['.repeat(1001)}${DS}`,
      `a: ${'{'.repeat(1000)}\nb: ${DS}`,
      `a: ${'['.repeat(999)}\nb: ${'['.repeat(5)} ${DS}`,
      `- ${'['.repeat(600)}\n  ${'{'.repeat(401)} ${DS}`,
      `a: ${'[]'.repeat(2000)}${'['.repeat(1001)}`,
      `a: ${'['.repeat(1001)}`.replace('[[', '[]'),
      `x: ${'['.repeat(800)}\r\nb${'['.repeat(300)}\n ${DS}`,
      `${' '.repeat(1001)}a: ${DS}`,
      `a: 1\n${' '.repeat(1000)}b: ${DS}\n${' '.repeat(1001)}`,
      `a:\n${' '.repeat(1000)}\t${' '.repeat(10)}b: ${DS}`,
      `k: "${' '.repeat(1500)}"\n${'['.repeat(1001)}`,
      `${'['.repeat(1001)}${' '.repeat(1002)}`,
      `\n${' '.repeat(1001)}${'['.repeat(1001)}`,
      `a: ${'{'.repeat(1000)}}}{{`,
      `a: ${'['.repeat(1000)}]]x[[`,
      `a: ${'{['.repeat(500)}]}[{`,
      `a: ${'{['.repeat(500)}]}[{[`,
    ];
    deep.forEach((text, i) => assertSame(text, `deep ${i}`));
  });

  test('another namespace list', () => {
    SAMPLES.forEach((text, i) => assertSame(text, `sample ${i}, namespace li`, { namespaces: ['li'] }));
  });

  test('random edits: broken indentation, flow collections, anchors, block scalars, quotes, non-ASCII', async () => {
    const generated = await docsAsCode(6_000);
    const corpus = [...SAMPLES, ...FILES, generated];
    for (const seed of [1, 2, 3]) {
      const next = seededRandom(seed);
      for (let i = 0; i < 1_500; i++) {
        const base = corpus[Math.floor(next() * corpus.length)]!;
        const text = mutate(base, next);
        assertSame(text, `seed ${seed}, edit ${i}`);
      }
    }
  });
});
