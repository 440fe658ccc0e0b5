/**
 * The file as the catalog would have it (features/yamlSync.ts) for DataHub's glossary, data
 * product and structured properties files, pure: each node's and term's description against the
 * catalog's definition, the product's description, a property's description and display name; an
 * empty `description:` filled by a pull in every format; a push writes the descriptions
 * (setDescription) and names what it does not write (a property's display name). Everything else
 * is kept byte for byte, whatever the catalog's text holds (property-tested as the dataset file's
 * pull is).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { DEFAULT_SETTINGS } from '../../model/src/protocol';
import type { Resolution, ResolutionLookup } from '../../server/src/catalogClient/client';
import { applyEdits, syncEntries, writeLine, yamlSyncPlan } from '../../server/src/features/yamlSync';
import { scanText } from '../../server/src/pipeline/check';
import { dataset, MISSING, viewEntity } from './features/support/fakeResolution';

function plan(text: string, answers: Record<string, Resolution>, entry?: string) {
  const lookup: ResolutionLookup = (urn) => answers[urn];
  return yamlSyncPlan(text, scanText(text, 'yaml', DEFAULT_SETTINGS), lookup, entry);
}

const term = (urn: string, description: string | null) =>
  viewEntity('glossaryTerm', urn, { properties: { name: urn.slice(urn.lastIndexOf('.') + 1), description } });
const node = (urn: string, description: string | null) =>
  viewEntity('glossaryNode', urn, { properties: { name: urn.slice(urn.lastIndexOf(':') + 1), description } });

const NODE = 'urn:li:glossaryNode:Classification';
const SENSITIVE = 'urn:li:glossaryTerm:Classification.Sensitive';
const SECRET = 'urn:li:glossaryTerm:Classification.Secret';
const PUBLIC = 'urn:li:glossaryTerm:Classification.Public';

const GLOSSARY = [
  '# the business glossary',
  'version: "1"',
  'source: DataHub',
  'owners:',
  '  users: [asmith]',
  'nodes:',
  '  - name: Classification   # the node',
  '    description: "How sensitive data is."  # ours',
  '    terms:',
  '      - name: Sensitive',
  '        description: |',
  '          Masked outside',
  '          the warehouse.',
  '      - name: Secret',
  '        description:   # to fill',
  '      - name: Public',
  '        inherits: [Classification.Sensitive]',
  '',
].join('\n');

describe('a glossary against the catalog', () => {
  test("each node's and term's description against the catalog's definition: replaced in its style, an empty one filled, a missing one inserted; the writes go through setDescription's kinds", () => {
    const p = plan(GLOSSARY, {
      [NODE]: node(NODE, 'How sensitive a piece of data is.'),
      [SENSITIVE]: term(SENSITIVE, 'Data that must be masked outside the warehouse.'),
      [SECRET]: term(SECRET, 'The old name of Sensitive Data.'),
      [PUBLIC]: term(PUBLIC, 'Anyone may read it.'),
    })!;
    assert.equal(
      p.catalogText,
      GLOSSARY.replace('"How sensitive data is."', '"How sensitive a piece of data is."')
        .replace(
          '|\n          Masked outside\n          the warehouse.\n',
          '|-\n          Data that must be masked outside the warehouse.\n',
        )
        .replace('description:   # to fill', 'description:   The old name of Sensitive Data. # to fill')
        .replace('      - name: Public\n', '      - name: Public\n        description: Anyone may read it.\n'),
    );
    assert.equal(applyEdits(GLOSSARY, p.edits), p.catalogText);
    assert.deepEqual(
      p.writes.map((w) => [w.kind, w.urn, writeLine(w)]),
      [
        [
          'glossaryNode',
          NODE,
          'term group Classification: description "How sensitive a piece of data is." → "How sensitive data is."',
        ],
        [
          'glossaryTerm',
          SENSITIVE,
          'glossary term Classification.Sensitive: description "Data that must be masked outside the warehouse." → "Masked outside the warehouse."',
        ],
      ],
    );
    assert.deepEqual(p.unpushed, []);
    assert.deepEqual(p.entries, [NODE, SENSITIVE, SECRET, PUBLIC]);
    assert.deepEqual(
      syncEntries(scanText(GLOSSARY, 'yaml', DEFAULT_SETTINGS)).map((o) => o.urn),
      [NODE, SENSITIVE, SECRET, PUBLIC],
    );
  });

  test('one entry; a term the catalog lacks is noted, with what creates it; a description the catalog lacks is a push', () => {
    const one = plan(GLOSSARY, { [SECRET]: term(SECRET, 'Old.') }, SECRET)!;
    assert.deepEqual(one.entries, [SECRET]);
    assert.equal(one.catalogText, GLOSSARY.replace('description:   # to fill', 'description:   Old. # to fill'));
    const p = plan(GLOSSARY, {
      [NODE]: node(NODE, null),
      [SENSITIVE]: MISSING,
      [SECRET]: term(SECRET, null),
      [PUBLIC]: term(PUBLIC, null),
    })!;
    assert.equal(p.catalogText, GLOSSARY);
    assert.deepEqual(
      p.writes.map((w) => [w.urn, w.old, w.new]),
      [[NODE, null, 'How sensitive data is.']],
    );
    assert.deepEqual(p.notes, [
      'glossary term Classification.Sensitive: not in the catalog (the datahub-business-glossary source creates it)',
    ]);
  });
});

const PRODUCT_URN = 'urn:li:dataProduct:revenue-reporting';
const PRODUCT = [
  '# datahub dataproduct upsert -f revenue.yaml',
  'id: revenue-reporting',
  'domain: urn:li:domain:business',
  'display_name: Revenue reporting',
  "description: ''   # to fill",
  'assets:',
  '  - urn:li:dashboard:(looker,revenue_overview)',
  '',
].join('\n');

describe('a data product file against the catalog', () => {
  test("the product's description: an empty one filled in its style; a differing one replaced and pushed", () => {
    const product = (description: string | null) =>
      viewEntity('dataProduct', PRODUCT_URN, { properties: { name: 'Revenue reporting', description } });
    const filled = plan(PRODUCT, { [PRODUCT_URN]: product("The revenue table and what's on it.") })!;
    assert.equal(filled.catalogText, PRODUCT.replace("''", "'The revenue table and what''s on it.'"));
    assert.deepEqual(filled.writes, []);
    const theirs = PRODUCT.replace("''", 'Ours.');
    const p = plan(theirs, { [PRODUCT_URN]: product('Theirs.') })!;
    assert.equal(p.catalogText, PRODUCT.replace("''", 'Theirs.'));
    assert.deepEqual(p.writes.map(writeLine), ['data product revenue-reporting: description "Theirs." → "Ours."']);
    assert.deepEqual(
      syncEntries(scanText(PRODUCT, 'yaml', DEFAULT_SETTINGS)).map((o) => o.urn),
      [PRODUCT_URN],
    );
  });

  test('a file with no line break at its end gets the description on a line of its own', () => {
    const text = 'id: revenue-reporting\ndomain: business';
    const p = plan(text, {
      [PRODUCT_URN]: viewEntity('dataProduct', PRODUCT_URN, { properties: { description: 'Theirs.' } }),
    })!;
    assert.equal(p.catalogText, 'id: revenue-reporting\ndescription: Theirs.\ndomain: business');
  });
});

const RETENTION = 'urn:li:structuredProperty:io.acryl.privacy.retentionTime';
const FRESH = 'urn:li:structuredProperty:io.acryl.privacy.fresh';
const PROPERTIES = [
  '# datahub properties upsert -f properties.yaml',
  `- urn: ${RETENTION}`,
  '  type: number',
  '  display_name: Retention',
  '  description: How long it is kept.',
  '  entity_types: [dataset]',
  '- id: io.acryl.privacy.fresh',
  '  type: string',
  '  entity_types: [dataset]',
  '',
].join('\n');

describe('a structured properties file against the catalog', () => {
  const property = (urn: string, displayName: string | null, description: string | null) =>
    viewEntity('structuredProperty', urn, { definition: { qualifiedName: urn.slice(26), displayName, description } });

  test("each definition's description and display name compared and pulled (both inserted where missing); a push writes the description, not the display name, and says so", () => {
    const p = plan(PROPERTIES, {
      [RETENTION]: property(RETENTION, 'Retention time', 'How many days the data is kept.'),
      [FRESH]: property(FRESH, 'Fresh', 'How fresh.'),
    })!;
    assert.equal(
      p.catalogText,
      PROPERTIES.replace('display_name: Retention\n', 'display_name: Retention time\n')
        .replace('How long it is kept.', 'How many days the data is kept.')
        .replace(
          '- id: io.acryl.privacy.fresh\n',
          '- id: io.acryl.privacy.fresh\n  description: How fresh.\n  display_name: Fresh\n',
        ),
    );
    assert.deepEqual(
      p.writes.map((w) => [w.kind, writeLine(w)]),
      [
        [
          'structuredProperty',
          'structured property io.acryl.privacy.retentionTime: description "How many days the data is kept." → "How long it is kept."',
        ],
      ],
    );
    assert.deepEqual(p.unpushed, [
      'structured property io.acryl.privacy.retentionTime: display name "Retention time" → "Retention" (Catalog Lens pushes no display name: use `datahub properties upsert -f`)',
    ]);
    assert.deepEqual(
      syncEntries(scanText(PROPERTIES, 'yaml', DEFAULT_SETTINGS)).map((o) => o.urn),
      [RETENTION, FRESH],
    );
  });

  test('a definition the catalog lacks is noted', () => {
    const p = plan(PROPERTIES, { [RETENTION]: MISSING, [FRESH]: MISSING })!;
    assert.deepEqual(p.notes, [
      'structured property io.acryl.privacy.retentionTime: not in the catalog (datahub properties upsert creates it)',
      'structured property io.acryl.privacy.fresh: not in the catalog (datahub properties upsert creates it)',
    ]);
    assert.equal(p.catalogText, PROPERTIES);
  });
});

describe('an empty description in a dataset file', () => {
  const urnOf = (name: string): string => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
  test('`description:` with no value, `~` and `""` are filled by a pull; none is a push', () => {
    const text = [
      '- id: db.a',
      '  platform: hive',
      '  description:',
      '  schema:',
      '    fields:',
      '      - id: x',
      '        description: ~',
      '      - id: y',
      '        description: ""   # empty',
      '',
    ].join('\n');
    const p = plan(text, {
      [urnOf('db.a')]: dataset(urnOf('db.a'), {
        description: 'A.\nTwo lines.',
        columns: [
          { path: 'x', description: 'X.' },
          { path: 'y', description: 'Y: why' },
        ],
      }),
    })!;
    assert.equal(
      p.catalogText,
      text
        .replace('  description:\n', '  description: |-\n    A.\n    Two lines.\n')
        .replace('description: ~', 'description: X.')
        .replace('description: ""', 'description: "Y: why"'),
    );
    assert.deepEqual(p.writes, []);
    assert.deepEqual(
      plan(p.catalogText, {
        [urnOf('db.a')]: dataset(urnOf('db.a'), {
          description: 'A.\nTwo lines.',
          columns: [
            { path: 'x', description: 'X.' },
            { path: 'y', description: 'Y: why' },
          ],
        }),
      })!.edits,
      [],
    );
  });
});

/** A glossary of one node and its terms, each description in one of the styles (or empty, or absent). */
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
      return [`${indent}description: "double \\"quoted\\" ${n}"`];
    case 'single':
      return [`${indent}description: 'single ''quoted'' ${n}'`];
    case 'literal':
      return [`${indent}description: |`, `${indent}  literal ${n}`, `${indent}  second line`];
    case 'folded':
      return [`${indent}description: >-`, `${indent}  folded ${n}`, `${indent}  on two lines`];
  }
}

