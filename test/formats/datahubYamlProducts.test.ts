/**
 * DataHub's structured property definition files (`datahub properties upsert -f`) and data product
 * files (`datahub dataproduct upsert -f`): recognition by shape, the URN of each entry and
 * reference as DataHub makes it, the formats' rules, and key completion. The examples are our own,
 * written in the shapes DataHub's documentation shows for those commands.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT } from '../support/shared';
import { readDataHubYaml, type FormatModel } from '../../server/src/formats/read';
import { withDataHubFormat } from '../../server/src/formats';
import { formatCompletionsAt, formatKeyAt } from '../../server/src/formats/complete';
import { findUrnsInYaml } from '../../server/src/scan/yaml';
import { checkPropertyValues, type PropertyDefinitionShape } from '../../server/src/formats/propertyValues';

const refs = (m: FormatModel | undefined, text: string): Array<[string, string]> =>
  (m?.references ?? []).map((r) => [text.slice(r.start, r.end), r.urn]);
const problems = (m: FormatModel | undefined, text: string): Array<[string, string, string]> =>
  (m?.problems ?? []).map((p) => [text.slice(p.start, p.end), p.severity, p.message]);

const PROPERTIES = `- id: com.example.retention_days
  qualified_name: com.example.retention_days
  type: number
  cardinality: SINGLE
  display_name: Retention (days)
  entity_types:
    - dataset
    - schemaField
  allowed_values:
    - value: 30
      description: a month
    - value: 365
- urn: urn:li:structuredProperty:com.example.steward_team
  type: STRING
  entity_types: [dataset]
`;

const PRODUCT = `id: pet_of_the_week
domain: urn:li:domain:marketing
display_name: Pet of the Week Campaign
description: Everything the weekly campaign reads.
assets:
  - urn:li:dataset:(urn:li:dataPlatform:snowflake,marketing.pets,PROD)
  - urn:li:dashboard:(looker,dashboards.pets)
output_ports:
  - urn:li:dataset:(urn:li:dataPlatform:snowflake,marketing.pets,PROD)
owners:
  - jdoe
  - id: urn:li:corpGroup:marketing
    type: BUSINESS_OWNER
tags:
  - campaign
terms:
  - Marketing.Campaign
institutional_memory:
  elements:
    - url: https://wiki.example.com/pets
      description: The campaign's page
properties:
  lifecycle: production
`;

describe('DataHub YAML: recognition of structured property and data product files', () => {
  test('a list of property definitions; a mapping with `id` and `domain`', () => {
    assert.equal(readDataHubYaml(PROPERTIES)?.format, 'datahub-structured-properties');
    assert.equal(
      readDataHubYaml(`- urn: urn:li:structuredProperty:a\n  type: string\n`)?.format,
      'datahub-structured-properties',
    );
    assert.equal(readDataHubYaml(PRODUCT)?.format, 'datahub-data-product');
    assert.equal(readDataHubYaml(`id: p\ndomain: Marketing\n`)?.format, 'datahub-data-product');
  });

  test('other YAML is none of them: a dataset entry keeps its format, docs-as-code and plain YAML none', () => {
    assert.equal(readDataHubYaml(`- id: a\n  platform: hive\n  domain: x\n`)?.format, 'datahub-dataset');
    for (const text of [
      `urn: urn:li:dataProduct:p\ndomain: urn:li:domain:x\n`,
      `- id: a\n  type: string\n`,
      `cardinality: SINGLE\n`,
      `domain: x\n`,
    ])
      assert.equal(readDataHubYaml(text), undefined, text);
  });
});

describe('DataHub YAML: structured property definitions as DataHub reads them', () => {
  test('each definition stands for `urn`, or urn:li:structuredProperty:<id>', () => {
    const m = readDataHubYaml(PROPERTIES)!;
    assert.deepEqual(
      m.references.filter((r) => r.defines).map((r) => [PROPERTIES.slice(r.start, r.end), r.urn]),
      [
        ['com.example.retention_days', 'urn:li:structuredProperty:com.example.retention_days'],
        ['urn:li:structuredProperty:com.example.steward_team', 'urn:li:structuredProperty:com.example.steward_team'],
      ],
    );
  });

  test('type lower-cased with a Warning, cardinality SINGLE/MULTIPLE, allowed values of a number type', () => {
    const m = readDataHubYaml(PROPERTIES)!;
    assert.deepEqual(problems(m, PROPERTIES), [
      ['STRING', 'warning', "'type' should be lower-case: DataHub reads it as 'string'"],
    ]);
    const bad = `- id: a.b
  qualified_name: a.c
  type: text
  cardinality: MANY
  entity_types: [datasets, Chart, widget]
  allowed_values:
    - value: thirty
    - label: x
  type_qualifier:
    allowed_types: [corpuser]
  colour: red
- id: c
  type: number
  allowed_values:
    - value: ten
- description: no id
  type: string
`;
    const got = problems(readDataHubYaml(bad), bad);
    assert.deepEqual(got, [
      ['a.c', 'error', "qualified_name must be the id of the URN ('a.b'): DataHub refuses it"],
      ['text', 'error', "'text' is not a value of 'type': string, rich_text, number, date, urn"],
      ['MANY', 'error', "'MANY' is not a value of 'cardinality': SINGLE, MULTIPLE"],
      ['datasets', 'warning', "'datasets' is not an entity type of DataHub's registry (did you mean dataset?)"],
      ['Chart', 'warning', "'Chart' is not an entity type of DataHub's registry (did you mean chart?)"],
      ['widget', 'warning', "'widget' is not an entity type of DataHub's registry"],
      ['label', 'error', "'label' is not a key of AllowedValue: DataHub refuses the file"],
      ['label', 'error', "AllowedValue needs 'value'"],
      ['colour', 'error', "'colour' is not a key of StructuredProperties: DataHub refuses the file"],
      ['ten', 'error', "'ten' is not a number, and the property's type is number"],
      ['description', 'error', 'A structured property needs `id` or `urn` (id must be present if urn is not)'],
    ]);
  });

  test('a definition as DataHub documents it has no problems', () => {
    const text = `- id: a\n  type: string\n  cardinality: SINGLE\n`;
    assert.deepEqual(problems(readDataHubYaml(text), text), []);
  });
});

describe('DataHub YAML: the data product file as DataHub reads it', () => {
  test('the product, its domain by URN, assets, owners, tags and terms', () => {
    const m = readDataHubYaml(PRODUCT)!;
    assert.deepEqual(refs(m, PRODUCT), [
      ['pet_of_the_week', 'urn:li:dataProduct:pet_of_the_week'],
      ['urn:li:domain:marketing', 'urn:li:domain:marketing'],
      [
        'urn:li:dataset:(urn:li:dataPlatform:snowflake,marketing.pets,PROD)',
        'urn:li:dataset:(urn:li:dataPlatform:snowflake,marketing.pets,PROD)',
      ],
      ['urn:li:dashboard:(looker,dashboards.pets)', 'urn:li:dashboard:(looker,dashboards.pets)'],
      ['jdoe', 'urn:li:corpuser:jdoe'],
      ['urn:li:corpGroup:marketing', 'urn:li:corpGroup:marketing'],
      ['campaign', 'urn:li:tag:campaign'],
      ['Marketing.Campaign', 'urn:li:glossaryTerm:Marketing.Campaign'],
    ]);
    assert.deepEqual(problems(m, PRODUCT), []);
    assert.equal(readDataHubYaml(`id: urn:li:dataProduct:p\ndomain: D\n`)?.references[0]?.urn, 'urn:li:dataProduct:p');
  });

  test('its rules: assets are URNs, output ports among the assets, owners, links; unknown keys ignored (Warning)', () => {
    const text = `id: p
domain: Marketing
assets:
  - marketing.pets
  - urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)
output_ports:
  - urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)
owners:
  - id: jdoe
    type: owner
institutional_memory:
  elements:
    - url: https://x
descripton: typo
`;
    assert.deepEqual(problems(readDataHubYaml(text), text), [
      ['marketing.pets', 'error', "asset 'marketing.pets' is not an urn: DataHub refuses the file"],
      [
        'urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)',
        'error',
        'Output port urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD) is not in asset list: DataHub refuses the file',
      ],
      [
        'owner',
        'error',
        "'owner' is not a value of 'type': CUSTOM, TECHNICAL_OWNER, BUSINESS_OWNER, DATA_STEWARD, NONE, DEVELOPER, DATAOWNER, DELEGATE, PRODUCER, CONSUMER, STAKEHOLDER",
      ],
      ['url', 'error', "InstitutionMemoryElement needs 'description'"],
      [
        'descripton',
        'warning',
        "'descripton' is not a key of DataProduct: DataHub ignores it (did you mean description?)",
      ],
    ]);
    const missing = `id: p\ndomain:\n`;
    assert.deepEqual(problems(readDataHubYaml(missing), missing), []);
  });

  test('merged into the scan: the written asset URNs are not doubled, the product and owner are added', () => {
    const scan = withDataHubFormat(PRODUCT, findUrnsInYaml(PRODUCT, { namespaces: ['li'] }));
    assert.equal(scan.format, 'datahub-data-product');
    const urns = scan.occurrences.filter((o) => o.parent === undefined).map((o) => o.urn);
    assert.equal(urns.filter((u) => u === 'urn:li:dashboard:(looker,dashboards.pets)').length, 1);
    assert.ok(urns.includes('urn:li:dataProduct:pet_of_the_week') && urns.includes('urn:li:corpuser:jdoe'));
  });
});

describe('DataHub YAML: completion and key hover in the two formats', () => {
  const at = (marked: string): string[] | undefined => {
    const offset = marked.indexOf('|');
    const text = marked.slice(0, offset) + marked.slice(offset + 1);
    return formatCompletionsAt(text, offset)?.map((i) => i.label);
  };

  test('the keys of a definition, an allowed value; the values of type and cardinality', () => {
    // The unfinished line plays no part in recognition: a key only a definition has must be there.
    assert.equal(at(`- id: a\n  type: string\n  |\n`), undefined);
    const keys = at(`- id: a\n  type: string\n  |\n  entity_types: [dataset]\n`)!;
    assert.ok(keys.includes('cardinality') && keys.includes('allowed_values') && !keys.includes('type'), keys.join());
    assert.deepEqual(at(`- id: a\n  type: string\n  allowed_values:\n    - value: x\n      |\n`), ['description']);
    assert.ok(!keys.includes('entity_types'));
    assert.deepEqual(at(`- id: a\n  type: |\n  cardinality: SINGLE\n`), [
      'string',
      'rich_text',
      'number',
      'date',
      'urn',
    ]);
    assert.deepEqual(at(`- id: a\n  type: string\n  cardinality: |\n  display_name: A\n  entity_types: [dataset]\n`), [
      'SINGLE',
      'MULTIPLE',
    ]);
  });

  test('the keys of a data product, its owner and its links; hover on a key', () => {
    const keys = at(`id: p\ndomain: D\n|\n`)!;
    assert.ok(keys.includes('assets') && keys.includes('output_ports') && !keys.includes('domain'), keys.join());
    assert.deepEqual(at(`id: p\ndomain: D\nowners:\n  - id: jdoe\n    |\n`), ['type']);
    assert.deepEqual(at(`id: p\ndomain: D\ninstitutional_memory:\n  elements:\n    - url: x\n      |\n`), [
      'description',
    ]);
    const text = `id: p\ndomain: D\noutput_ports: []\n`;
    const hover = formatKeyAt(text, text.indexOf('output_ports') + 2);
    assert.match(hover?.markdown ?? '', /\*\*output_ports\*\* · DataProduct\n\nAssets that are output ports/);
  });

  test("hover on a key with the format the scan found is the hover that reads the file for it, on every line's key", () => {
    const files = ['dataproduct.yaml', 'business_glossary.yml', 'structured_properties.yaml'].map((f) =>
      readFileSync(resolve(REPO_ROOT, 'test/e2e/fixtures/datahub-yaml', f), 'utf8'),
    );
    files.push(
      `- id: db.users\n  platform: hive\n  owners:\n    - id: jdoe\n      type: DATA_STEWARD\n  schema:\n    fields:\n      - id: a\n        description: x\n`,
    );
    let hovers = 0;
    for (const text of files) {
      const format = readDataHubYaml(text)?.format;
      assert.ok(format);
      for (let lineStart = 0; lineStart < text.length; lineStart = text.indexOf('\n', lineStart) + 1 || text.length) {
        const key = /^[ \t]*(?:-[ \t]+)?/.exec(text.slice(lineStart))![0].length + lineStart + 1;
        const known = formatKeyAt(text, key, format);
        assert.deepEqual(known, formatKeyAt(text, key), JSON.stringify(text.slice(lineStart, lineStart + 40)));
        if (known) hovers++;
      }
    }
    assert.ok(hovers > 30, String(hovers));
  });
});

describe("DataHub YAML: a dataset file's structured property values against a definition", () => {
  const text = `id: t
platform: hive
structured_properties:
  com.example.tier: gold
  com.example.days: [7, "x"]
  com.example.free: anything
`;
  const given = readDataHubYaml(text)!.propertyValues;

  test('each key with its values and where they are', () => {
    assert.deepEqual(
      given.map((g) => [g.urn, text.slice(g.keyStart, g.keyEnd), g.list, g.values.map((v) => v.text)]),
      [
        ['urn:li:structuredProperty:com.example.tier', 'com.example.tier', false, ['gold']],
        ['urn:li:structuredProperty:com.example.days', 'com.example.days', true, ['7', 'x']],
        ['urn:li:structuredProperty:com.example.free', 'com.example.free', false, ['anything']],
      ],
    );
  });

  test('allowed values, a number type, cardinality SINGLE; a definition with no allowed values takes any value of its type', () => {
    const msgs = (i: number, def: PropertyDefinitionShape): Array<[string, string]> =>
      checkPropertyValues(given[i]!, def).map((p) => [text.slice(p.start, p.end), p.message]);
    const tier = {
      qualifiedName: 'com.example.tier',
      valueType: { urn: 'urn:li:dataType:datahub.string' },
      allowedValues: [{ value: { stringValue: 'bronze' } }, { value: { stringValue: 'silver' } }],
    };
    assert.deepEqual(msgs(0, tier), [
      ['gold', "'gold' is not an allowed value of structured property com.example.tier: bronze, silver"],
    ]);
    const days = {
      qualifiedName: 'com.example.days',
      cardinality: 'SINGLE',
      valueType: { urn: 'urn:li:dataType:datahub.number' },
      allowedValues: [{ value: { numberValue: 7 } }],
    };
    assert.deepEqual(msgs(1, days), [
      ['com.example.days', 'Structured property com.example.days takes one value (cardinality SINGLE), not 2'],
      ['"x"', "'x' is not a number: structured property com.example.days takes numbers"],
    ]);
    assert.deepEqual(msgs(2, { valueType: { urn: 'urn:li:dataType:datahub.string' } }), []);
  });
});

describe("DataHub YAML: a dataset file's descriptions, for pull and push", () => {
  test("each entry's and field's description, or where a `description:` line goes; flow mappings left out", () => {
    const text = `- id: db.users # ours
  platform: hive
  description: Users.
  schema:
    fields:
      - id: user_id
        description: |
          The key.
      - id: email
        type: string
      - {id: flow, description: x}
- urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)
  platform: hive`;
    const m = readDataHubYaml(text)!;
    const last = readDataHubYaml('id: db.t\nplatform: hive\ntags: [a]\nschema:\n  fields:\n    - id: a')!.descriptions;
    assert.deepEqual(
      last.map((d) => [d.field?.value, d.needsLineBreak === true]),
      [
        [undefined, false],
        ['a', true],
      ],
    );
    assert.deepEqual(
      m.descriptions.map((d) => [
        d.entry.urn.replace(/^urn:li:dataset:\(urn:li:dataPlatform:hive,(.*),PROD\)$/, '$1'),
        d.field?.value,
        d.description ? text.slice(d.description.start, d.description.end) : undefined,
        JSON.stringify(text.slice(d.insertAt, d.insertAt + 12)),
        d.indent.length,
        d.needsLineBreak === true,
      ]),
      [
        ['db.users', undefined, 'Users.', JSON.stringify('  platform: '), 2, false],
        ['db.users', 'user_id', '|\n          The key.\n', JSON.stringify('        desc'), 8, false],
        ['db.users', 'email', undefined, JSON.stringify('        type'), 8, false],
        ['db.orders', undefined, undefined, JSON.stringify('  platform: '), 2, false],
      ],
    );
    const scan = withDataHubFormat(text, findUrnsInYaml(text, { namespaces: ['li'] }));
    assert.deepEqual(
      // One per entry (an entry named by `urn:` keeps the one docs-as-code reading gave it).
      scan.descriptions.map((d) => scan.occurrences[d.owner]!.urn).sort(),
      [
        'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)',
        'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)',
      ],
    );
    assert.deepEqual(
      scan.formatColumns?.map((c) => [scan.occurrences[c.dataset]!.urn, c.name.value, c.description?.value]),
      [
        ['urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)', 'user_id', 'The key.\n'],
        ['urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)', 'email', undefined],
      ],
    );
  });
});
