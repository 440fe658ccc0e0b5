/**
 * DataHub's structured property definition and data product YAML files through the real server
 * process against the real local catalog with the sample data: diagnostics, hover, key completion.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { caret, hoverText, positionOf } from '../support/lspClient';
import { COMPAT_MODES, S, useSampleServer } from '../support/fixture';

const DOMAIN = 'urn:li:domain:7f3c9a52-1b7e-4c1d-9d7a-2f8e5b6c4a10';

const PRODUCT = [
  '# datahub dataproduct upsert -f users.yaml',
  'id: user-analytics',
  `domain: ${DOMAIN}`,
  'display_name: User analytics',
  'assets:',
  `  - ${S.users}`,
  `  - ${S.ghost}`,
  'output_ports:',
  `  - ${S.users}`,
  `  - ${S.orders}`,
  'owners:',
  '  - jdoe',
  '  - id: jdeo',
  '    type: DATA_STEWARD',
  'tags: [gold, golld]',
  'descripton: typo',
  '',
].join('\n');

const PROPERTIES = [
  '# datahub properties upsert -f properties.yaml',
  '- urn: urn:li:structuredProperty:io.acryl.privacy.retentionTime',
  '  type: number',
  '  cardinality: SINGLE',
  '  entity_types: [dataset, datasets]',
  '- id: io.acryl.privacy.brand_new',
  '  type: STRING',
  '  cardinality: ONE',
  '  allowed_values:',
  '    - value: low',
  '      descripton: typo',
  '',
].join('\n');

/** Severity and message; the catalog's did-you-mean, which comes in a second publish, left out. */
const messages = (ds: Diagnostic[]): string[] =>
  ds.map((d) => `${d.severity} ${String(d.message).replace(/\. Did you mean .*$/, '')}`).sort();

