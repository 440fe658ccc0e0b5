/**
 * DataHub's own YAML formats, the rest of their model, through the real server process against
 * the real local catalog with the sample data: a data product's domain by name, the glossary
 * source's `enable_auto_id` as a setting, structured property values against a definition of the
 * workspace, and completion of the references.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { datahubGuid } from '../../server/src/formats/read';
import { caret, hoverText, positionOf } from '../support/lspClient';
import { COMPAT_MODES, sampleCatalog, serverFor, useSampleServer, type Catalog } from '../support/fixture';
import type { LspSession } from '../support/lspClient';

const DOMAIN = 'urn:li:domain:7f3c9a52-1b7e-4c1d-9d7a-2f8e5b6c4a10';

const product = (domain: string): string =>
  ['id: user-analytics', `domain: ${domain}`, 'display_name: User analytics', ''].join('\n');

const domainDiagnostics = (ds: Diagnostic[]): Diagnostic[] =>
  ds.filter((d) => d.code === 'unknown-urn' && String(d.message).startsWith('Domain'));

for (const compat of COMPAT_MODES)
  describe(`DataHub YAML formats: the rest of the model (${compat} catalog)`, () => {
    const env = useSampleServer({}, compat);

    test("a data product's domain by name is found by its name or its id; another is flagged with the names near it", async () => {
      for (const [name, domain] of [
        ['by-name', 'Marketing'],
        ['by-id', 'business'],
        ['by-urn', DOMAIN],
      ] as const) {
        const uri = `file:///w/product-${name}.yaml`;
        await env.lsp.open(uri, 'yaml', product(domain));
        const ds = await env.lsp.diagnostics(uri);
        assert.deepEqual(domainDiagnostics(ds), [], `${domain}: ${ds.map((d) => d.message).join('; ')}`);
      }
      const uri = 'file:///w/product-typo.yaml';
      // A part of the name: the local catalog's search finds it (its near-name pass reads ids only).
      const text = product('Marketin');
      await env.lsp.open(uri, 'yaml', text);
      const ds = await env.lsp.diagnostics(uri, (d) =>
        d.some((x) => String(x.message).startsWith('Domain') && String(x.message).includes('Did you mean')),
      );
      const [typo, ...more] = domainDiagnostics(ds);
      assert.equal(more.length, 0);
      assert.equal(
        typo?.message,
        'Domain Marketin is not in the catalog, by id or by name: DataHub refuses a domain it cannot resolve. Did you mean Marketing?',
      );
      assert.deepEqual(typo.range, { start: positionOf(text, 'Marketin'), end: positionOf(text, 'Marketin', 8) });
      const fix = (await env.lsp.codeActions(uri, typo.range, [typo])).find(
        (a) => a.title === 'Replace with Marketing',
      );
      assert.ok(fix);
      assert.deepEqual(fix.edit?.changes?.[uri], [{ range: typo.range, newText: 'Marketing' }]);
    });

    test('hover on a domain by name shows the domain DataHub resolves it to', async () => {
      const at = caret(product('Mark|eting'));
      await env.lsp.open('file:///w/hover-domain.yaml', 'yaml', at.text);
      const h = hoverText(await env.lsp.hover('file:///w/hover-domain.yaml', at.position));
      assert.ok(h.includes(DOMAIN), h);
      assert.match(h, /Campaigns, attribution and revenue reporting\./);
    });
  });

/** The labels and inserted texts of the completion at `|` of `text`. */
async function completeAt(lsp: LspSession, name: string, text: string): Promise<Array<[string, string]>> {
  const at = caret(text);
  const uri = `file:///w/${name}.yaml`;
  await lsp.open(uri, 'yaml', at.text);
  const items = await lsp.completion(uri, at.position);
  return items.map((i) => [String(i.label), (i.textEdit as { newText?: string } | undefined)?.newText ?? '']);
}

const DATASET_ENTRY = ['- id: db.users', '  platform: hive'];

