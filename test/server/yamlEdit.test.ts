/**
 * Pull edits write catalog text into YAML files: whatever the text holds, the edited file must read
 * back to exactly that text, keep everything around the value, and never hold raw a character that
 * YAML cannot print or that hides or reorders what a reviewer sees (bidi controls, zero-width
 * characters): those are written as escapes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { doubleQuoted, mustEscape, renderInsertion, renderScalarLike } from '../../server/src/features/yamlEdit';
import { scanDocument } from '../../server/src/scan';
import type { YamlScalarRef } from '../../server/src/scan/types';

/** One document per style of the `description:` value that a pull replaces. */
const STYLES: Record<string, string> = {
  PLAIN: 'datasets:\n  - urn: x   # keep\n    description: old text\n    owner: me\n',
  QUOTE_SINGLE: "datasets:\n  - urn: x   # keep\n    description: 'old text'\n    owner: me\n",
  QUOTE_DOUBLE: 'datasets:\n  - urn: x   # keep\n    description: "old text"\n    owner: me\n',
  BLOCK_LITERAL: 'datasets:\n  - urn: x   # keep\n    description: |\n      old\n      text\n    owner: me\n',
  BLOCK_FOLDED: 'datasets:\n  - urn: x   # keep\n    description: >\n      old\n      text\n    owner: me\n',
};

function nodeOf(source: string, style: string): YamlScalarRef {
  const doc = parseDocument(source, { keepSourceTokens: true });
  const item = (
    doc.get('datasets') as {
      items: Array<{ get(k: string, keep: true): { range: [number, number, number]; value: string } }>;
    }
  ).items[0]!;
  const node = item.get('description', true);
  return { value: node.value, start: node.range[0], end: node.range[1], style };
}

function pull(style: string, value: string): string {
  const source = STYLES[style]!;
  const node = nodeOf(source, style);
  return source.slice(0, node.start) + renderScalarLike(node, value, source) + source.slice(node.end);
}

function readBack(text: string): { description: unknown; owner: unknown; errors: number } {
  const doc = parseDocument(text);
  const item = (doc.toJS() as { datasets: Array<Record<string, unknown>> }).datasets[0]!;
  return { description: item['description'], owner: item['owner'], errors: doc.errors.length };
}

const HIDDEN = [
  '\u202e',
  '\u2066',
  '\u200b',
  '\u200f',
  '\ufeff',
  '\u00ad',
  '\u061c',
  '\u2028',
  '\u2029',
  '\u0085',
  '\u007f',
  '\u0000',
  '\u001b',
  '\r',
  '\ufffe',
];

describe('pull edits and the characters a file must not hold raw', () => {
  test('a description with a bidi override is written escaped in every style and reads back exactly', () => {
    const evil = 'Access is \u202Eadmin only\u202C for now';
    for (const style of Object.keys(STYLES)) {
      const out = pull(style, evil);
      assert.ok(
        !out.includes('\u202e') && !out.includes('\u202c'),
        `${style}: raw bidi control in ${JSON.stringify(out)}`,
      );
      assert.match(out, /description: "Access is \\u202eadmin only\\u202c for now"\n/);
      assert.deepEqual(readBack(out), { description: evil, owner: 'me', errors: 0 }, style);
      assert.ok(out.startsWith('datasets:\n  - urn: x   # keep\n'), 'the comment before the value is kept');
    }
  });

  test("each hidden or unprintable character alone: escaped, read back exactly; ordinary text keeps the node's style", () => {
    for (const c of HIDDEN) {
      assert.ok(mustEscape(`a${c}b`), JSON.stringify(c));
      for (const style of Object.keys(STYLES)) {
        const out = pull(style, `line one${c}line two`);
        assert.ok(!out.includes(c), `${style}: raw ${JSON.stringify(c)}`);
        assert.deepEqual(
          readBack(out),
          { description: `line one${c}line two`, owner: 'me', errors: 0 },
          `${style} ${JSON.stringify(c)}`,
        );
      }
    }
    assert.equal(pull('QUOTE_SINGLE', "it's fine"), STYLES['QUOTE_SINGLE']!.replace("'old text'", "'it''s fine'"));
    assert.equal(pull('PLAIN', 'Plain words, émigré ✓'), STYLES['PLAIN']!.replace('old text', 'Plain words, émigré ✓'));
    assert.ok(
      !mustEscape('tabs\tand\nnew lines, emoji 😀, العربية'),
      'tab, line feed, pairs and RTL letters are ordinary text',
    );
  });

  test('a one-line value with a comment after it, replaced by several lines: double-quoted, so the comment stays a comment', () => {
    const source = 'datasets:\n  - urn: x\n    description: old  # ours\n    owner: me\n';
    const start = source.indexOf('old');
    const node: YamlScalarRef = { value: 'old', start, end: start + 3, style: 'PLAIN' };
    const out = source.slice(0, start) + renderScalarLike(node, 'one\ntwo', source) + source.slice(node.end);
    assert.equal(out, source.replace('old', '"one\\ntwo"'));
    assert.equal(readBack(out).description, 'one\ntwo');
  });

  test('an inserted description escapes the same way', () => {
    const value = 'x\u2067y';
    const line = renderInsertion({ insertAt: 0, indent: '    ' }, value, '');
    assert.equal(line, '    description: "x\\u2067y"\n');
    const doc = parseDocument(`a:\n${line.replace(/^ {4}/, '  ')}`);
    assert.equal((doc.toJS() as { a: { description: string } }).a.description, value);
  });

  test('property: any text, any style — the file reads back to that text, holds no raw hidden character, and the rest is kept', () => {
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc
        .array(fc.constantFrom(...HIDDEN, 'a', ' ', '\n', '\t', '"', "'", '\\', '#', ': ', '- ', '|', 'é'), {
          maxLength: 30,
        })
        .map((a) => a.join('')),
    );
    fc.assert(
      fc.property(text, fc.constantFrom(...Object.keys(STYLES)), (value, style) => {
        const out = pull(style, value);
        const back = readBack(out);
        if (back.errors !== 0 || back.owner !== 'me') return false;
        if (back.description !== value) return false;
        return (
          !HIDDEN.some((c) => out.includes(c)) &&
          out.startsWith('datasets:\n  - urn: x   # keep\n') &&
          out.endsWith('    owner: me\n')
        );
      }),
      { numRuns: 3000 },
    );
  });

  test('doubleQuoted is YAML that reads back to its input, for any string', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 60 }),
        (value) => parseDocument(`k: ${doubleQuoted(value)}`).toJS().k === value,
      ),
      { numRuns: 3000 },
    );
  });
});

