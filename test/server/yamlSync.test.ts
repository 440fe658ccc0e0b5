/**
 * The file as the catalog would have it (features/yamlSync.ts), pure: only the differing
 * descriptions are replaced (each in its own style), an empty one is filled, one the file lacks is
 * inserted, nothing the catalog lacks is taken out, and everything else — comments, other keys,
 * formatting — is kept byte for byte, whatever the catalog's text holds (property-tested as the
 * docs-as-code pull is).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { DEFAULT_SETTINGS } from '../../model/src/protocol';
import type { ResolutionLookup } from '../../server/src/catalogClient/client';
import { applyEdits, datasetEntries, writeLine, yamlSyncPlan } from '../../server/src/features/yamlSync';
import { batchesOf, PUSH_BATCH } from '../../server/src/handlers/yamlPush';
import { scanText } from '../../server/src/pipeline/check';
import { dataset, MISSING } from './features/support/fakeResolution';

const urnOf = (name: string): string => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;

function plan(text: string, answers: Record<string, ReturnType<typeof dataset> | typeof MISSING>, entry?: string) {
  const lookup: ResolutionLookup = (urn) => answers[urn];
  return yamlSyncPlan(text, scanText(text, 'yaml', DEFAULT_SETTINGS), lookup, entry);
}

const FILE = [
  '- id: db.a   # first',
  '  platform: hive',
  "  description: 'ours'  # kept quotes",
  '  schema:',
  '    fields:',
  '      - id: x',
  '        description: |',
  '          line one',
  '          line two',
  '      - id: y',
  '        type: string',
  '- id: db.b',
  '  platform: hive',
  '',
].join('\n');

describe('the file as the catalog would have it', () => {
  test('differing values replaced in their style, a missing one inserted, the rest as written; the writes of a push', () => {
    const p = plan(FILE, {
      [urnOf('db.a')]: dataset(urnOf('db.a'), {
        description: "theirs, with a 'quote'",
        columns: [
          { path: 'x', description: 'one\ntwo' },
          { path: 'y', description: 'Why.' },
        ],
      }),
      [urnOf('db.b')]: MISSING,
    })!;
    assert.equal(
      p.catalogText,
      FILE.replace("'ours'", "'theirs, with a ''quote'''")
        .replace('|\n          line one\n          line two\n', '|-\n          one\n          two\n')
        .replace('      - id: y\n', '      - id: y\n        description: Why.\n'),
    );
    assert.equal(applyEdits(FILE, p.edits), p.catalogText);
    assert.deepEqual(p.writes.map(writeLine), [
      `db.a: description "theirs, with a 'quote'" → "ours"`,
      'db.a, field x: description "one two" → "line one line two"',
    ]);
    assert.deepEqual(p.notes, ['db.b: not in the catalog (datahub dataset upsert creates it)']);
    assert.deepEqual(
      datasetEntries(scanText(FILE, 'yaml', DEFAULT_SETTINGS)).map((o) => o.urn),
      [urnOf('db.a'), urnOf('db.b')],
    );
  });

  test('what the catalog lacks stays in the file and is a push; equal but for spacing is no change', () => {
    const p = plan(FILE, {
      [urnOf('db.a')]: dataset(urnOf('db.a'), {
        description: null,
        columns: [{ path: 'x', description: 'line  one line two' }],
      }),
      [urnOf('db.b')]: dataset(urnOf('db.b'), { description: 'B.' }),
    })!;
    assert.equal(p.catalogText, FILE.replace('- id: db.b\n', '- id: db.b\n  description: B.\n'));
    assert.deepEqual(
      p.writes.map((w) => [w.name, w.fieldPath, w.old, w.new]),
      [['db.a', undefined, null, 'ours']],
    );
  });

  test('one entry: the others are not looked at', () => {
    const p = plan(FILE, { [urnOf('db.b')]: dataset(urnOf('db.b'), { description: 'B.' }) }, urnOf('db.b'))!;
    assert.deepEqual(p.entries, [urnOf('db.b')]);
    assert.equal(p.catalogText, FILE.replace('- id: db.b\n', '- id: db.b\n  description: B.\n'));
  });

  test('not a DataHub dataset file: no plan', () => {
    assert.equal(plan(`datasets:\n  - urn: ${urnOf('db.a')}\n    description: x\n`, {}), undefined);
  });

  test('the writes go to the user in batches of at most PUSH_BATCH lines', () => {
    const w = (i: number) => ({
      command: 'catalogLens.setDatasetDescription' as const,
      arg: { urn: urnOf(`t${i}`), description: 'd' },
      line: `t${i}: description (none) → "d"`,
    });
    const batches = batchesOf(Array.from({ length: 23 }, (_, i) => w(i)));
    assert.deepEqual(
      batches.map((b) => b.length),
      [PUSH_BATCH, PUSH_BATCH, 3],
    );
    const long = { ...w(0), line: 'x'.repeat(900) };
    assert.deepEqual(
      batchesOf([long, long, long]).map((b) => b.length),
      [2, 1],
    );
  });
});

/** A description as the file writes it, in one of the styles (or empty: no value, `~`, `""`), at `indent` (the key's column). */
const STYLES = ['absent', 'empty', 'tilde', 'quotes', 'plain', 'double', 'single', 'literal', 'folded'] as const;
type Style = (typeof STYLES)[number];