for (const compat of COMPAT_MODES)
  describe(`DataHub YAML formats: completion of references (${compat} catalog)`, () => {
    const env = useSampleServer({}, compat);
    const texts = async (name: string, lines: string[]): Promise<string[]> =>
      (await completeAt(env.lsp, name, [...lines, ''].join('\n'))).map(([, text]) => text);

    test('platform names, dataset names on the entry’s platform, and whole dataset URNs for assets', async () => {
      assert.ok((await texts('c-platform', ['- id: db.users', '  platform: hi|'])).includes('hive'));
      const names = await texts('c-id', ['- id: db.us|', '  platform: hive']);
      assert.ok(names.includes('db.users'), names.join(' '));
      assert.ok(!names.some((n) => n.startsWith('events.')), 'a dataset of another platform is not offered');
      const assets = await texts('c-assets', ['id: p', `domain: ${DOMAIN}`, 'assets:', '  - db.us|']);
      assert.ok(assets.includes('urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)'), assets.join(' '));
    });

    test("a schema field's id from the catalog's schema of the entry's dataset, with its description", async () => {
      const at = caret([...DATASET_ENTRY, '  schema:', '    fields:', '      - id: em|', ''].join('\n'));
      await env.lsp.open('file:///w/c-field.yaml', 'yaml', at.text);
      const items = await env.lsp.completion('file:///w/c-field.yaml', at.position);
      const email = items.find((i) => i.label === 'email');
      assert.ok(email, items.map((i) => i.label).join(' '));
      assert.ok(items.some((i) => i.label === 'user_id'));
      const doc = email.documentation;
      assert.ok(typeof doc === 'object' && doc.value.length > 0);
    });

    test("a glossary's users and groups, and terms by the file's paths before the catalog's", async () => {
      const glossary = (owners: string[], inherits: string): string[] => [
        'version: 1',
        'owners:',
        ...owners,
        'nodes:',
        '  - name: Classification',
        '    description: Classes',
        '    terms:',
        '      - name: Confidential',
        '        description: Confidential Data',
        '      - name: Internal',
        '        description: Internal Data',
        '        inherits:',
        `          - ${inherits}`,
      ];
      const users = await texts('c-users', glossary(['  users:', '    - jd|'], 'Classification.Confidential'));
      assert.ok(users.includes('jdoe'), users.join(' '));
      const terms = await texts('c-terms', glossary(['  users: [jdoe]'], 'Class|'));
      assert.equal(terms[0], 'Classification.Confidential', terms.join(' '));
      assert.ok(terms.includes('Classification.Sensitive'), `the catalog's terms too: ${terms.join(' ')}`);
    });

    test("structured property ids and a property's allowed values from the catalog's definition", async () => {
      const ids = await texts('c-prop', [...DATASET_ENTRY, '  structured_properties:', '    io.acryl|']);
      assert.ok(ids.includes('io.acryl.privacy.retentionTime'), ids.join(' '));
      const values = await texts('c-value', [
        ...DATASET_ENTRY,
        '  structured_properties:',
        '    io.acryl.privacy.retentionTime: |',
      ]);
      assert.deepEqual(values, ['30', '90', '365']);
    });
  });

for (const compat of COMPAT_MODES)
  describe(`DataHub YAML formats: a glossary read with enable_auto_id (${compat} catalog)`, () => {
    const env = useSampleServer({ settings: { datahubYaml: { glossaryEnableAutoId: true } } }, compat);

    test('catalogLens.datahubYaml.glossaryEnableAutoId: a term stands for the GUID of its path', async () => {
      const text = [
        'version: 1',
        'owners:',
        '  users: [jdoe]',
        'nodes:',
        '  - name: Classification',
        '    description: Classes',
        '    terms:',
        '      - name: Sensitive',
        '        description: Sensitive Data',
        '',
      ].join('\n');
      const at = caret(text.replace('name: Sensitive', 'name: Sensi|tive'));
      await env.lsp.open('file:///w/auto-id.yaml', 'yaml', at.text);
      const h = hoverText(await env.lsp.hover('file:///w/auto-id.yaml', at.position));
      assert.ok(h.includes(`urn:li:glossaryTerm:${datahubGuid({ path: 'Classification.Sensitive' })}`), h);
    });
  });

const PROPERTIES = [
  '- id: io.acryl.privacy.retentionTime',
  '  type: string',
  '  cardinality: MULTIPLE',
  '  allowed_values:',
  '    - value: short',
  '    - value: long',
  '- id: io.example.tier',
  '  type: number',
  '  entity_types: [dataset]',
  '  allowed_values:',
  '    - value: 1',
  '    - value: 2',
  '',
].join('\n');