const U = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
/** Where a pull inserts a description the YAML lacks: one document per insertion context the scanner knows. */
const INSERT_CONTEXTS: Record<string, string> = {
  'block list item': `datasets:\n  - urn: ${U}\n    description: d\n    columns:\n      - name: user_id   # key\n        type: int\n      - name: email\n`,
  'block list item at the end of a file without a line break': `datasets:\n  - urn: ${U}\n    description: d\n    columns:\n      - name: user_id`,
  'flow mapping item': `datasets:\n  - urn: ${U}\n    description: d\n    columns:\n      - {name: user_id, type: int}\n      - {name: email}\n`,
  'empty flow mapping in the map form': `datasets:\n  - urn: ${U}\n    description: d\n    columns:\n      user_id: {}\n      email: {description: x}\n`,
  'empty value in the map form': `datasets:\n  - urn: ${U}\n    description: d\n    columns:\n      user_id:\n      email: x\n`,
  'empty value in a flow map form': `datasets:\n  - urn: ${U}\n    description: d\n    columns: {user_id: , email: x}\n`,
  'null value in the map form': `datasets:\n  - urn: ${U}\n    description: d\n    columns:\n      user_id: ~   # none yet\n      email: x\n`,
  'null value in a flow map form': `datasets:\n  - urn: ${U}\n    description: d\n    columns: {user_id: null, email: x}\n`,
  'dataset description, block': `datasets:\n  - urn: ${U}   # users\n    owner: me\n`,
  'dataset description at the end of a file without a line break': `datasets:\n  - urn: ${U}`,
};

/** Inserts `value` where the scanner says user_id's description (or, if no columns, the dataset's) goes. */
function insertInto(source: string, value: string): string {
  const scan = scanDocument(source, 'yaml', { namespaces: ['li'] });
  const column = scan.columns.find((c) => c.name.value === 'user_id');
  const at = column ?? scan.descriptions[0]!;
  assert.equal(at.description, undefined, 'the context has no description yet');
  const end = 'replaceEnd' in at && at.replaceEnd !== undefined ? at.replaceEnd : at.insertAt;
  return source.slice(0, at.insertAt) + renderInsertion(at, value, source) + source.slice(end);
}

/** What the scanner reads back: user_id's description (or the dataset's), every column, and YAML's errors. */
function readInserted(text: string): { description: string | undefined; columns: string[]; errors: number } {
  const scan = scanDocument(text, 'yaml', { namespaces: ['li'] });
  const column = scan.columns.find((c) => c.name.value === 'user_id');
  const description = column ? column.description?.value : scan.descriptions[0]?.description?.value;
  return {
    description,
    columns: scan.columns.map((c) => `${c.name.value}=${c.description?.value ?? ''}`),
    errors: parseDocument(text).errors.length,
  };
}

