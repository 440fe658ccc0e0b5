/**
 * The tags, glossary terms and owners a DataHub dataset file's entries (and their schema fields
 * named by `id`) name, as a push reads them (formats/read.ts `labels`): the URN each stands for,
 * an owner's ownership type as dataset.py's `_mint_owner` makes it, the scalar that names it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readDataHubYaml } from '../../server/src/formats/read';

const TEXT = [
  '- id: db.users',
  '  platform: hive',
  '  tags: [pii, urn:li:tag:gold]',
  '  glossary_terms: [Classification.Sensitive]',
  '  owners:',
  '    - jdoe',
  '    - id: urn:li:corpGroup:data-platform',
  '      type: data_steward',
  '    - id: bwong',
  '      type: urn:li:ownershipType:steward',
  '    - id: nobody',
  '    - id: cwu',
  '      type: custom',
  '    - id: dlee',
  '      type: urn:li:corpuser:x',
  '  schema:',
  '    fields:',
  '      - id: email',
  '        globalTags: [gdpr]',
  '        glossaryTerms: [Classification.Sensitive]',
  '      - urn: urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD),age)',
  '        globalTags: [gdpr]',
  '',
].join('\n');

describe('a dataset file: the labels a push appends', () => {
  test('tags, terms and owners of the entry and of a field named by id, each with its URN and where it is written', () => {
    const m = readDataHubYaml(TEXT)!;
    assert.equal(m.format, 'datahub-dataset');
    const users = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
    assert.ok(m.labels.every((l) => l.entry.urn === users));
    assert.deepEqual(
      m.labels.map((l) => [l.kind, l.urn, l.field ?? null, l.ownershipType ?? null, TEXT.slice(l.start, l.end)]),
      [
        ['tag', 'urn:li:tag:pii', null, null, 'pii'],
        ['tag', 'urn:li:tag:gold', null, null, 'urn:li:tag:gold'],
        ['term', 'urn:li:glossaryTerm:Classification.Sensitive', null, null, 'Classification.Sensitive'],
        ['owner', 'urn:li:corpuser:jdoe', null, 'TECHNICAL_OWNER', 'jdoe'],
        ['owner', 'urn:li:corpGroup:data-platform', null, 'DATA_STEWARD', 'urn:li:corpGroup:data-platform'],
        ['owner', 'urn:li:corpuser:bwong', null, 'urn:li:ownershipType:steward', 'bwong'],
        ['tag', 'urn:li:tag:gdpr', 'email', null, 'gdpr'],
        ['term', 'urn:li:glossaryTerm:Classification.Sensitive', 'email', null, 'Classification.Sensitive'],
      ],
      'an owner without a type is left out (the format check reports it), and one of type CUSTOM or with a URN that is not an ownership type (addOwners takes neither); a field named by urn is not pushed',
    );
  });

  test('a data product or a glossary lists none', () => {
    const product = readDataHubYaml(
      ['id: revenue', 'domain: Marketing', 'assets: []', 'tags: [gold]', 'owners: [jdoe]', ''].join('\n'),
    );
    assert.equal(product?.format, 'datahub-data-product');
    assert.deepEqual(product.labels, []);
  });
});