const VALUES = [
  'id: db.users',
  'platform: hive',
  'structured_properties:',
  '  io.acryl.privacy.retentionTime: [short, forever]',
  '  io.example.tier: [1, 2]',
  'schema:',
  '  fields:',
  '    - id: email',
  '      structured_properties:',
  '        io.example.tier: gold',
  '',
].join('\n');

const valueMessages = (ds: Diagnostic[]): string[] =>
  ds.filter((d) => d.code === 'structured-property-value').map((d) => String(d.message));

for (const compat of COMPAT_MODES)
  describe(`DataHub YAML formats: structured property values against a definition of the workspace (${compat} catalog)`, () => {
    let catalog: Catalog;
    let lsp: LspSession;
    let dir: string;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'catalog-lens-properties-'));
      writeFileSync(join(dir, 'properties.yaml'), PROPERTIES);
      writeFileSync(join(dir, 'users.yaml'), VALUES);
      catalog = await sampleCatalog({ compat });
      lsp = await serverFor(catalog.url, {
        initializationOptions: { indexedNotifications: true },
        workspaceFolders: [{ uri: pathToFileURL(dir).toString(), name: 'w' }],
      });
      await lsp.waitForIndexed((p) => p.reason === 'build');
    });
    after(async () => {
      await lsp?.stop();
      await catalog?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    test("the workspace's definition comes before the catalog's; one only the workspace has is used too", async () => {
      const uri = pathToFileURL(join(dir, 'users.yaml')).toString();
      await lsp.open(uri, 'yaml', VALUES);
      const ds = await lsp.diagnostics(uri, (d) => valueMessages(d).length > 0);
      assert.deepEqual(valueMessages(ds), [
        // The catalog's definition (a SINGLE number with 30, 90, 365) would flag both values and their count.
        "'forever' is not an allowed value of structured property io.acryl.privacy.retentionTime: short, long (as properties.yaml defines it)",
        // No cardinality in the file: SINGLE, DataHub's default.
        'Structured property io.example.tier takes one value (cardinality SINGLE), not 2 (as properties.yaml defines it)',
        "'gold' is not a number: structured property io.example.tier takes numbers (as properties.yaml defines it)",
      ]);
    });

    test("completion offers the workspace's properties and the allowed values of its definition", async () => {
      const ids = await completeAt(
        lsp,
        'c-ws-prop',
        'id: db.users\nplatform: hive\nstructured_properties:\n  io.ex|\n',
      );
      assert.ok(
        ids.some(([, t]) => t === 'io.example.tier'),
        ids.join(' '),
      );
      const values = await completeAt(
        lsp,
        'c-ws-value',
        'id: db.users\nplatform: hive\nstructured_properties:\n  io.example.tier: |\n',
      );
      assert.deepEqual(
        values.map(([, t]) => t),
        ['1', '2'],
      );
    });

    test('an edit of the definitions checks the open documents again', async () => {
      const users = pathToFileURL(join(dir, 'users.yaml')).toString();
      await lsp.open(users, 'yaml', VALUES);
      await lsp.diagnostics(users, (d) => valueMessages(d).some((m) => m.includes("'forever'")));
      const properties = pathToFileURL(join(dir, 'properties.yaml')).toString();
      await lsp.open(
        properties,
        'yaml',
        PROPERTIES.replace('    - value: long', '    - value: long\n    - value: forever'),
      );
      const ds = await lsp.diagnostics(users, (d) => !valueMessages(d).some((m) => m.includes("'forever'")));
      assert.equal(valueMessages(ds).length, 2, valueMessages(ds).join('\n'));
      // Closed: the file on disk is read again, and its definitions are back.
      await lsp.close(properties);
      await lsp.diagnostics(users, (d) => valueMessages(d).some((m) => m.includes("'forever'")));
      await lsp.close(users);
    });

    test('Check Workspace checks the values against the same definitions', async () => {
      const uri = pathToFileURL(join(dir, 'users.yaml')).toString();
      await lsp.close(uri);
      await lsp.command('catalogLens.checkWorkspace', {});
      const ds = lsp.latestDiagnostics(uri) ?? [];
      assert.equal(valueMessages(ds).length, 3, ds.map((d) => d.message).join('\n'));
    });
  });