for (const compat of COMPAT_MODES)
  describe(`DataHub YAML formats: structured properties and data products (${compat} catalog)`, () => {
    const env = useSampleServer({}, compat);

    test('a data product file: its rules, and its assets, owners, tags and domain checked against the catalog', async () => {
      const uri = 'file:///w/product.yaml';
      await env.lsp.open(uri, 'yaml', PRODUCT);
      const ds = await env.lsp.diagnostics(uri, (d) => d.some((x) => x.code === 'unknown-urn'));
      assert.deepEqual(
        messages(ds),
        [
          `1 Output port ${S.orders} is not in asset list: DataHub refuses the file`,
          "2 'descripton' is not a key of DataProduct: DataHub ignores it (did you mean description?)",
          '2 Dataset db.ghost is not in the catalog',
          '2 Tag golld is not in the catalog',
          '2 User jdeo is not in the catalog',
          // A URN written out is read as anywhere else.
          '3 Dataset db.orders has no description',
        ].sort(),
      );
      const port = ds.find((d) => String(d.message).startsWith('Output port'))!;
      assert.deepEqual(port.range.start, positionOf(PRODUCT, S.orders));
      const user = ds.find((d) => String(d.message).startsWith('User jdeo'))!;
      assert.deepEqual(user.range.start, positionOf(PRODUCT, 'jdeo'));
      assert.equal((user.data as { urn: string }).urn, 'urn:li:corpuser:jdeo');
    });

    test('a structured properties file: its rules; what it defines is not flagged absent', async () => {
      const uri = 'file:///w/properties.yaml';
      await env.lsp.open(uri, 'yaml', PROPERTIES);
      const ds = await env.lsp.diagnostics(uri, (d) => d.some((x) => x.code === 'datahub-format'));
      assert.deepEqual(
        messages(ds),
        [
          "1 'ONE' is not a value of 'cardinality': SINGLE, MULTIPLE",
          "1 'descripton' is not a key of AllowedValue: DataHub refuses the file (did you mean description?)",
          "2 'datasets' is not an entity type of DataHub's registry (did you mean dataset?)",
          "2 'type' should be lower-case: DataHub reads it as 'string'",
        ].sort(),
      );
      const card = ds.find((d) => String(d.message).startsWith("'ONE'"))!;
      assert.deepEqual(card.range, { start: positionOf(PROPERTIES, 'ONE'), end: positionOf(PROPERTIES, 'ONE', 3) });
    });

    test("a dataset file's structured property values are checked against the catalog's definition", async () => {
      const uri = 'file:///w/values.yaml';
      const text = [
        'id: db.users',
        'platform: hive',
        'structured_properties:',
        '  io.acryl.privacy.retentionTime: 45',
        'schema:',
        '  fields:',
        '    - id: user_id',
        '      structured_properties:',
        '        io.acryl.privacy.retentionTime: [30, 90]',
        '    - id: email',
        '      structured_properties:',
        '        io.acryl.privacy.retentionTime: forever',
        '',
      ].join('\n');
      await env.lsp.open(uri, 'yaml', text);
      const ds = await env.lsp.diagnostics(uri, (d) => d.some((x) => x.code === 'structured-property-value'));
      const values = ds.filter((d) => d.code === 'structured-property-value');
      assert.deepEqual(
        values.map((d) => [d.severity, d.message, d.range.start]),
        [
          [
            2,
            "'45' is not an allowed value of structured property io.acryl.privacy.retentionTime: 30, 90, 365",
            positionOf(text, '45'),
          ],
          [
            2,
            'Structured property io.acryl.privacy.retentionTime takes one value (cardinality SINGLE), not 2',
            positionOf(text, 'io.acryl.privacy.retentionTime: [30'),
          ],
          [
            2,
            "'forever' is not a number: structured property io.acryl.privacy.retentionTime takes numbers",
            positionOf(text, 'forever'),
          ],
        ],
      );
    });

    test('hover on a definition and a product shows the URN they stand for; on a key, what it is', async () => {
      const prop = caret(PROPERTIES.replace('- id: io.acryl.privacy.brand_new', '- id: io.acryl.privacy.brand|_new'));
      await env.lsp.open('file:///w/hover-prop.yaml', 'yaml', prop.text);
      const p = hoverText(await env.lsp.hover('file:///w/hover-prop.yaml', prop.position));
      assert.ok(p.includes('urn:li:structuredProperty:io.acryl.privacy.brand_new'), p);
      assert.ok(p.includes('StructuredProperties.urn(…)'), p);
      const known = caret(PROPERTIES.replace('privacy.retentionTime', 'privacy.retention|Time'));
      await env.lsp.open('file:///w/hover-known.yaml', 'yaml', known.text);
      const k = hoverText(await env.lsp.hover('file:///w/hover-known.yaml', known.position));
      assert.match(k, /How many days the data is kept\./);
      const product = caret(PRODUCT.replace('id: user-analytics', 'id: user-ana|lytics'));
      await env.lsp.open('file:///w/hover-product.yaml', 'yaml', product.text);
      const d = hoverText(await env.lsp.hover('file:///w/hover-product.yaml', product.position));
      assert.ok(d.includes('urn:li:dataProduct:user-analytics') && d.includes('DataProduct.urn(…)'), d);
      const key = caret(PRODUCT.replace('output_ports:', 'output_po|rts:'));
      await env.lsp.open('file:///w/hover-pkey.yaml', 'yaml', key.text);
      const h = hoverText(await env.lsp.hover('file:///w/hover-pkey.yaml', key.position));
      assert.match(h, /\*\*output_ports\*\* · DataProduct\n\nAssets that are output ports/);
    });

    test('completion offers the keys of a definition and of a product, and the cardinalities', async () => {
      const inProp = caret(PROPERTIES.replace('  cardinality: ONE\n', '  cardinality: ONE\n  imm|\n'));
      await env.lsp.open('file:///w/complete-prop.yaml', 'yaml', inProp.text);
      const labels = (await env.lsp.completion('file:///w/complete-prop.yaml', inProp.position)).map((i) => i.label);
      assert.ok(labels.includes('immutable') && labels.includes('display_name'), labels.join(' '));
      assert.ok(!labels.includes('type') && !labels.includes('cardinality'), labels.join(' '));
      const card = caret(PROPERTIES.replace('cardinality: ONE', 'cardinality: |'));
      await env.lsp.open('file:///w/complete-card.yaml', 'yaml', card.text);
      const values = (await env.lsp.completion('file:///w/complete-card.yaml', card.position)).map((i) => i.label);
      assert.ok(values.includes('SINGLE') && values.includes('MULTIPLE'), values.join(' '));
      const inProduct = caret(
        PRODUCT.replace('display_name: User analytics\n', 'display_name: User analytics\nins|\n'),
      );
      await env.lsp.open('file:///w/complete-product.yaml', 'yaml', inProduct.text);
      const keys = (await env.lsp.completion('file:///w/complete-product.yaml', inProduct.position)).map(
        (i) => i.label,
      );
      assert.ok(keys.includes('institutional_memory') && keys.includes('terms'), keys.join(' '));
      assert.ok(!keys.includes('domain') && !keys.includes('assets'), keys.join(' '));
    });
  });
