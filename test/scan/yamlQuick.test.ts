/**
 * The quick YAML reader against the `yaml` package: for every text it reads, the same nodes
 * (tree, scalar values, types, sources, ranges; collections' range[0] and range[1]) and the same
 * scan; for every text it does not read, undefined (the package parses it).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMap, isScalar, isSeq, parseAllDocuments } from 'yaml';
import { quickYaml } from '../../server/src/scan/yamlQuick';
import { findUrnsInYaml } from '../../server/src/scan/yaml';
import { readDataHubYaml } from '../../server/src/formats/read';
import { seededRandom } from '../support/random';
import { REPO_ROOT } from '../support/shared';
import { OPTS } from './markers';

function tree(node: unknown): unknown {
  if (node === null || node === undefined) return node;
  if (isScalar(node)) {
    const s = node as typeof node & { minFractionDigits?: number };
    return {
      value: s.value,
      type: s.type,
      source: s.source,
      range: s.range,
      format: s.format,
      digits: s.minFractionDigits,
    };
  }
  if (isMap(node))
    return {
      map: node.items.map((p) => [tree(p.key), tree(p.value)]),
      flow: node.flow,
      range: node.range?.slice(0, 2),
    };
  if (isSeq(node)) return { seq: node.items.map(tree), flow: node.flow, range: node.range?.slice(0, 2) };
  return { other: String(node) };
}

/** 'quick' when the quick reader read `text` exactly as the package does, 'package' when it left it to the package. */
function holdAgainstPackage(text: string): 'quick' | 'package' {
  const quick = quickYaml(text);
  if (!quick) return 'package';
  const docs = parseAllDocuments(text, { prettyErrors: false, logLevel: 'silent' });
  assert.ok(Array.isArray(docs), JSON.stringify(text));
  assert.equal(docs.length, 1, `one document: ${JSON.stringify(text)}`);
  assert.deepEqual(docs[0]!.errors, [], `the package found no error in ${JSON.stringify(text)}`);
  assert.deepEqual(docs[0]!.warnings, [], `the package found no warning in ${JSON.stringify(text)}`);
  assert.deepEqual(tree(quick[0]!.contents), tree(docs[0]!.contents), JSON.stringify(text));
  assert.deepEqual(findUrnsInYaml(text, OPTS), findUrnsInYaml(text, OPTS, { quick: false }), JSON.stringify(text));
  assert.deepEqual(readDataHubYaml(text), readDataHubYaml(text, { quick: false }), JSON.stringify(text));
  return 'quick';
}

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';

