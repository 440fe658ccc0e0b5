/**
 * DataHub's own YAML formats: recognition by shape, the URN of each entry and reference as
 * DataHub makes it, and the format's rules. The examples are written in the shapes DataHub's
 * documentation shows for `datahub dataset upsert -f` and the business glossary source.
 */
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  datahubGuid,
  glossaryUrn,
  makeDatasetUrn,
  readDataHubYaml,
  type FormatModel,
} from '../../server/src/formats/read';
import { TopLevelByUrn, withDataHubFormat } from '../../server/src/formats';
import type { UrnOccurrence } from '../../server/src/scan/types';
import { seededRandom } from '../support/random';
import { formatCompletionsAt } from '../../server/src/formats/complete';
import { findUrnsInYaml } from '../../server/src/scan/yaml';

const refs = (m: FormatModel | undefined, text: string): Array<[string, string]> =>
  (m?.references ?? []).map((r) => [text.slice(r.start, r.end), r.urn]);
const problems = (m: FormatModel | undefined, text: string): Array<[string, string, string]> =>
  (m?.problems ?? []).map((p) => [text.slice(p.start, p.end), p.severity, p.message]);

const DATASET = `id: db.users
platform: hive
description: One row per user.
owners:
  - jdoe
  - id: urn:li:corpGroup:growth-analytics
    type: business_owner
tags:
  - pii
glossary_terms:
  - Profile
  - urn:li:glossaryTerm:Email
schema:
  fields:
    - id: user_id
      type: string
      description: Primary key.
      globalTags: [key]
    - id: "a,b"
downstreams:
  - urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)
`;

const GLOSSARY = `version: 1
source: DataHub
owners:
  users:
    - mjames
  groups:
    - stewards
nodes:
  - name: Classification
    description: A set of terms related to Data Classification
    terms:
      - name: Sensitive
        description: Sensitive Data
      - name: Confidential
        description: Confidential Data
        id: confidential-data
  - name: PersonalInformation
    description: All terms related to personal information
    owners:
      type: DATA_STEWARD
      users: [privacy]
    terms:
      - name: Email
        description: An individual's email address
        inherits:
          - Classification.Confidential
        related_terms:
          - Data-Classification.Sensitive
          - Classification.Sensitiv
          - Shared.Known
terms:
  - name: Revenue
    description: Money in
`;

describe('DataHub YAML: recognition', () => {
  test('a dataset file is recognised by `id` + `platform`, as a document or a list', () => {
    assert.equal(readDataHubYaml(DATASET)?.format, 'datahub-dataset');
    assert.equal(readDataHubYaml(`- id: a\n  platform: hive\n- id: b\n  platform: kafka\n`)?.format, 'datahub-dataset');
    assert.equal(
      readDataHubYaml(`urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)\ndownstreams: []\n`)?.format,
      'datahub-dataset',
    );
  });

  test('a business glossary is recognised by `nodes`/`terms` beside its root keys', () => {
    assert.equal(readDataHubYaml(GLOSSARY)?.format, 'datahub-glossary');
    assert.equal(
      readDataHubYaml(`owners: {users: [a]}\nterms:\n  - name: X\n    description: x\n`)?.format,
      'datahub-glossary',
    );
  });

  test("Catalog Lens's docs-as-code YAML, and any other YAML, is none of them (the file name plays no part)", () => {
    for (const text of [
      `urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)\ndescription: Users.\n`,
      `datasets:\n  - urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)\n    columns:\n      - name: id\n`,
      `urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)\nschema:\n  - name: id\n`,
      `id: x\nname: y\n`,
      `terms:\n  - a\n`,
      `apiVersion: v1\nkind: Pod\n`,
      ``,
      `- just\n- a list\n`,
    ])
      assert.equal(readDataHubYaml(text), undefined, text);
  });

  test('a second YAML document is an Error: DataHub reads one document per file', () => {
    const text = `id: a\nplatform: hive\n---\nid: b\nplatform: hive\n`;
    const m = readDataHubYaml(text);
    assert.deepEqual(
      problems(m, text).map(([, sev, msg]) => [sev, msg]),
      [['error', 'DataHub reads one YAML document per file: the documents after the first are not read']],
    );
    // Both documents are still read, so that what they name is checked as you type.
    assert.equal(m?.references.filter((r) => r.defines).length, 2);
  });
});

