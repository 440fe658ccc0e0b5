/**
 * DataHub's own YAML formats (dataset file, business glossary) through the real server process
 * against the real local catalog with the sample data: diagnostics, hover, key completion.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { caret, hoverText, positionOf } from '../support/lspClient';
import { COMPAT_MODES, S, useSampleServer } from '../support/fixture';

const DATASET = [
  '# datahub dataset upsert -f users.yaml',
  '- id: db.users',
  '  platform: hive',
  '  description: One row per registered user of the product.',
  '  owners:',
  '    - jdoe',
  '    - id: jdeo',
  '      type: TECHNICAL_OWNER',
  '    - id: growth-analytics',
  '      type: owner',
  '  tags: [gold, golld]',
  '  glossary_terms:',
  '    - Classification.Sensitive',
  '  schema:',
  '    fields:',
  '      - id: user_id',
  '        description: Primary key of the user.',
  '      - id: emial',
  '  descripton: typo',
  '  structured_properties:',
  '    io.acryl.privacy.retentionTime: 30',
  '    io.acryl.privacy.retention: 30',
  '- id: db.brand_new',
  '  platform: hive',
  '  schema:',
  '    fields:',
  '      - id: anything',
  '',
].join('\n');

const GLOSSARY = [
  'version: 1',
  'source: DataHub',
  'owners:',
  '  users:',
  '    - jdoe',
  'nodes:',
  '  - name: Classification',
  '    description: A set of terms related to Data Classification',
  '    terms:',
  '      - name: Sensitive',
  '        description: Sensitive Data',
  '      - name: Confidential',
  '        description: Confidential Data',
  '        related_terms:',
  '          - Classification.Sensitive',
  '          - Data-Classification.Sensitive',
  '        inherit:',
  '          - Classification.Sensitive',
  '',
].join('\n');

/** Severity and message; the catalog's did-you-mean, which comes in a second publish, left out. */
const messages = (ds: Diagnostic[]): string[] =>
  ds.map((d) => `${d.severity} ${String(d.message).replace(/\. Did you mean .*$/, '')}`).sort();

