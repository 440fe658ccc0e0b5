/**
 * What a push of a DataHub dataset file appends besides descriptions (features/yamlSync.ts
 * labelWrites), pure: each tag, glossary term and owner (with dataset.py's ownership type) an entry
 * or one of its fields names and the catalog's dataset lacks, one write each with its line;
 * nothing the catalog has, nothing for an entry or a field the catalog lacks, never a removal.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../model/src/protocol';
import type { ResolutionLookup } from '../../server/src/catalogClient/client';
import { labelLine, labelWrites, type CatalogLabels } from '../../server/src/features/yamlSync';
import { scanText } from '../../server/src/pipeline/check';
import { dataset, MISSING } from './features/support/fakeResolution';

const urnOf = (name: string): string => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const A = urnOf('db.a');
const B = urnOf('db.b');

const FILE = [
  '- id: db.a',
  '  platform: hive',
  '  tags: [pii, gold, pii]',
  '  glossary_terms: [Classification.Sensitive, urn:li:glossaryTerm:Customer.Profile]',
  '  owners:',
  '    - jdoe',
  '    - id: data-platform-lead',
  '      type: business_owner',
  '    - id: urn:li:corpGroup:data-platform',
  '      type: urn:li:ownershipType:steward',
  '    - id: asmith',
  '      type: NOT_A_TYPE',
  '  schema:',
  '    fields:',
  '      - id: email',
  '        globalTags: [gdpr]',
  '        glossaryTerms: [Classification.Sensitive]',
  '      - id: ghost_field',
  '        globalTags: [gdpr]',
  '- id: db.b',
  '  platform: hive',
  '  tags: [gold]',
  '',
].join('\n');

const NONE: CatalogLabels = { tags: [], terms: [], owners: [], fields: new Map() };

function writes(
  text: string,
  answers: Record<string, ReturnType<typeof dataset> | typeof MISSING>,
  labels: Record<string, CatalogLabels>,
  entry?: string,
) {
  const lookup: ResolutionLookup = (urn) => answers[urn];
  return labelWrites(scanText(text, 'yaml', DEFAULT_SETTINGS), lookup, (u) => labels[u], entry);
}

describe('the tags, terms and owners a push appends', () => {
  test('each one the catalog lacks, once, in file order, with its line; a bare owner name is a TECHNICAL_OWNER', () => {
    const w = writes(
      FILE,
      { [A]: dataset(A, { columns: [{ path: 'email' }] }), [B]: dataset(B) },
      {
        [A]: {
          tags: ['urn:li:tag:pii'],
          terms: [],
          // jdoe is an owner, but of another type: a TECHNICAL_OWNER is still to add.
          owners: [{ owner: 'urn:li:corpuser:jdoe', typeUrn: 'urn:li:ownershipType:__system__business_owner' }],
          fields: new Map([['email', { tags: [], terms: ['urn:li:glossaryTerm:Classification.Sensitive'] }]]),
        },
        [B]: { ...NONE, tags: ['urn:li:tag:gold'] },
      },
    );
    assert.deepEqual(w.map(labelLine), [
      'db.a: add tag gold',
      'db.a: add glossary term Classification.Sensitive',
      'db.a: add glossary term Customer.Profile',
      'db.a: add owner jdoe (TECHNICAL_OWNER)',
      'db.a: add owner data-platform-lead (BUSINESS_OWNER)',
      'db.a: add owner group data-platform (urn:li:ownershipType:steward)',
      'db.a, field email: add tag gdpr',
    ]);
    assert.deepEqual(w[3], {
      urn: A,
      name: 'db.a',
      kind: 'owner',
      value: 'urn:li:corpuser:jdoe',
      ownershipType: 'TECHNICAL_OWNER',
    });
    assert.deepEqual(w[6], { urn: A, name: 'db.a', fieldPath: 'email', kind: 'tag', value: 'urn:li:tag:gdpr' });
  });

  test('an owner the dataset has with the same type, a tag it has: nothing to add', () => {
    const text = ['- id: db.b', '  platform: hive', '  tags: [gold]', '  owners: [jdoe]', ''].join('\n');
    const w = writes(
      text,
      { [B]: dataset(B) },
      {
        [B]: {
          ...NONE,
          tags: ['urn:li:tag:gold'],
          owners: [{ owner: 'urn:li:corpuser:jdoe', typeUrn: 'urn:li:ownershipType:__system__technical_owner' }],
        },
      },
    );
    assert.deepEqual(w, []);
  });

  test('one entry: only its own; an entry the catalog lacks, or whose labels were not read: none', () => {
    const answers = { [A]: dataset(A, { columns: [{ path: 'email' }] }), [B]: MISSING };
    const one = writes(FILE, answers, { [A]: NONE, [B]: NONE }, B);
    assert.deepEqual(one, []);
    assert.deepEqual(writes(FILE, answers, {}, A), [], 'labels not read: nothing listed');
    const onlyA = writes(FILE, answers, { [A]: NONE }, A);
    assert.ok(onlyA.length > 0 && onlyA.every((x) => x.urn === A));
    assert.ok(!onlyA.some((x) => x.fieldPath === 'ghost_field'), 'a field not in the schema has none');
  });

  test('a file in another format, or docs-as-code: none', () => {
    const glossary = ['version: 1', 'source: DataHub', 'owners:', '  users: [jdoe]', 'nodes: []', ''].join('\n');
    assert.deepEqual(writes(glossary, {}, {}), []);
    assert.deepEqual(writes(`datasets:\n  - urn: ${A}\n    tags: [pii]\n`, { [A]: dataset(A) }, { [A]: NONE }), []);
  });

  test('names in the line are plain text: a line break or a bidi control in a name shows as an escape', () => {
    const w = labelLine({ urn: A, name: 'db.a', kind: 'tag', value: 'urn:li:tag:a\u202eb\nc' });
    assert.equal(w.split('\n').length, 1, w);
    assert.ok(!w.includes('\u202e'), w);
  });
});