describe('DataHub YAML: the dataset file as DataHub reads it', () => {
  test('the entry stands for make_dataset_urn(platform, id, env), env PROD by default; the platform may be a URN', () => {
    assert.equal(makeDatasetUrn('hive', 'db.users'), 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)');
    const m = readDataHubYaml(`id: db.users\nplatform: urn:li:dataPlatform:hive\nenv: DEV\n`);
    assert.equal(m?.references[0]?.urn, 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,DEV)');
    assert.equal(m?.references[0]?.defines, true);
    const byUrn = readDataHubYaml(`urn: urn:li:dataset:(urn:li:dataPlatform:kafka,t,PROD)\nsubtype: Table\n`);
    assert.deepEqual(byUrn?.references[0], {
      start: 5,
      end: 54,
      urn: 'urn:li:dataset:(urn:li:dataPlatform:kafka,t,PROD)',
      builder: 'Dataset.urn',
      defines: true,
      written: true,
    });
  });

  test('owners (make_user_urn: a group only as a URN), tags, terms, field ids and their tags', () => {
    const m = readDataHubYaml(DATASET);
    const ds = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
    assert.deepEqual(refs(m, DATASET), [
      ['db.users', ds],
      ['hive', 'urn:li:dataPlatform:hive'],
      ['jdoe', 'urn:li:corpuser:jdoe'],
      ['urn:li:corpGroup:growth-analytics', 'urn:li:corpGroup:growth-analytics'],
      ['pii', 'urn:li:tag:pii'],
      ['Profile', 'urn:li:glossaryTerm:Profile'],
      ['urn:li:glossaryTerm:Email', 'urn:li:glossaryTerm:Email'],
      ['user_id', `urn:li:schemaField:(${ds},user_id)`],
      ['key', 'urn:li:tag:key'],
      // make_schema_field_urn percent-encodes the characters URNs reserve.
      ['"a,b"', `urn:li:schemaField:(${ds},a%2Cb)`],
      [
        'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)',
        'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)',
      ],
    ]);
    assert.deepEqual(problems(m, DATASET), []);
  });

  test('the keys of `structured_properties` name structured properties, of the entry and of a field', () => {
    const text = `id: t\nplatform: hive\nstructured_properties:\n  io.acryl.privacy.retentionTime: 30\n  urn:li:structuredProperty:x: [a]\nschema:\n  fields:\n    - id: c\n      structured_properties:\n        sensitivity: high\n`;
    assert.deepEqual(
      refs(readDataHubYaml(text), text).filter(([, urn]) => urn.includes('structuredProperty')),
      [
        ['io.acryl.privacy.retentionTime', 'urn:li:structuredProperty:io.acryl.privacy.retentionTime'],
        ['urn:li:structuredProperty:x', 'urn:li:structuredProperty:x'],
        ['sensitivity', 'urn:li:structuredProperty:sensitivity'],
      ],
    );
  });

  test('unknown keys (a BaseModel ignores them: Warning, with did-you-mean), ownership types, required keys', () => {
    const text = `id: t
platform: hive
descripton: typo
glossaryTerms: [X]
owners:
  - id: jdoe
    type: owner
  - id: ann
    type: urn:li:ownershipType:custom
  - id: bob
    type: Technical_Owner
  - type: DATAOWNER
    role: x
schema:
  file: schema.json
  fields:
    - type: string
---
description: no id
`;
    const got = problems(readDataHubYaml(text), text);
    assert.deepEqual(got, [
      ['descripton', 'warning', "'descripton' is not a key of Dataset: DataHub ignores it (did you mean description?)"],
      [
        'glossaryTerms',
        'warning',
        "'glossaryTerms' is not a key of Dataset: DataHub ignores it (did you mean glossary_terms?)",
      ],
      [
        'owner',
        'error',
        "'owner' is not a value of 'type': CUSTOM, TECHNICAL_OWNER, BUSINESS_OWNER, DATA_STEWARD, NONE, DEVELOPER, DATAOWNER, DELEGATE, PRODUCER, CONSUMER, STAKEHOLDER",
      ],
      ['type', 'error', "Ownership needs 'id'"],
      ['role', 'error', "'role' is not a key of Ownership: DataHub refuses the file"],
      ['schema.json', 'error', 'The schema file must be a .avsc file'],
      ['type', 'error', 'A schema field needs `id` or `urn`'],
      ['-', 'error', 'DataHub reads one YAML document per file: the documents after the first are not read'],
      ['description', 'error', 'A dataset entry needs `urn`, or `id` and `platform`'],
    ]);
  });
});