for (const compat of COMPAT_MODES)
  describe(`DataHub YAML formats (${compat} catalog)`, () => {
    const env = useSampleServer({}, compat);

    test('a dataset file: its rules, its references and field ids checked against the catalog; what it defines is not flagged absent', async () => {
      const uri = 'file:///w/users.yaml';
      await env.lsp.open(uri, 'yaml', DATASET);
      const ds = await env.lsp.diagnostics(uri, (d) => d.some((x) => x.code === 'unknown-column'));
      assert.deepEqual(
        messages(ds),
        [
          "1 'owner' is not a value of 'type': CUSTOM, TECHNICAL_OWNER, BUSINESS_OWNER, DATA_STEWARD, NONE, DEVELOPER, DATAOWNER, DELEGATE, PRODUCER, CONSUMER, STAKEHOLDER",
          "2 'descripton' is not a key of Dataset: DataHub ignores it (did you mean description?)",
          "2 Column 'emial' is not in the catalog's schema of db.users (did you mean email?)",
          '2 Tag golld is not in the catalog',
          '2 User growth-analytics is not in the catalog',
          '2 User jdeo is not in the catalog',
          '2 Structured property io.acryl.privacy.retention is not in the catalog',
        ].sort(),
      );
      const field = ds.find((d) => d.code === 'unknown-column')!;
      assert.deepEqual(field.range.start, positionOf(DATASET, 'emial'));
      assert.deepEqual(field.range.end, positionOf(DATASET, 'emial', 5));
      const key = ds.find((d) => d.code === 'datahub-format' && String(d.message).includes('descripton'))!;
      assert.deepEqual(key.range.start, positionOf(DATASET, 'descripton'));
      const user = ds.find((d) => String(d.message).startsWith('User jdeo'))!;
      assert.deepEqual(user.range.start, positionOf(DATASET, 'jdeo'));
      assert.equal((user.data as { urn: string }).urn, 'urn:li:corpuser:jdeo');
    });

    test("an env DataHub does not know stands on the entry's `env:`, with its quick fix there", async () => {
      const uri = 'file:///w/env.yaml';
      const text = 'id: db.users\nplatform: hive\nenv: PRDO\n';
      await env.lsp.open(uri, 'yaml', text);
      const ds = await env.lsp.diagnostics(uri, (d) => d.some((x) => x.code === 'unknown-env'));
      const bad = ds.find((d) => d.code === 'unknown-env')!;
      assert.equal(bad.message, "env 'PRDO' is not one of DataHub's environments (did you mean PROD?)");
      assert.deepEqual(bad.range, { start: positionOf(text, 'PRDO'), end: positionOf(text, 'PRDO', 4) });
      const actions = await env.lsp.codeActions(uri, bad.range, [bad]);
      const fix = actions.find((a) => a.title === 'Replace with PROD');
      assert.ok(fix, actions.map((a) => a.title).join(', '));
      assert.deepEqual(fix.edit?.changes?.[uri], [{ range: bad.range, newText: 'PROD' }]);
    });

    test('a business glossary: its rules, and references to terms of the file checked against the file', async () => {
      const uri = 'file:///w/business_glossary.yml';
      await env.lsp.open(uri, 'yaml', GLOSSARY);
      const ds = await env.lsp.diagnostics(uri, (d) => d.some((x) => x.code === 'unknown-urn'));
      assert.deepEqual(
        messages(ds),
        [
          "1 'inherit' is not a key of GlossaryTermConfig: DataHub refuses the file (did you mean inherits?)",
          "2 'Data-Classification.Sensitive' is not a term of this file (did you mean Classification.Sensitive?)",
          '2 Glossary term Data-Classification.Sensitive is not in the catalog',
        ].sort(),
      );
      const dangling = ds.filter((d) => String(d.message).includes("'Data-Classification.Sensitive'"));
      assert.deepEqual(dangling[0]!.range.start, positionOf(GLOSSARY, 'Data-Classification.Sensitive'));
    });

    test('hover on an entry shows the URN it stands for and what the catalog knows; on a reference, the entity; on a key, what it is', async () => {
      const entry = caret(DATASET.replace('- id: db.users', '- id: db.us|ers'));
      await env.lsp.open('file:///w/hover-entry.yaml', 'yaml', entry.text);
      const h = hoverText(await env.lsp.hover('file:///w/hover-entry.yaml', entry.position));
      assert.match(h, /\*\*Dataset\*\* `db\.users` · hive · PROD/);
      assert.match(h, /One row per registered user of the product\./);
      assert.ok(h.includes(`make_dataset_urn(…)`) && h.includes(S.users), h);
      const owner = caret(DATASET.replace('    - jdoe', '    - jd|oe'));
      await env.lsp.open('file:///w/hover-owner.yaml', 'yaml', owner.text);
      const o = hoverText(await env.lsp.hover('file:///w/hover-owner.yaml', owner.position));
      assert.ok(o.includes('urn:li:corpuser:jdoe'), o);
      assert.ok(o.includes('make_user_urn(…)'), o);
      const key = caret(DATASET.replace('  glossary_terms:', '  glossary_te|rms:'));
      await env.lsp.open('file:///w/hover-key.yaml', 'yaml', key.text);
      const k = hoverText(await env.lsp.hover('file:///w/hover-key.yaml', key.position));
      assert.match(k, /\*\*glossary_terms\*\* · Dataset\n\nGlossary terms, by id or `urn:li:glossaryTerm:` URN\./);
    });

    test('completion offers the keys of the level the cursor is at, with their documentation, and enum values', async () => {
      const atRoot = caret(['- id: db.users', '  platform: hive', '  gl|', ''].join('\n'));
      await env.lsp.open('file:///w/complete.yaml', 'yaml', atRoot.text);
      const items = await env.lsp.completion('file:///w/complete.yaml', atRoot.position);
      const labels = items.map((i) => i.label);
      assert.ok(labels.includes('glossary_terms'), labels.join(' '));
      assert.ok(!labels.includes('platform'), 'a key already there is not offered again');
      const doc = items.find((i) => i.label === 'glossary_terms')!.documentation;
      assert.match(typeof doc === 'string' ? doc : (doc?.value ?? ''), /Glossary terms/);
      const inField = caret(
        ['- id: db.users', '  platform: hive', '  schema:', '    fields:', '      - id: a', '        n|', ''].join(
          '\n',
        ),
      );
      await env.lsp.open('file:///w/complete-field.yaml', 'yaml', inField.text);
      const fieldLabels = (await env.lsp.completion('file:///w/complete-field.yaml', inField.position)).map(
        (i) => i.label,
      );
      assert.ok(fieldLabels.includes('nativeDataType') && fieldLabels.includes('nullable'), fieldLabels.join(' '));
      assert.ok(!fieldLabels.includes('platform'));
      const type = caret(
        ['- id: db.users', '  platform: hive', '  owners:', '    - id: jdoe', '      type: |', ''].join('\n'),
      );
      await env.lsp.open('file:///w/complete-type.yaml', 'yaml', type.text);
      const types = (await env.lsp.completion('file:///w/complete-type.yaml', type.position)).map((i) => i.label);
      assert.ok(types.includes('TECHNICAL_OWNER') && types.includes('DATA_STEWARD'), types.join(' '));
    });
  });