function descriptionLines(style: Style, indent: string, n: number): string[] {
  switch (style) {
    case 'absent':
      return [];
    case 'empty':
      return [`${indent}description:  # keep-empty-${n}`];
    case 'tilde':
      return [`${indent}description: ~`];
    case 'quotes':
      return [`${indent}description: ""  # keep-quotes-${n}`];
    case 'plain':
      return [`${indent}description: plain words ${n}  # keep-plain-${n}`];
    case 'double':
      return [`${indent}description: "double \\"quoted\\" ${n}"  # keep-double-${n}`];
    case 'single':
      return [`${indent}description: 'single ''quoted'' ${n}'`];
    case 'literal':
      return [`${indent}description: |`, `${indent}  literal ${n}`, `${indent}  second line`];
    case 'folded':
      return [`${indent}description: >-`, `${indent}  folded ${n}`, `${indent}  on two lines`];
  }
}

interface Spec {
  entries: Array<{ style: Style; catalog: string | null; fields: Array<{ style: Style; catalog: string | null }> }>;
}

function fileOf(spec: Spec): string {
  const lines: string[] = ['# keep-head'];
  spec.entries.forEach((e, i) => {
    lines.push(`- id: db.t${i}   # keep-id-${i}`, '  platform: hive', ...descriptionLines(e.style, '  ', i));
    lines.push('  schema:', '    fields:');
    e.fields.forEach((f, j) => {
      lines.push(`      - id: c${j}  # keep-field-${i}-${j}`, ...descriptionLines(f.style, '        ', i * 10 + j));
      lines.push('        type: string');
    });
    lines.push('  tags: [gold]   # keep-tags');
  });
  return `${lines.join('\n')}\n`;
}

const normalise = (s: string): string => s.replace(/\s+/g, ' ').trim();

describe('property: any catalog text, any style', () => {
  const text = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc
      .array(
        fc.constantFrom('a', ' ', '\n', '\t', '"', "'", '\\', '#', ': ', '- ', '|', '>', 'é', '\u202e', '\r', '{', ','),
        {
          maxLength: 20,
        },
      )
      .map((a) => a.join('')),
  );
  const described = fc.record({ style: fc.constantFrom(...STYLES), catalog: fc.option(text) });
  const spec: fc.Arbitrary<Spec> = fc.record({
    entries: fc.array(
      fc.record({
        style: fc.constantFrom(...STYLES),
        catalog: fc.option(text),
        fields: fc.array(described, { minLength: 1, maxLength: 3 }),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  });

  test('the text reads back to the catalog values where they differ, the file elsewhere; comments kept; a second pull changes nothing', () => {
    fc.assert(
      fc.property(spec, (s) => {
        const file = fileOf(s);
        const answers = Object.fromEntries(
          s.entries.map((e, i) => [
            urnOf(`db.t${i}`),
            dataset(urnOf(`db.t${i}`), {
              description: e.catalog,
              columns: e.fields.map((f, j) => ({ path: `c${j}`, description: f.catalog })),
            }),
          ]),
        );
        const p = plan(file, answers)!;
        const before = parseDocument(file).toJS() as Array<Record<string, unknown>>;
        const doc = parseDocument(p.catalogText);
        if (doc.errors.length > 0) return false;
        const after = doc.toJS() as Array<Record<string, unknown>>;
        // What the catalog text should make of each value: the catalog's where it has one that differs.
        const expect = (ours: unknown, theirs: string | null): unknown =>
          theirs !== null && theirs.trim() !== '' && (typeof ours !== 'string' || normalise(ours) !== normalise(theirs))
            ? theirs
            : ours;
        const expected = before.map((entry, i) => {
          const e = s.entries[i]!;
          const out: Record<string, unknown> = { ...entry };
          const d = expect(entry['description'], e.catalog);
          if (d !== undefined) out['description'] = d;
          const fields = (entry['schema'] as { fields: Array<Record<string, unknown>> }).fields.map((f, j) => {
            const fd = expect(f['description'], e.fields[j]!.catalog);
            return fd === undefined ? f : { ...f, description: fd };
          });
          out['schema'] = { fields };
          return out;
        });
        assert.deepEqual(
          after.map((e) => ({ ...e })),
          expected.map((e) => ({ ...e })),
        );
        for (const comment of file.match(/# keep-[\w-]+/g) ?? []) if (!p.catalogText.includes(comment)) return false;
        // Outside the edits, the file's bytes.
        let at = 0;
        let rebuilt = '';
        for (const e of p.edits) {
          rebuilt += file.slice(at, e.start) + e.newText;
          at = e.end;
        }
        if (rebuilt + file.slice(at) !== p.catalogText) return false;
        const again = plan(p.catalogText, answers)!;
        return again.edits.length === 0;
      }),
      { numRuns: 400 },
    );
  });
});