describe('DataHub YAML: the business glossary as DataHub reads it', () => {
  test('node and term URNs from their path, `id` when set (a URN id kept as it is)', () => {
    const m = readDataHubYaml(GLOSSARY);
    const defined = (m?.references ?? []).filter((r) => r.defines);
    assert.deepEqual(
      defined.map((r) => [GLOSSARY.slice(r.start, r.end), r.urn]),
      [
        ['Classification', 'urn:li:glossaryNode:Classification'],
        ['Sensitive', 'urn:li:glossaryTerm:Classification.Sensitive'],
        ['Confidential', 'urn:li:glossaryTerm:confidential-data'],
        ['PersonalInformation', 'urn:li:glossaryNode:PersonalInformation'],
        ['Email', 'urn:li:glossaryTerm:PersonalInformation.Email'],
        // `inherits` by path: the URN of the file's term (its `id`).
        ['Classification.Confidential', 'urn:li:glossaryTerm:confidential-data'],
        ['Revenue', 'urn:li:glossaryTerm:Revenue'],
      ],
    );
    assert.equal(glossaryUrn('glossaryTerm', ['A', 'B'], 'urn:li:glossaryTerm:x', false), 'urn:li:glossaryTerm:x');
    // An id written as the URN: the scanner's occurrence of it is what the file defines too.
    const text = `version: 1\nowners: {users: [a]}\nterms:\n  - name: T\n    id: urn:li:glossaryTerm:t-1\n    description: t\n`;
    const scan = withDataHubFormat(text, findUrnsInYaml(text, { namespaces: ['li'] }));
    assert.deepEqual(
      scan.occurrences.map((o) => [o.urn, o.source, o.defines]),
      [
        ['urn:li:corpuser:a', 'format', undefined],
        ['urn:li:glossaryTerm:t-1', 'format', true],
        ['urn:li:glossaryTerm:t-1', 'yaml', true],
      ],
    );
  });

  test('enable_auto_id, and a path with a reserved character, make a GUID of the path as datahub_guid does', () => {
    // The MD5 of the JSON Python's json.dumps(sort_keys=True, separators=(",", ":")) writes: non-ASCII escaped.
    const md5 = (s: string): string => createHash('md5').update(s, 'utf8').digest('hex');
    assert.equal(datahubGuid({ path: 'A.B' }), md5('{"path":"A.B"}'));
    assert.equal(datahubGuid({ path: 'Café' }), md5('{"path":"Caf\\u00e9"}'));
    assert.match(glossaryUrn('glossaryTerm', ['A', 'B'], undefined, true), /^urn:li:glossaryTerm:[0-9a-f]{32}$/);
    assert.equal(
      glossaryUrn('glossaryTerm', ['A', 'B'], undefined, true),
      `urn:li:glossaryTerm:${datahubGuid({ path: 'A.B' })}`,
    );
    assert.match(glossaryUrn('glossaryNode', ['Sizes (EU)'], undefined, false), /^urn:li:glossaryNode:[0-9a-f]{32}$/);
    const m = readDataHubYaml(GLOSSARY, { enableAutoId: true });
    assert.ok(m?.references.filter((r) => r.defines).every((r) => /:[0-9a-f]{32}$|confidential-data$/.test(r.urn)));
  });

  test('owners by user and group name, with their type; references not in the file: the URN DataHub links, near paths named', () => {
    const m = readDataHubYaml(GLOSSARY);
    const others = refs(m, GLOSSARY).filter(([, urn]) => !urn.startsWith('urn:li:glossaryNode:'));
    assert.deepEqual(
      others.filter(([, urn]) => urn.startsWith('urn:li:corp')),
      [
        ['mjames', 'urn:li:corpuser:mjames'],
        ['stewards', 'urn:li:corpGroup:stewards'],
        ['privacy', 'urn:li:corpuser:privacy'],
      ],
    );
    assert.deepEqual(others.filter(([text]) => text.includes('.')).slice(1), [
      ['Data-Classification.Sensitive', 'urn:li:glossaryTerm:Data-Classification.Sensitive'],
      ['Classification.Sensitiv', 'urn:li:glossaryTerm:Classification.Sensitiv'],
      ['Shared.Known', 'urn:li:glossaryTerm:Shared.Known'],
    ]);
    assert.deepEqual(problems(m, GLOSSARY), [
      [
        'Data-Classification.Sensitive',
        'warning',
        "'Data-Classification.Sensitive' is not a term of this file (did you mean Classification.Sensitive?)",
      ],
      [
        'Classification.Sensitiv',
        'warning',
        "'Classification.Sensitiv' is not a term of this file (did you mean Classification.Sensitive?)",
      ],
    ]);
  });

  test('the rules: version 1 only, required keys, keys a ConfigModel forbids (Error), ownership types', () => {
    const text = `version: 2
nodes:
  - name: N
    terms:
      - name: T
        description: t
        Inherits: [N.T]
    owners:
      type: owner
      users: [a]
`;
    assert.deepEqual(problems(readDataHubYaml(text), text), [
      ['version', 'error', "BusinessGlossaryConfig needs 'owners'"],
      ['2', 'error', "'2' is not a value of 'version': 1"],
      ['name', 'error', "GlossaryNodeConfig needs 'description'"],
      [
        'Inherits',
        'error',
        "'Inherits' is not a key of GlossaryTermConfig: DataHub refuses the file (did you mean inherits?)",
      ],
      [
        'owner',
        'error',
        "'owner' is not a value of 'type': CUSTOM, TECHNICAL_OWNER, BUSINESS_OWNER, DATA_STEWARD, NONE, DEVELOPER, DATAOWNER, DELEGATE, PRODUCER, CONSUMER, STAKEHOLDER",
      ],
    ]);
  });
});