describe('the quick YAML reader', () => {
  test('reads block mappings, sequences, plain and quoted scalars, comments, as the package does', () => {
    const read = [
      `a: x  # c2\nb:\n  - u: 1\n    d: y\n  - z\nc:\ne: "q"\n`,
      'c:\nd:\n',
      'c:\nd:',
      'a:\n  - x\n\n  # comment\nb: y',
      `a: 'it''s'\nb: "q x"  # c\nc: x:y\nd: -x\ne: a #b\n`,
      'a:\n- x\n- y\nb: 1.50\nc: true\nd: null\ne: ~\nf: 0x1F\ng: .inf\nh: 1e3\ni: 012\nj: 0o17\nk: Yes\n',
      '- a: 1\n  b: x\n- c\n',
      'a: x\n# c\nb:\n  # inner\n  - y\n  # after\n# out\nc: z\n',
      'a: b\n\n\n',
      '  a: b\n  c: d\n',
      'a:\n    - x\n    - y\n',
      '-   a: 1\n    b: 2\n',
      '1: x\ntrue: y\nnull: z\n',
      `urn: ${DS}\ndescription: Users, one row per user.\ncolumns:\n  - name: id\n    description: The key.\n`,
      'ünï: ✓ ✓\n',
    ];
    for (const text of read) assert.equal(holdAgainstPackage(text), 'quick', JSON.stringify(text));
  });

  test('reads flow sequences of scalars and block scalars as the package does', () => {
    const read = [
      't: [orders, "pii: false", nightly]\nu: [ a ,b ]  # c\nv: []\n',
      `x: [1, 2.50, true, ~]\ny: ['a''b', "c"]  # k\n`,
      '- [a, b]\n- c\n',
      `d: >-\n  Amount in EUR,\n  rounded.\ne: x\n`,
      'd: |\n  line1\n  line2\n\ne: x\n',
      'd: >\n  a\n  b\n\n\ne: x\n',
      'd: |-\n    a\n    b\nlast: >\n  z\n',
      '- >-\n  a\n  b\n- x\n',
      'd: |\n  a',
      'd: >\n  a\n\n  b\n\n\n  c\n',
      'd: |\n  a\n    b\n\n  c\n# x\ne: 1\n',
      'd: |\n    a\n  # c\ne: x',
      `d: |\n  see ${DS}\n  and more\n`,
    ];
    for (const text of read) assert.equal(holdAgainstPackage(text), 'quick', JSON.stringify(text));
  });

  test('leaves to the package what it does not read exactly', () => {
    const left = [
      '',
      '# only a comment\n',
      'a: {b: c}\n',
      'a: &x 1\nb: *x\n',
      'a: !tag x\n',
      '---\na: b\n',
      'a: b\n---\nc: d\n',
      '%YAML 1.2\n---\na: b\n',
      'a:\tb\n',
      'a: b\r\nc: d\r\n',
      '\ufeffa: b\n',
      'a: b\na: c\n',
      'a: multi\n  line\n',
      'a:\n  plain on the next line\n',
      'a: b: c\n',
      '"quoted key": x\n',
      '? complex\n: key\n',
      'a: "esc \\" q"\n',
      'a: "unclosed\n',
      '- - nested\n',
      '-\n  a: b\n',
      'a: |+\n  keep\n',
      'a: |2\n  x\n',
      'a: | # c\n  x\n',
      'a: >\n  x\n   more indented in folded\n',
      'a: [b, [c]]\n',
      'a: [b,]\n',
      'a: [b: c]\n',
      'a: # comment\nb: c\n',
      'a:  \nb: c\n',
      'a : b\n',
      '  a: b\nc: d\n',
      'a:\n  b: c\n d: e\n',
      'scalar at the root\n',
      'a: "q"#c\n',
      'a: x\n  # comment deeper is fine\n  b: c\n',
      'a: @x\n',
      // A byte-order mark after a comment line (the package drops it), a key over 1024 characters (an error).
      '#\n\ufeffa: b\n',
      `${'k'.repeat(1100)}: v\n`,
      // Comment lines the package stretches a collection's end or an empty value over.
      'a:\n  b: x\n  # c\n',
      '- a: x\n  # c\n',
      'a:\n  - x\n  # c\n',
      'a:\n  b: [x]\n  # c\n',
      'a:\n  b: |\n    x\n  # c\n',
      'r:\n  a:\n    b: x\n  # c\n',
      ' 0:\n - x\n #',
      'a:\n\n  # c\nb: 1\n',
      's:\n\n#',
      '- s:\n\n# c\n',
      // Nested deeper than the reader goes.
      Array.from({ length: 250 }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' v\n',
    ];
    for (const text of left) assert.equal(quickYaml(text), undefined, JSON.stringify(text));
  });

  test('DataHub’s own YAML files (glossary, data product, structured properties) are read as the package reads them', () => {
    const dir = path.join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'datahub-yaml');
    const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f));
    assert.ok(files.length >= 3);
    for (const f of files) assert.equal(holdAgainstPackage(readFileSync(path.join(dir, f), 'utf8')), 'quick', f);
  });

  test('generated files, near misses included, seeded: the quick reader is exact or steps aside', () => {
    const random = seededRandom(20261127);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const urns = [DS, 'urn:li:corpuser:jdoe', 'urn:li:mlFeature:(tbl,age)', 'urn:li:glossaryTerm:Pii'];
    const clean = (): string =>
      pick([
        pick(urns),
        'plain text',
        'x:y',
        '-x',
        '1',
        '1.50',
        'true',
        'null',
        '~',
        'a #b',
        "'q''s'",
        '"dq"',
        '[a, b]',
        `[a, "b: c", ${pick(urns)}]`,
        '[ ]',
        `see ${pick(urns)}.`,
        `${pick(urns)}  # c`,
        'ünï ✓',
        'x,y',
        'x]',
        '012',
        '.5',
        '+1',
        '-1',
        'NULL',
        'True',
        '.NaN',
        '1e3',
        '0o17',
      ]);
    const odd = (): string =>
      pick([
        '',
        'a: b',
        '- x',
        '0x1F',
        'it has # hash',
        'it has #hash',
        '"dq \\" esc"',
        '"unclosed',
        "'un",
        '[a,]',
        '{a: b}',
        '&anc x',
        '*al',
        '!tag x',
        '|',
        '>-',
        '|+',
        '>2',
        ` ${pick(urns)}`,
        '@x',
        '%x',
        '`x',
        '?x',
        ':x',
        'a:',
        '"q" #c',
        '"q"#c',
        "'a' x",
      ]);
    const scalar = (): string => (random() < 0.85 ? clean() : odd());
    const key = (): string =>
      random() < 0.85
        ? pick(['urn', 'description', 'name', 'columns', 'owners', 'tags', 'id', 'dataset', 'a b', 'x_urn', 'field'])
        : pick(['k:', '"q"', '1', 'true', '- x', '? k', 'x#y', 'k ', 'urn']);
    function block(depth: number, indent: number, lines: string[]): void {
      const n = 1 + Math.floor(random() * 4);
      const sequence = random() < 0.4;
      for (let i = 0; i < n; i++) {
        const pad = ' '.repeat(indent + (random() < 0.03 ? 1 : 0));
        if (random() < 0.1) lines.push(random() < 0.5 ? '' : `${pad}# comment ${pick(urns)}`);
        if (sequence) {
          if (depth < 3 && random() < 0.4) {
            const inner: string[] = [];
            block(depth + 1, 0, inner);
            const first = inner.findIndex((l) => l.trim() !== '' && !l.trim().startsWith('#'));
            if (first < 0) continue;
            const extra = pick([2, 2, 2, 4]);
            inner.forEach((l, j) =>
              lines.push(
                j === first ? `${pad}-${' '.repeat(extra - 1)}${l}` : l === '' ? '' : pad + ' '.repeat(extra) + l,
              ),
            );
          } else lines.push(`${pad}- ${scalar()}`);
        } else {
          const k = key();
          if (depth < 3 && random() < 0.35) {
            lines.push(`${pad}${k}:${random() < 0.05 ? '  ' : ''}`);
            block(depth + 1, indent + pick([2, 2, 4, 0]), lines);
          } else if (random() < 0.15) {
            lines.push(`${pad}${k}: ${pick(['|', '>', '|-', '>-', '|+', '>1'])}`);
            const at = indent + pick([2, 2, 4, 1, 0]);
            const m = 1 + Math.floor(random() * 3);
            for (let j = 0; j < m; j++)
              lines.push(
                random() < 0.2
                  ? ''
                  : ' '.repeat(at + (random() < 0.2 ? 2 : 0)) +
                      pick([`text ${pick(urns)}`, 'line', '# not a comment', 'a: b']),
              );
          } else
            lines.push(
              `${pad}${k}:${random() < 0.1 ? '' : ` ${scalar()}`}${random() < 0.1 ? '   # trailing' : random() < 0.05 ? '  ' : ''}`,
            );
        }
      }
    }
    const counts = { quick: 0, package: 0 };
    for (let c = 0; c < 3000; c++) {
      const lines: string[] = [];
      block(0, 0, lines);
      let text = lines.join('\n') + (random() < 0.8 ? '\n' : '');
      if (random() < 0.03) text = text.replace('\n', '\n\t');
      counts[holdAgainstPackage(text)]++;
    }
    // Both sides are exercised: a reader that always stepped aside would pass the comparison.
    assert.ok(counts.quick > 600, `quick read ${counts.quick} of 3000`);
    assert.ok(counts.package > 600, `left to the package ${counts.package} of 3000`);
  });

  test('DataHub’s files and a docs-as-code file with random edits (syntax characters put in, cut out): exact or left to the package', () => {
    const dir = path.join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'datahub-yaml');
    const bases = readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f))
      .map((f) => readFileSync(path.join(dir, f), 'utf8'));
    bases.push(
      `# Tables\ndatasets:\n  - urn: ${DS}\n    description: Source.\n    tags: [a, "b: c"]\n    columns:\n      - name: id\n        description: >-\n          Key of\n          the row.\nlookups:\n  - urn:li:corpuser:jdoe\n`,
    );
    const pieces = [
      ' ',
      '  ',
      ':',
      ': ',
      '#',
      ' #',
      '-',
      '- ',
      '\n',
      '\n  ',
      "'",
      '"',
      '[',
      ']',
      ',',
      '|',
      '>',
      '&',
      '*',
      '!',
    ];
    const more = ['?', '~', '{', '}', 'x', 'urn:li:corpuser:u', '\\', 'é', '\t'];
    const random = seededRandom(7);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const counts = { quick: 0, package: 0 };
    for (let n = 0; n < 1500; n++) {
      let text = pick(bases);
      for (let k = 1 + Math.floor(random() * 4); k > 0; k--) {
        const at = Math.floor(random() * text.length);
        const r = random();
        const piece = random() < 0.8 ? pick(pieces) : pick(more);
        if (r < 0.45) text = text.slice(0, at) + piece + text.slice(at);
        else if (r < 0.8) text = text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 3));
        else text = text.slice(0, at) + piece + text.slice(at + 1);
      }
      counts[holdAgainstPackage(text)]++;
    }
    assert.ok(counts.quick > 300 && counts.package > 300, JSON.stringify(counts));
  });

  test('the docs-as-code file of benchmark 2 (bench/lib/generate.mjs) is read quickly', async () => {
    const url = pathToFileURL(path.join(REPO_ROOT, 'bench', 'lib', 'generate.mjs')).href;
    const generate = (await import(url)) as { docsAsCodeYaml(bytes: number): string };
    assert.equal(holdAgainstPackage(generate.docsAsCodeYaml(60_000)), 'quick');
  });
});