describe('pull inserts a missing description in every context the scanner finds', () => {
  for (const [name, source] of Object.entries(INSERT_CONTEXTS)) {
    test(`${name}: one line, several lines and hidden characters read back exactly; the rest stays`, () => {
      const before = readInserted(source).columns.filter((c) => !c.startsWith('user_id='));
      for (const value of [
        'Login e-mail address, unique.',
        'Two lines:\nthe second one.\n',
        'a {b} [c], d: e # f',
        'it\'s "quoted"',
        'x\u202ey',
        ' leading space',
        '- dash',
        'true',
        '123',
      ]) {
        const out = insertInto(source, value);
        const back = readInserted(out);
        assert.equal(back.errors, 0, `${name} / ${JSON.stringify(value)}:\n${out}`);
        assert.equal(back.description, value, `${name} / ${JSON.stringify(value)}:\n${out}`);
        assert.deepEqual(
          back.columns.filter((c) => !c.startsWith('user_id=')),
          before,
          'the other columns are untouched',
        );
        assert.ok(!out.includes('\u202e'));
      }
    });
  }

  test('property: any text in any insertion context reads back exactly, with the other columns untouched', () => {
    const text = fc
      .oneof(
        fc.string({ unit: 'grapheme', maxLength: 30 }),
        fc
          .array(
            fc.constantFrom(
              ...HIDDEN,
              'a',
              ' ',
              '\n',
              '\t',
              '"',
              "'",
              '\\',
              '#',
              ': ',
              '- ',
              '|',
              '{',
              '}',
              ',',
              '[',
              'é',
            ),
            { maxLength: 25 },
          )
          .map((a) => a.join('')),
      )
      .filter((v) => v.trim() !== '');
    fc.assert(
      fc.property(text, fc.constantFrom(...Object.keys(INSERT_CONTEXTS)), (value, name) => {
        const source = INSERT_CONTEXTS[name]!;
        const out = insertInto(source, value);
        const back = readInserted(out);
        const others = (r: { columns: string[] }) => r.columns.filter((c) => !c.startsWith('user_id=')).join('|');
        return (
          back.errors === 0 &&
          back.description === value &&
          others(back) === others(readInserted(source)) &&
          !HIDDEN.some((c) => out.includes(c))
        );
      }),
      { numRuns: 2000 },
    );
  });
});

describe('pull replaces a description that stands in a flow mapping', () => {
  const FLOW_SOURCES = [
    `datasets:\n  - urn: ${U}\n    columns:\n      - {name: user_id, description: old text, type: int}\n      - {name: email, description: x}\n`,
    `datasets:\n  - urn: ${U}\n    columns:\n      - {name: user_id, description: 'old text'}\n      - {name: email, description: x}\n`,
    `datasets:\n  - urn: ${U}\n    columns: {user_id: "old text", email: x}\n`,
    `datasets:\n  - {urn: "${U}", description: old text}\n`,
  ];

  function replaceIn(source: string, value: string): string {
    const scan = scanDocument(source, 'yaml', { namespaces: ['li'] });
    const node =
      scan.columns.find((c) => c.name.value === 'user_id')?.description ?? scan.descriptions[0]!.description!;
    assert.equal(node.flow, true, 'the scanner says the node is in a flow collection');
    return source.slice(0, node.start) + renderScalarLike(node, value, source) + source.slice(node.end);
  }

  test('several lines, commas and braces become a quoted scalar, not a block; plain stays plain where it can', () => {
    const out = replaceIn(FLOW_SOURCES[0]!, 'One, two {three}\nfour');
    assert.ok(out.includes('description: "One, two {three}\\nfour", type: int}'), out);
    assert.ok(
      replaceIn(FLOW_SOURCES[0]!, 'Login e-mail address').includes(
        '{name: user_id, description: Login e-mail address, type: int}',
      ),
    );
    assert.ok(replaceIn(FLOW_SOURCES[1]!, "it's, here").includes("description: 'it''s, here'}"));
  });

  test('property: any text reads back exactly and the other columns stay', () => {
    const text = fc
      .oneof(
        fc.string({ unit: 'grapheme', maxLength: 30 }),
        fc
          .array(
            fc.constantFrom(...HIDDEN, 'a', ' ', '\n', '"', "'", '\\', '#', ': ', '- ', '|', '{', '}', ',', '[', ']'),
            { maxLength: 25 },
          )
          .map((a) => a.join('')),
      )
      .filter((v) => v.trim() !== ''); // a blank description is no description, for the scanner and for pulls
    fc.assert(
      fc.property(text, fc.constantFrom(...FLOW_SOURCES), (value, source) => {
        const out = replaceIn(source, value);
        const back = readInserted(out);
        const others = (r: { columns: string[] }) => r.columns.filter((c) => !c.startsWith('user_id=')).join('|');
        return (
          back.errors === 0 &&
          back.description === value &&
          others(back) === others(readInserted(source)) &&
          !HIDDEN.some((c) => out.includes(c))
        );
      }),
      { numRuns: 2000 },
    );
  });
});