describe('DataHub YAML: merged into the scan', () => {
  test('references become occurrences in source order (a written URN is not doubled); docs-as-code columns are not read', () => {
    const text = `urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)\nowners: [jdoe]\nschema:\n  fields:\n    - id: age\n`;
    const scan = findUrnsInYaml(text, { namespaces: ['li'] });
    const merged = withDataHubFormat(text, scan);
    assert.equal(merged.format, 'datahub-dataset');
    assert.deepEqual(merged.columns, []);
    const outer = merged.occurrences.filter((o) => o.parent === undefined);
    assert.deepEqual(
      outer.map((o) => [o.urn, o.source, o.defines === true]),
      [
        ['urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)', 'yaml', true],
        ['urn:li:corpuser:jdoe', 'format', false],
        ['urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD),age)', 'format', true],
      ],
    );
    for (let i = 1; i < merged.occurrences.length; i++)
      assert.ok(
        merged.occurrences[i]!.start >= merged.occurrences[i - 1]!.start || merged.occurrences[i]!.parent !== undefined,
      );
    for (const o of merged.occurrences)
      if (o.parent !== undefined) assert.equal(merged.occurrences[o.parent]!.parent, undefined);
    const plain = `urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)\ndescription: x\n`;
    const docs = findUrnsInYaml(plain, { namespaces: ['li'] });
    assert.equal(withDataHubFormat(plain, docs), docs);
  });

  test('in a file of 300 entries, each entry, description, field and label is owned by its own entry', () => {
    // Entries named by a written `urn:` (the scanner's occurrence) and by `id` + `platform` (the
    // format's), the same owner, tag and downstream URNs written in many of them.
    const entry = (i: number): string =>
      i % 2 === 0
        ? [
            `- urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.t${i},PROD)`,
            `  description: Table ${i}.`,
            '  owners:',
            `    - urn:li:corpuser:owner${i % 3}`,
            `  tags: [urn:li:tag:t${i % 4}, gold]`,
            '  downstreams:',
            `    - urn:li:dataset:(urn:li:dataPlatform:hive,db.t${i + 1},PROD)`,
            '  schema:',
            '    fields:',
            `      - id: c${i}`,
            `        description: Column of ${i}.`,
          ].join('\n')
        : [
            `- id: db.t${i}`,
            '  platform: hive',
            `  description: Table ${i}.`,
            '  owners:',
            `    - urn:li:corpuser:owner${i % 3}`,
            `    - user${i % 5}`,
            `  tags: [urn:li:tag:t${i % 4}]`,
            '  schema:',
            '    fields:',
            `      - id: c${i}`,
            `        description: Column of ${i}.`,
          ].join('\n');
    const entries = Array.from({ length: 300 }, (_, i) => entry(i));
    const text = entries.join('\n') + '\n';
    const merged = withDataHubFormat(text, findUrnsInYaml(text, { namespaces: ['li'] }));
    assert.equal(merged.format, 'datahub-dataset');
    const urnOf = (i: number): string => `urn:li:dataset:(urn:li:dataPlatform:hive,db.t${i},PROD)`;
    // The entry (0-based) whose text holds `offset`.
    const starts = entries.map((_, i) => entries.slice(0, i).reduce((n, e) => n + e.length + 1, 0));
    const entryAt = (offset: number): number => starts.filter((s) => s <= offset).length - 1;
    const defined = merged.occurrences.filter(
      (o) => o.defines && o.parent === undefined && !o.urn.includes('schemaField'),
    );
    assert.deepEqual(
      defined.map((o) => o.urn),
      entries.map((_, i) => urnOf(i)),
    );
    for (const o of defined) assert.equal(o.urn, urnOf(entryAt(o.start)));
    assert.equal(merged.descriptions.length, 300);
    for (const d of merged.descriptions) {
      const owner = merged.occurrences[d.owner]!;
      assert.equal(owner.urn, urnOf(entryAt(owner.start)));
      assert.equal(entryAt(d.insertAt - 1), entryAt(owner.start));
    }
    // The `urn:` entries' descriptions are the scanner's (docs-as-code), the others the format's: one each.
    assert.deepEqual(
      merged.descriptions
        .map((d) => d.owner)
        .sort((a, b) => a - b)
        .map((i) => merged.occurrences[i]!.urn),
      entries.map((_, i) => urnOf(i)),
    );
    assert.equal(merged.formatColumns?.length, 300);
    for (const c of merged.formatColumns ?? []) {
      const owner = merged.occurrences[c.dataset]!;
      assert.equal(owner.urn, urnOf(Number(c.name.value.slice(1))));
    }
    const labels = merged.formatLabels ?? [];
    assert.ok(labels.length >= 600, String(labels.length));
    for (const l of labels) assert.equal(merged.occurrences[l.owner]!.urn, urnOf(entryAt(l.start)));
    // A written URN is not doubled: each written owner, tag and downstream stands once at its place.
    const at = new Map<number, number>();
    for (const o of merged.occurrences) if (o.parent === undefined) at.set(o.start, (at.get(o.start) ?? 0) + 1);
    assert.deepEqual(
      [...at].filter(([, n]) => n > 1),
      [],
    );
  });

  test('TopLevelByUrn finds what occurrences.findIndex finds, in order or not, nested ones skipped', () => {
    const random = seededRandom(28);
    const pick = (n: number): number => Math.floor(random() * n);
    for (let round = 0; round < 200; round++) {
      const sorted = round % 3 !== 0;
      const occurrences: UrnOccurrence[] = [];
      let start = 0;
      for (let i = 0, n = 1 + pick(60); i < n; i++) {
        start = sorted ? start + pick(4) : pick(200);
        const o: UrnOccurrence = {
          start,
          end: start + pick(6),
          urn: `urn:li:tag:t${pick(4)}`,
          template: false,
          source: 'yaml',
        };
        if (i > 0 && pick(4) === 0) o.parent = pick(i);
        occurrences.push(o);
      }
      const found = new TopLevelByUrn(occurrences);
      for (let q = 0; q < 60; q++) {
        const urn = `urn:li:tag:t${pick(5)}`;
        const from = pick(sorted ? start + 4 : 204);
        const to = from + pick(10);
        const expected = occurrences.findIndex(
          (o) => o.parent === undefined && o.start >= from && o.end <= to && o.urn === urn,
        );
        assert.equal(found.indexWithin(urn, from, to), expected, `round ${round}: ${urn} [${from}, ${to})`);
      }
    }
  });
});