interface Spec {
  node: { style: Style; catalog: string | null };
  terms: Array<{ style: Style; catalog: string | null }>;
}

function glossaryOf(spec: Spec): string {
  const lines = ['# keep-head', 'version: 1', 'source: DataHub', 'nodes:', '  - name: N   # keep-node'];
  lines.push(...descriptionLines(spec.node.style, '    ', 0), '    terms:');
  spec.terms.forEach((t, i) => {
    lines.push(`      - name: T${i}  # keep-term-${i}`, ...descriptionLines(t.style, '        ', i + 1));
    lines.push('        term_source: INTERNAL   # keep-source');
  });
  return `${lines.join('\n')}\n`;
}

const normalise = (s: string): string => s.replace(/\s+/g, ' ').trim();

describe('property: a glossary, any catalog text, any style', () => {
  const text = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc
      .array(
        fc.constantFrom('a', ' ', '\n', '\t', '"', "'", '\\', '#', ': ', '- ', '|', '>', 'é', '\u202e', '\r', '{', ','),
        { maxLength: 20 },
      )
      .map((a) => a.join('')),
  );
  const described = fc.record({ style: fc.constantFrom(...STYLES), catalog: fc.option(text) });
  const spec: fc.Arbitrary<Spec> = fc.record({
    node: described,
    terms: fc.array(described, { minLength: 1, maxLength: 3 }),
  });

  test('the text reads back to the catalog values where they differ or the file has none, the file elsewhere; comments kept; a second pull changes nothing', () => {
    fc.assert(
      fc.property(spec, (s) => {
        const file = glossaryOf(s);
        const answers: Record<string, Resolution> = {
          'urn:li:glossaryNode:N': node('urn:li:glossaryNode:N', s.node.catalog),
          ...Object.fromEntries(
            s.terms.map((t, i) => [`urn:li:glossaryTerm:N.T${i}`, term(`urn:li:glossaryTerm:N.T${i}`, t.catalog)]),
          ),
        };
        const p = plan(file, answers)!;
        const doc = parseDocument(p.catalogText);
        if (doc.errors.length > 0) return false;
        type Entry = Record<string, unknown> & { terms?: Array<Record<string, unknown>> };
        const before = (parseDocument(file).toJS() as { nodes: Entry[] }).nodes[0]!;
        const after = (doc.toJS() as { nodes: Entry[] }).nodes[0]!;
        const expect = (ours: unknown, theirs: string | null): unknown =>
          theirs !== null && theirs.trim() !== '' && (typeof ours !== 'string' || normalise(ours) !== normalise(theirs))
            ? theirs
            : ours;
        const withDescription = (e: Entry, d: unknown): Entry => {
          const out: Entry = { ...e };
          if (d === undefined) delete out['description'];
          else out['description'] = d;
          return out;
        };
        const expected = {
          ...withDescription(before, expect(before['description'], s.node.catalog)),
          terms: before.terms!.map((t, i) => withDescription(t, expect(t['description'], s.terms[i]!.catalog))),
        };
        assert.deepEqual({ ...after, terms: after.terms!.map((t) => ({ ...t })) }, expected);
        for (const comment of file.match(/# keep-[\w-]+/g) ?? []) if (!p.catalogText.includes(comment)) return false;
        if (applyEdits(file, p.edits) !== p.catalogText) return false;
        let at = 0;
        for (const e of p.edits) {
          if (e.start < at) return false;
          at = e.end;
        }
        return plan(p.catalogText, answers)!.edits.length === 0;
      }),
      { numRuns: 400 },
    );
  });
});
