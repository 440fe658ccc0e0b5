/**
 * DataHub's own YAML formats, the rest of their model: a domain by name (DataHub's
 * DomainRegistry), the glossary source's `enable_auto_id` from the settings, the definitions a
 * structured properties file of the workspace gives, and completion of the references. The
 * examples are written in the shapes DataHub's documentation shows.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS } from '../../model/src/protocol';
import { datahubGuid, readDataHubYaml } from '../../server/src/formats/read';
import { scanText } from '../../server/src/pipeline/check';
import { mergeSettings } from '../../server/src/settings';
import { diagnosticsFor } from '../../server/src/features/diagnostics';
import { FormatReadings, formatCompletionsAt, formatReferenceAt } from '../../server/src/formats/complete';
import { propertyDefinitionsIn, WorkspaceIndex } from '../../server/src/index/workspaceIndex';

describe('a domain given by name (DomainRegistry)', () => {
  const domainRef = (text: string) => {
    const m = readDataHubYaml(text)!;
    const r = m.references.find((x) => x.urn.startsWith('urn:li:domain:'));
    return r && { text: text.slice(r.start, r.end), urn: r.urn, builder: r.builder, byName: r.byName };
  };

  test('a name is first the id urn:li:domain:<name>, then looked up by name; a URN and a GUID are not', () => {
    assert.deepEqual(domainRef('id: p\ndomain: Marketing\n'), {
      text: 'Marketing',
      urn: 'urn:li:domain:Marketing',
      builder: 'DomainRegistry',
      byName: 'Marketing',
    });
    assert.deepEqual(domainRef('id: p\ndomain: urn:li:domain:growth\n'), {
      text: 'urn:li:domain:growth',
      urn: 'urn:li:domain:growth',
      builder: 'DomainRegistry',
      byName: undefined,
    });
    // Four `-`: DomainRegistry takes it as an id without asking the server.
    assert.deepEqual(domainRef('id: p\ndomain: 7f3c9a52-1b7e-4c1d-9d7a-2f8e5b6c4a10\n'), {
      text: '7f3c9a52-1b7e-4c1d-9d7a-2f8e5b6c4a10',
      urn: 'urn:li:domain:7f3c9a52-1b7e-4c1d-9d7a-2f8e5b6c4a10',
      builder: 'make_domain_urn',
      byName: undefined,
    });
    // Another kind's URN names no domain: nothing is made of it.
    assert.equal(domainRef('id: p\ndomain: urn:li:tag:x\n'), undefined);
  });

  test("a glossary term's domain is read the same way", () => {
    const text = 'version: 1\nowners: {users: [a]}\nterms:\n  - name: T\n    description: t\n    domain: Marketing\n';
    assert.equal(domainRef(text)?.byName, 'Marketing');
  });

  test('the scan carries the name on the occurrence, for the resolution', () => {
    const scan = scanText('id: p\ndomain: Marketing\n', 'yaml', DEFAULT_SETTINGS);
    const occ = scan.occurrences.find((o) => o.urn === 'urn:li:domain:Marketing');
    assert.equal(occ?.byName, 'Marketing');
  });
});

describe('catalogLens.datahubYaml.glossaryEnableAutoId', () => {
  const GLOSSARY = [
    'version: 1',
    'owners:',
    '  users: [jdoe]',
    'nodes:',
    '  - name: Classification',
    '    description: Classes',
    '    terms:',
    '      - name: Sensitive',
    '        description: Sensitive Data',
    '      - name: Public',
    '        id: public-data',
    '        description: Public Data',
    '        related_terms: [Classification.Sensitive, Elsewhere.Term]',
    '',
  ].join('\n');

  test('read from the settings, off unless set to true', () => {
    assert.equal(mergeSettings({}).datahubYaml.glossaryEnableAutoId, false);
    assert.equal(mergeSettings({ datahubYaml: { glossaryEnableAutoId: true } }).datahubYaml.glossaryEnableAutoId, true);
    assert.equal(
      mergeSettings({ datahubYaml: { glossaryEnableAutoId: 'yes' } }).datahubYaml.glossaryEnableAutoId,
      false,
    );
  });

  test('on: nodes and terms without an id, and references outside the file, stand for GUIDs of their paths', () => {
    const urns = (on: boolean): string[] =>
      scanText(GLOSSARY, 'yaml', { ...DEFAULT_SETTINGS, datahubYaml: { glossaryEnableAutoId: on } })
        .occurrences.filter((o) => o.source === 'format' && o.urn.startsWith('urn:li:glossary'))
        .map((o) => o.urn);
    const guid = (path: string): string => datahubGuid({ path });
    assert.deepEqual(urns(false), [
      'urn:li:glossaryNode:Classification',
      'urn:li:glossaryTerm:Classification.Sensitive',
      'urn:li:glossaryTerm:public-data',
      'urn:li:glossaryTerm:Classification.Sensitive',
      'urn:li:glossaryTerm:Elsewhere.Term',
    ]);
    assert.deepEqual(urns(true), [
      `urn:li:glossaryNode:${guid('Classification')}`,
      `urn:li:glossaryTerm:${guid('Classification.Sensitive')}`,
      // An `id` is kept as it is.
      'urn:li:glossaryTerm:public-data',
      `urn:li:glossaryTerm:${guid('Classification.Sensitive')}`,
      // A reference to a term the file does not define: make_glossary_term_urn([term], None, True).
      `urn:li:glossaryTerm:${guid('Elsewhere.Term')}`,
    ]);
  });
});

describe('structured property definitions of the workspace', () => {
  const PROPERTIES = [
    '- id: io.example.tier',
    '  type: NUMBER',
    '  allowed_values:',
    '    - value: 1',
    '    - value: 2',
    '- urn: urn:li:structuredProperty:io.example.team',
    '  type: string',
    '  cardinality: MULTIPLE',
    '- id: io.example.free',
    '  type: string',
    '  cardinality: MULTIPLE',
    '',
  ].join('\n');

  test('a structured properties file gives each definition as `datahub properties upsert` writes it', () => {
    assert.deepEqual(readDataHubYaml(PROPERTIES)?.definitions, [
      {
        urn: 'urn:li:structuredProperty:io.example.tier',
        definition: {
          qualifiedName: 'io.example.tier',
          // No cardinality: StructuredPropertyDefinition's default.
          cardinality: 'SINGLE',
          valueType: { urn: 'urn:li:dataType:datahub.number' },
          allowedValues: [{ value: { numberValue: 1 } }, { value: { numberValue: 2 } }],
        },
      },
      {
        urn: 'urn:li:structuredProperty:io.example.team',
        definition: {
          qualifiedName: 'io.example.team',
          cardinality: 'MULTIPLE',
          valueType: { urn: 'urn:li:dataType:datahub.string' },
        },
      },
      {
        urn: 'urn:li:structuredProperty:io.example.free',
        definition: {
          qualifiedName: 'io.example.free',
          cardinality: 'MULTIPLE',
          valueType: { urn: 'urn:li:dataType:datahub.string' },
        },
      },
    ]);
    assert.equal(scanText(PROPERTIES, 'yaml', DEFAULT_SETTINGS).formatPropertyDefinitions?.length, 3);
    assert.equal(propertyDefinitionsIn(PROPERTIES).length, 3);
    // Another format, or plain YAML, defines nothing (and plain YAML is not parsed).
    assert.deepEqual(propertyDefinitionsIn('id: db.t\nplatform: hive\nstructured_properties:\n  a: 1\n'), []);
    assert.deepEqual(propertyDefinitionsIn('name: x\n'), []);
  });

  test('the workspace index keeps them per file, the first file by URI winning, and drops them with the file', () => {
    const index = new WorkspaceIndex({
      settingsFor: () => Promise.resolve(DEFAULT_SETTINGS),
      openDocument: () => undefined,
      scan: scanText,
      log: () => undefined,
    });
    index.setText('file:///w/b/properties.yaml', PROPERTIES, 'yaml', DEFAULT_SETTINGS);
    const tier = 'urn:li:structuredProperty:io.example.tier';
    assert.equal(index.propertyDefinition(tier)?.uri, 'file:///w/b/properties.yaml');
    index.setText('file:///w/a/properties.yaml', PROPERTIES.replace('value: 2', 'value: 3'), 'yaml', DEFAULT_SETTINGS);
    assert.equal(index.propertyDefinition(tier)?.uri, 'file:///w/a/properties.yaml');
    assert.deepEqual(index.propertyDefinition(tier)?.definition.allowedValues, [
      { value: { numberValue: 1 } },
      { value: { numberValue: 3 } },
    ]);
    index.remove('file:///w/a/properties.yaml');
    assert.equal(index.propertyDefinition(tier)?.uri, 'file:///w/b/properties.yaml');
    assert.equal(index.propertyDefinition('urn:li:structuredProperty:io.example.none'), undefined);
  });

  test("values are checked against the workspace's definition before the catalog's", () => {
    const text = 'id: db.t\nplatform: hive\nstructured_properties:\n  io.example.tier: [1, 5]\n  io.other: x\n';
    const scan = scanText(text, 'yaml', DEFAULT_SETTINGS);
    // The catalog would say the property is missing: the workspace's definition is used all the same.
    const resolve = () => ({ state: 'missing' as const });
    const local = readDataHubYaml(PROPERTIES)!.definitions;
    const ds = diagnosticsFor(scan, resolve, DEFAULT_SETTINGS.diagnostics, undefined, (urn) => {
      const d = local.find((x) => x.urn === urn);
      return d && { uri: 'file:///w/my%20props.yaml', definition: d.definition };
    }).filter((d) => d.code === 'structured-property-value');
    assert.deepEqual(
      ds.map((d) => d.message),
      [
        'Structured property io.example.tier takes one value (cardinality SINGLE), not 2 (as my props.yaml defines it)',
        "'5' is not an allowed value of structured property io.example.tier: 1, 2 (as my props.yaml defines it)",
      ],
    );
  });
});

describe('completion of references: what is being written, and where', () => {
  /** The slot at `|`, with the text it replaces. */
  const at = (lines: string[]) => {
    const t = [...lines, ''].join('\n');
    const i = t.indexOf('|');
    const text = t.slice(0, i) + t.slice(i + 1);
    const r = formatReferenceAt(text, i);
    if (!r) return undefined;
    const { from, to, ...rest } = r;
    return { ...rest, replaces: text.slice(from, to) };
  };
  const ENTRY = ['- id: db.users', '  platform: hive'];

  test('dataset file: platform, dataset name on the platform, field ids, tags of a field, property ids and values', () => {
    assert.deepEqual(at(['- id: db.users', '  platform: hi|']), {
      ref: 'named',
      kinds: ['dataPlatform'],
      typed: 'hi',
      replaces: 'hi',
    });
    assert.deepEqual(at(['- platform: urn:li:dataPlatform:hive', '  id: db.us|ers']), {
      ref: 'dataset',
      insert: 'name',
      platform: 'hive',
      typed: 'db.us',
      replaces: 'db.users',
    });
    assert.deepEqual(at([...ENTRY, '  schema:', '    fields:', '      - id: em|']), {
      ref: 'field',
      dataset: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)',
      typed: 'em',
      replaces: 'em',
    });
    assert.deepEqual(at([...ENTRY, '  schema:', '    fields:', '      - id: a', '        globalTags: [x, pi|]']), {
      ref: 'named',
      kinds: ['tag'],
      typed: 'pi',
      replaces: 'pi',
    });
    assert.deepEqual(at([...ENTRY, '  structured_properties:', '    io.acr|']), {
      ref: 'propertyId',
      typed: 'io.acr',
      replaces: 'io.acr',
    });
    const property = 'urn:li:structuredProperty:io.acryl.privacy.retentionTime';
    assert.deepEqual(at([...ENTRY, '  structured_properties:', '    io.acryl.privacy.retentionTime: |']), {
      ref: 'propertyValue',
      property,
      typed: '',
      replaces: '',
    });
    assert.deepEqual(
      at([...ENTRY, '  structured_properties:', '    io.acryl.privacy.retentionTime:', '      - "3|"']),
      {
        ref: 'propertyValue',
        property,
        typed: '3',
        replaces: '3',
      },
    );
  });

  test('data product assets and downstreams: whole dataset URNs; glossary users, groups and term paths', () => {
    assert.deepEqual(at(['id: p', 'domain: Marketing', 'assets:', '  - db.us|']), {
      ref: 'dataset',
      insert: 'urn',
      typed: 'db.us',
      replaces: 'db.us',
    });
    const glossary = (owners: string[], more: string[] = []): string[] => [
      'version: 1',
      'owners:',
      ...owners,
      'nodes:',
      '  - name: N',
      '    description: n',
      '    terms:',
      '      - name: A',
      '        description: a',
      ...more,
    ];
    assert.deepEqual(at(glossary(['  users:', '    - jd|'])), {
      ref: 'named',
      kinds: ['corpuser'],
      typed: 'jd',
      replaces: 'jd',
    });
    assert.deepEqual(at(glossary(['  users: [a]', '  groups: [gr|]'])), {
      ref: 'named',
      kinds: ['corpGroup'],
      typed: 'gr',
      replaces: 'gr',
    });
    assert.deepEqual(
      at(
        glossary(
          ['  users: [a]'],
          ['      - name: B', '        description: b', '        inherits:', '          - N.|'],
        ),
      ),
      {
        ref: 'termPath',
        paths: ['N.A', 'N.B'],
        typed: 'N.',
        replaces: 'N.',
      },
    );
  });

  test('what the generic YAML completion reads is left to it; a URN being written too', () => {
    assert.equal(at([...ENTRY, '  tags:', '    - pi|']), undefined);
    assert.equal(at([...ENTRY, '  owners:', '    - jd|']), undefined);
    assert.equal(at(['id: p', 'domain: Mark|']), undefined);
    assert.equal(at(['id: p', 'domain: Marketing', 'assets:', '  - urn:li:dataset:(|']), undefined);
    assert.equal(at(['name: plain', 'platform: hi|']), undefined);
  });

  test("one request reads the text once more at most: the whole text's reading is its scan's outline", () => {
    const texts = [
      ['- id: db.users', '  platform: hive', '  schema:', '    fields:', '      - id: a', '        globalTags: [k]'],
      [
        '- id: db.a',
        '  platform: hive',
        '- urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.b,PROD)',
        '  downstreams:',
        '    - x',
      ],
      ['id: p', 'domain: Marketing', 'assets:', '  - db.us', 'output_ports: [', ''],
      [
        'version: 1',
        'owners:',
        '  users: [a]',
        'nodes:',
        '  - name: N',
        '    terms:',
        '      - name: A',
        '        inherits: [N.',
        '',
      ],
      ['name: plain', 'platform: hi'],
    ].map((lines) => lines.join('\n'));
    let slots = 0;
    for (const text of texts)
      for (const autoId of [false, true]) {
        const settings = mergeSettings({ datahubYaml: { glossaryEnableAutoId: autoId } });
        const scan = scanText(text, 'yaml', settings);
        for (let i = 0; i <= text.length; i++) {
          const alone = formatReferenceAt(text, i);
          const kept = formatReferenceAt(text, i, new FormatReadings(text, i, scan.formatOutline ?? null));
          assert.deepEqual(kept, alone, `${JSON.stringify(text)} at ${i}`);
          assert.deepEqual(
            formatCompletionsAt(text, i, new FormatReadings(text, i, scan.formatOutline ?? null)),
            formatCompletionsAt(text, i),
          );
          if (alone) slots++;
        }
      }
    assert.ok(slots > 40, `${slots} slots compared`);
    // What is read is the outline given, not the text again.
    const text = texts[3]!;
    const i = text.length - 1;
    const given = { format: 'datahub-glossary' as const, termPaths: ['Given.Path'], datasetEntries: [] };
    assert.deepEqual(formatReferenceAt(text, i, new FormatReadings(text, i, given)), {
      ref: 'termPath',
      paths: ['Given.Path'],
      typed: 'N.',
      from: i - 2,
      to: i,
    });
  });
});