describe('DataHub YAML: completion of keys and values', () => {
  const at = (marked: string): { labels: string[]; from: number; to: number } | undefined => {
    const offset = marked.indexOf('|');
    const text = marked.slice(0, offset) + marked.slice(offset + 1);
    const items = formatCompletionsAt(text, offset);
    return items && { labels: items.map((i) => i.label), from: items[0]?.from ?? -1, to: items[0]?.to ?? -1 };
  };

  test('the keys of the dataset entry, of its schema field, of an owner; the ones already there left out', () => {
    const root = at(`- id: db.users\n  platform: hive\n  gl|\n  tags: [a]\n`)!;
    assert.ok(root.labels.includes('glossary_terms') && root.labels.includes('owners'));
    assert.ok(!root.labels.includes('platform') && !root.labels.includes('id') && !root.labels.includes('tags'));
    assert.deepEqual([root.from, root.to], [34, 36]);
    const field = at(`id: t\nplatform: hive\nschema:\n  fields:\n  - id: a\n    |\n`)!;
    assert.ok(field.labels.includes('nativeDataType') && !field.labels.includes('id'), field.labels.join(' '));
    const newItem = at(`id: t\nplatform: hive\nschema:\n  fields:\n    - id: a\n    - |\n`)!;
    assert.ok(newItem.labels.includes('id') && newItem.labels.includes('description'));
    const owner = at(`id: t\nplatform: hive\nowners:\n  - id: jdoe\n    |\n`)!;
    assert.deepEqual(owner.labels, ['type']);
  });

  test('the keys of a glossary node and term at any depth, and of owners', () => {
    const text = `version: 1\nowners:\n  users: [a]\nnodes:\n  - name: A\n    description: a\n    nodes:\n      - name: B\n        description: b\n        terms:\n          - name: T\n            |\n`;
    const term = at(text)!;
    assert.ok(
      term.labels.includes('inherits') && term.labels.includes('related_terms') && !term.labels.includes('name'),
    );
    assert.ok(!term.labels.includes('nodes'), 'a term has no nodes');
    const node = at(
      text
        .replace('        terms:', '        |\n        terms:')
        .replace('            |\n', '            description: t\n'),
    )!;
    assert.ok(
      node.labels.includes('nodes') && node.labels.includes('knowledge_links') && !node.labels.includes('terms'),
    );
    const owners = at(`version: 1\nowners:\n  users: [a]\n  |\nterms: []\n`)!;
    assert.deepEqual(owners.labels.sort(), ['groups', 'type', 'typeUrn']);
    const root = at(`version: 1\n|\nterms: []\n`)!;
    assert.ok(
      root.labels.includes('owners') && root.labels.includes('source_type') && !root.labels.includes('version'),
    );
  });

  test('the allowed values of a key that has them; nothing in a YAML file of no DataHub format', () => {
    const types = at(`id: t\nplatform: hive\nowners:\n  - id: jdoe\n    type: DATA|\n`)!;
    assert.ok(types.labels.includes('DATA_STEWARD') && types.labels.includes('TECHNICAL_OWNER'));
    assert.ok(at(`id: t\nplatform: hive\nenv: |\n`)?.labels.includes('PROD'));
    assert.deepEqual(at(`id: t\nplatform: hive\ndescription: |\n`)?.labels, []);
    assert.deepEqual(at(`version: 1\nowners: {users: [a]}\nterms:\n  - name: T\n    term_source: |\n`)?.labels, [
      'INTERNAL',
      'EXTERNAL',
    ]);
    assert.equal(at(`urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)\n|\n`), undefined);
  });
});
