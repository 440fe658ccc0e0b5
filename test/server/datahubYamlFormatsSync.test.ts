/**
 * Sync of DataHub's glossary, data product and structured properties files with the catalog,
 * through the real server process against the real local catalog in both of its modes:
 * `catalogLens/dataHubYaml` answers the file as the catalog would have it (each node's and term's
 * description against the catalog's definition, the product's description, a property's
 * description and display name), the edits of a pull and the writes of a push;
 * `catalogLens.pushDataHubYaml` writes the descriptions through `setDescription` (DataHub's
 * updateDescription; a property's through updateStructuredProperty), which the DataHub mode takes
 * and the spec mode refuses — the push then tells that write failed, in the catalog's words — and
 * writes no display name, saying so.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { CodeLens, TextEdit } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { SAMPLE } from '../../catalog/src/sample';
import { ServerCommands } from '../../model/src/commandIds';
import {
  DataHubYamlRequest,
  DescriptionRequest,
  YamlFormatRequest,
  type DataHubYamlResult,
  type DescriptionResult,
  type PushDataHubYamlResult,
  type WriteResult,
} from '../../model/src/protocol';
import { COMPAT_MODES, useSampleServer, useSampleServerPerTest } from '../support/fixture';
import type { LspSession } from '../support/lspClient';

const g = SAMPLE.glossary;
const GHOST_TERM = 'urn:li:glossaryTerm:Classification.Internal';

export const GLOSSARY = [
  '# the business glossary (datahub-business-glossary source)',
  'version: "1"',
  'source: DataHub',
  'owners:',
  '  users: [asmith]',
  'nodes:',
  '  - name: Classification   # the node',
  '    description: How sensitive data is.',
  '    terms:',
  '      - name: Sensitive',
  '        description: >-',
  '          Masked outside',
  '          the warehouse.',
  '      - name: Secret',
  '        description:   # to fill',
  '      - name: Internal',
  '        description: Not yet in the catalog.',
  '',
].join('\n');

const GLOSSARY_AS_CATALOG = GLOSSARY.replace('How sensitive data is.', 'How sensitive a piece of data is.')
  .replace(
    '          Masked outside\n          the warehouse.',
    '          Data that must be masked outside the warehouse.',
  )
  .replace('description:   # to fill', 'description:   The old name of Sensitive Data. # to fill');

const GLOSSARY_WRITES = [
  'term group Classification: description "How sensitive a piece of data is." → "How sensitive data is."',
  'glossary term Classification.Sensitive: description "Data that must be masked outside the warehouse." → "Masked outside the warehouse."',
];

const PRODUCT = [
  '# datahub dataproduct upsert -f revenue.yaml',
  'id: revenue-reporting',
  `domain: ${SAMPLE.domain}`,
  'display_name: Revenue reporting',
  'description: |',
  '  Revenue, and the dashboard on it.',
  'assets:',
  `  - ${SAMPLE.dashboard}`,
  '',
].join('\n');

const PROPERTIES = [
  '# datahub properties upsert -f properties.yaml',
  `- urn: ${SAMPLE.structuredProperty}`,
  '  type: number',
  '  display_name: Retention',
  '  entity_types: [dataset]',
  '',
].join('\n');

const apply = (text: string, edits: TextEdit[]): string =>
  TextDocument.applyEdits(TextDocument.create('file:///x', 'yaml', 1, text), edits);

function compare(lsp: LspSession, uri: string, entry?: string): Promise<DataHubYamlResult> {
  return lsp.connection.sendRequest(DataHubYamlRequest.method, { uri, ...(entry ? { entry } : {}) });
}

async function description(lsp: LspSession, urn: string): Promise<string | null | undefined> {
  const r: DescriptionResult = await lsp.connection.sendRequest(DescriptionRequest.method, { urn });
  return r.description;
}

async function format(lsp: LspSession, uri: string): Promise<string | null> {
  const r: { format: string | null } = await lsp.connection.sendRequest(YamlFormatRequest.method, { uri });
  return r.format;
}

for (const compat of COMPAT_MODES) {
  describe(`DataHub glossary, data product and structured properties YAML against the catalog (${compat} catalog)`, () => {
    const env = useSampleServer({}, compat);

    test("a glossary: each node's and term's description against the catalog's definition; the writes are setDescription's", async () => {
      const uri = 'file:///w/glossary.yaml';
      await env.lsp.open(uri, 'yaml', GLOSSARY);
      assert.equal(await format(env.lsp, uri), 'datahub-glossary');
      const r = await compare(env.lsp, uri);
      assert.equal(r.error, undefined, r.error);
      assert.equal(r.catalogText, GLOSSARY_AS_CATALOG);
      assert.equal(apply(GLOSSARY, r.edits), GLOSSARY_AS_CATALOG, 'the edits of a pull make the same text');
      assert.deepEqual(
        r.writes.map((w) => w.line),
        GLOSSARY_WRITES,
      );
      assert.deepEqual(r.writes[1], {
        command: ServerCommands.setDescription,
        arg: { urn: g.sensitive, description: 'Masked outside the warehouse.', uri },
        line: GLOSSARY_WRITES[1],
      });
      assert.deepEqual(r.notes, [
        'glossary term Classification.Internal: not in the catalog (the datahub-business-glossary source creates it)',
      ]);
      assert.deepEqual(r.unpushed, []);
      assert.deepEqual(r.entries, [g.node, g.sensitive, g.secret, GHOST_TERM]);
      const secret = await compare(env.lsp, uri, g.secret);
      assert.equal(
        secret.catalogText,
        GLOSSARY.replace('description:   # to fill', 'description:   The old name of Sensitive Data. # to fill'),
      );
      assert.deepEqual(secret.writes, []);
    });

    test("a data product file: the product's description; a structured properties file: compared and pulled, not pushed", async () => {
      const product = 'file:///w/product.yaml';
      await env.lsp.open(product, 'yaml', PRODUCT);
      assert.equal(await format(env.lsp, product), 'datahub-data-product');
      const p = await compare(env.lsp, product);
      assert.equal(
        p.catalogText,
        PRODUCT.replace(
          '|\n  Revenue, and the dashboard on it.\n',
          '|-\n  The revenue table and the dashboard on it.\n',
        ),
      );
      assert.deepEqual(p.writes, [
        {
          command: ServerCommands.setDescription,
          arg: { urn: SAMPLE.dataProduct, description: 'Revenue, and the dashboard on it.\n', uri: product },
          line: 'data product revenue-reporting: description "The revenue table and the dashboard on it." → "Revenue, and the dashboard on it."',
        },
      ]);
      const properties = 'file:///w/properties.yaml';
      await env.lsp.open(properties, 'yaml', PROPERTIES);
      assert.equal(await format(env.lsp, properties), 'datahub-structured-properties');
      const s = await compare(env.lsp, properties);
      assert.equal(
        s.catalogText,
        PROPERTIES.replace('  display_name: Retention\n', '  display_name: Retention time\n').replace(
          `- urn: ${SAMPLE.structuredProperty}\n`,
          `- urn: ${SAMPLE.structuredProperty}\n  description: How many days the data is kept.\n`,
        ),
      );
      assert.deepEqual(s.writes, []);
      assert.deepEqual(s.unpushed, [
        'structured property io.acryl.privacy.retentionTime: display name "Retention time" → "Retention" (Catalog Lens pushes no display name: use `datahub properties upsert -f`)',
      ]);
    });
  });

  describe(`DataHub glossary, data product and structured properties YAML, push (${compat} catalog)`, () => {
    const asked: string[] = [];
    const env = useSampleServerPerTest(
      {
        answerMessageRequest: (p) => {
          asked.push(p.message);
          return 'Push';
        },
      },
      compat,
    );
    beforeEach(() => {
      asked.length = 0;
    });

    test(
      compat === 'datahub'
        ? 'the writes are listed once, then written through updateDescription; read back, the catalog says what the file says'
        : "the spec's catalog refuses updateDescription of a glossary term: each write fails with the catalog's words, nothing is written",
      async () => {
        const uri = 'file:///w/push-glossary.yaml';
        await env.lsp.open(uri, 'yaml', GLOSSARY);
        const r = await env.lsp.command<PushDataHubYamlResult>(ServerCommands.pushDataHubYaml, { uri });
        assert.equal(r.status, 'pushed', r.message);
        assert.deepEqual(asked, [
          ['Catalog Lens: push 2 writes to the catalog?', ...GLOSSARY_WRITES.map((l) => `• ${l}`)].join('\n'),
        ]);
        if (compat === 'datahub') {
          assert.deepEqual(
            r.results.map((x) => x.result.status),
            ['written', 'written'],
          );
          assert.deepEqual(r.results[1]!.result, {
            status: 'written',
            aspects: ['glossaryTermInfo'],
            previous: 'Data that must be masked outside the warehouse.',
            message: 'Wrote the description of glossary term Classification.Sensitive',
          });
          assert.equal(await description(env.lsp, g.node), 'How sensitive data is.');
          assert.equal(await description(env.lsp, g.sensitive), 'Masked outside the warehouse.');
          // Nothing the file does not say was taken out: Secret keeps its definition.
          assert.equal(await description(env.lsp, g.secret), 'The old name of Sensitive Data.');
          const after = await compare(env.lsp, uri);
          assert.deepEqual(after.writes, []);
        } else {
          assert.deepEqual(
            r.results.map((x) => x.result.status),
            ['failed', 'failed'],
          );
          assert.match(
            r.results[0]!.result.message,
            /: updateDescription: this catalog supports only dataset schema fields \(spec §4\.1 rule 1\), so it does not describe the glossaryNode 'urn:li:glossaryNode:Classification'/,
          );
          assert.equal(r.message, '2 writes run: 0 written, 0 unchanged, 2 failed.');
          assert.equal(await description(env.lsp, g.sensitive), 'Data that must be masked outside the warehouse.');
        }
      },
    );

    test('setDescription: Undo puts the replaced text back; a term the catalog lacks is refused; another kind is refused', async () => {
      const set = (arg: Record<string, unknown>) => env.lsp.command<WriteResult>(ServerCommands.setDescription, arg);
      const ghost = await set({ urn: GHOST_TERM, description: 'x' });
      assert.equal(ghost.status, 'failed');
      assert.match(ghost.message, /glossary term Classification\.Internal is not in the catalog; nothing was written/);
      const dataset = await set({ urn: SAMPLE.datasets.users, description: 'x' });
      assert.equal(dataset.status, 'failed');
      assert.match(dataset.message, /setDatasetDescription describes datasets/);
      if (compat !== 'datahub') return;
      const w = await set({ urn: SAMPLE.dataProduct, description: 'Ours.' });
      assert.equal(w.status, 'written', w.message);
      assert.equal(w.status === 'written' ? w.previous : undefined, 'The revenue table and the dashboard on it.');
      assert.equal((await set({ urn: SAMPLE.dataProduct, description: 'Ours.' })).status, 'unchanged');
      const undo = await set({
        urn: SAMPLE.dataProduct,
        description: 'The revenue table and the dashboard on it.',
        restoring: true,
      });
      assert.equal(undo.message, 'Restored the earlier description of data product revenue-reporting');
      assert.equal(await description(env.lsp, SAMPLE.dataProduct), 'The revenue table and the dashboard on it.');
    });

    test('a structured properties file: a display name alone is not pushed: nothing is asked, and the result says so', async () => {
      const uri = 'file:///w/push-properties.yaml';
      await env.lsp.open(uri, 'yaml', PROPERTIES);
      const r = await env.lsp.command<PushDataHubYamlResult>(ServerCommands.pushDataHubYaml, { uri });
      assert.equal(r.status, 'nothing');
      assert.match(
        r.message,
        /^Nothing Catalog Lens can push\. Not pushed: structured property io\.acryl\.privacy\.retentionTime: display name/,
      );
      assert.deepEqual(asked, []);
    });

    test(
      compat === 'datahub'
        ? "a structured property's description: pushed through updateStructuredProperty, the rest of its definition kept"
        : "a structured property's description: the spec's catalog has no updateStructuredProperty, and the write fails in its words",
      async () => {
        const uri = 'file:///w/push-property-description.yaml';
        await env.lsp.open(
          uri,
          'yaml',
          PROPERTIES.replace('  type: number\n', '  type: number\n  description: Days kept.\n'),
        );
        const r = await env.lsp.command<PushDataHubYamlResult>(ServerCommands.pushDataHubYaml, { uri });
        assert.equal(r.status, 'pushed', r.message);
        const line =
          'structured property io.acryl.privacy.retentionTime: description "How many days the data is kept." → "Days kept."';
        assert.equal(asked[0], `Catalog Lens: push 1 write to the catalog?\n• ${line}`);
        assert.match(r.message, /Not pushed: structured property io\.acryl\.privacy\.retentionTime: display name/);
        const result = r.results[0]!.result;
        if (compat === 'datahub') {
          assert.deepEqual(result, {
            status: 'written',
            aspects: ['propertyDefinition'],
            previous: 'How many days the data is kept.',
            message: 'Wrote the description of structured property io.acryl.privacy.retentionTime',
          });
          assert.equal(await description(env.lsp, SAMPLE.structuredProperty), 'Days kept.');
          const after = await compare(env.lsp, uri);
          assert.deepEqual(after.writes, []);
        } else {
          assert.equal(result.status, 'failed');
          assert.match(
            result.message,
            /updateStructuredProperty: this catalog does not write structured property definitions/,
          );
          assert.equal(await description(env.lsp, SAMPLE.structuredProperty), 'How many days the data is kept.');
        }
      },
    );
  });
}

describe('DataHub glossary YAML in the extension: Compare, Pull and Push above each node and term', () => {
  const env = useSampleServer({ initializationOptions: { clientCommands: true } });

  test('three code lenses per entry, naming the client commands with the file and the entry', async () => {
    const uri = 'file:///w/glossary-lenses.yaml';
    await env.lsp.open(uri, 'yaml', GLOSSARY);
    const lenses: CodeLens[] = await env.lsp.connection.sendRequest('textDocument/codeLens', { textDocument: { uri } });
    const sync = lenses.filter((l) => / catalog$/.test(l.command?.title ?? ''));
    assert.deepEqual(
      sync.map((l) => `${l.range.start.line} ${l.command!.title}`),
      [6, 9, 13, 15].flatMap((line) => [
        `${line} Compare with catalog`,
        `${line} Pull from catalog`,
        `${line} Push to catalog`,
      ]),
    );
    assert.deepEqual(sync[3]!.command!.arguments, [{ uri, entry: g.sensitive }]);
    // No "used in N files" lens: a glossary's entries are no docs-as-code entries.
    assert.deepEqual(
      lenses.filter((l) => !/ catalog$/.test(l.command?.title ?? '')),
      [],
    );
  });
});
