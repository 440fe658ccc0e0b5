/**
 * Untrusted text from the document: a URN whose name, a
 * field path or a description holds `[label](command:…)` — `%28`/`%29` in a URN decode to `(`/`)`
 * — must not come back in any write command's message as a link VS Code would render in a
 * notification and run on one click; a URN with a megabyte name must not make a megabyte
 * diagnostic; zero-width characters must not hide in hovers. The real server process over LSP,
 * the real local catalog holding entities with such names.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MESSAGE_LIMIT } from '../../model/src/inertText';
import { ingestBatch } from '../support/catalogHttp';
import { S, sampleCatalog, serverFor, type Catalog } from '../support/fixture';
import { hoverText, positionOf, type LspSession } from '../support/lspClient';
import { activeMarkdown, invisibleCharacters, renderedLinks } from './support/inert';
import type { WriteResult } from '../../model/src/protocol';

const LINK = '[Open docs](command:workbench.action.terminal.new)';
/** `LINK` as a URN part holds it: `(` and `)` are not allowed there, DataHub writes them %28 and %29. */
const LINK_IN_URN = '[Open docs]%28command:workbench.action.terminal.new%29';
const dataset = (name: string): string => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const CRAFTED = {
  dataset: dataset(`db.x${LINK_IN_URN}`),
  missingDataset: dataset(`db.missing${LINK_IN_URN}`),
  table: `urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,t${LINK_IN_URN})`,
  missingTable: `urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,gone${LINK_IN_URN})`,
  feature: `urn:li:mlFeature:(t${LINK_IN_URN},f${LINK_IN_URN})`,
  newFeature: `urn:li:mlFeature:(t${LINK_IN_URN},new${LINK_IN_URN})`,
  missingFeature: `urn:li:mlFeature:(t${LINK_IN_URN},nope${LINK_IN_URN})`,
  model: `urn:li:mlModel:(urn:li:dataPlatform:mlflow,m${LINK_IN_URN},PROD)`,
  group: `urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,g${LINK_IN_URN},PROD)`,
  column: `col${LINK}`,
};

interface Case {
  name: string;
  command: string;
  arg: Record<string, unknown>;
  status: WriteResult['status'];
  graphql?: boolean;
  /** The case whose write this one starts from (made first, in this case's own catalog). */
  given?: string;
}

/** Every write command, through each result it can give with a crafted URN, field path or description. */
const CASES: Case[] = [
  {
    name: 'a description of a dataset not in the catalog',
    command: 'setDatasetDescription',
    arg: { urn: CRAFTED.missingDataset, description: LINK },
    status: 'failed',
  },
  {
    name: 'a description written',
    command: 'setDatasetDescription',
    arg: {
      urn: CRAFTED.dataset,
      description: LINK,
      link: { url: 'https://docs.example/[a](command:b)', description: LINK },
    },
    status: 'written',
  },
  {
    name: 'a description already so',
    given: 'a description written',
    command: 'setDatasetDescription',
    arg: { urn: CRAFTED.dataset, description: LINK },
    status: 'unchanged',
  },
  {
    name: 'a description written through GraphQL',
    given: 'a description written',
    command: 'setDatasetDescription',
    arg: { urn: CRAFTED.dataset, description: `${LINK} again` },
    status: 'written',
    graphql: true,
  },
  {
    name: 'a column the dataset does not have',
    command: 'setColumnDescription',
    arg: { urn: S.users, fieldPath: `nope${LINK}`, description: 'x' },
    status: 'failed',
  },
  {
    name: 'a column with near names in the catalog',
    command: 'setColumnDescription',
    arg: { urn: CRAFTED.dataset, fieldPath: `col${LINK.slice(0, -2)}`, description: 'x' },
    status: 'failed',
  },
  {
    name: 'a column description written',
    command: 'setColumnDescription',
    arg: { urn: CRAFTED.dataset, fieldPath: CRAFTED.column, description: LINK },
    status: 'written',
  },
  {
    name: 'a column description already so',
    given: 'a column description written',
    command: 'setColumnDescription',
    arg: { urn: CRAFTED.dataset, fieldPath: CRAFTED.column, description: LINK },
    status: 'unchanged',
  },
  {
    name: 'a column description already so, through GraphQL',
    given: 'a column description written',
    command: 'setColumnDescription',
    arg: { urn: CRAFTED.dataset, fieldPath: CRAFTED.column, description: LINK },
    status: 'unchanged',
    graphql: true,
  },
  {
    name: 'a feature added to a table',
    command: 'addFeaturesToTable',
    arg: { table: CRAFTED.table, features: [CRAFTED.feature] },
    status: 'written',
  },
  {
    name: 'a feature the table already lists',
    given: 'a feature added to a table',
    command: 'addFeaturesToTable',
    arg: { table: CRAFTED.table, features: [CRAFTED.feature] },
    status: 'unchanged',
  },
  {
    name: 'a feature not in the catalog',
    command: 'addFeaturesToTable',
    arg: { table: CRAFTED.table, features: [CRAFTED.missingFeature] },
    status: 'failed',
  },
  {
    name: 'a table not in the catalog',
    command: 'addFeaturesToTable',
    arg: { table: CRAFTED.missingTable, features: [S.age] },
    status: 'failed',
  },
  {
    name: 'a feature added to a model',
    command: 'addFeaturesToModel',
    arg: { model: CRAFTED.model, features: [CRAFTED.feature] },
    status: 'written',
  },
  {
    name: 'a group added to a model',
    command: 'addGroupsToModel',
    arg: { model: CRAFTED.model, groups: [CRAFTED.group] },
    status: 'written',
  },
  {
    name: 'a group the model already lists',
    given: 'a group added to a model',
    command: 'addGroupsToModel',
    arg: { model: CRAFTED.model, groups: [CRAFTED.group] },
    status: 'unchanged',
  },
  {
    name: 'an entity created',
    command: 'createEntity',
    arg: { urn: CRAFTED.newFeature, properties: { description: LINK } },
    status: 'written',
  },
  {
    name: 'an entity that exists already',
    given: 'an entity created',
    command: 'createEntity',
    arg: { urn: CRAFTED.newFeature, properties: {} },
    status: 'failed',
  },
  {
    name: 'a URN that does not parse',
    command: 'setDatasetDescription',
    arg: { urn: dataset(`x${LINK}`), description: 'x' },
    status: 'failed',
  },
  {
    name: 'a URN of another kind',
    command: 'addFeaturesToTable',
    arg: { table: CRAFTED.table, features: [`urn:li:corpuser:u${LINK_IN_URN}`] },
    status: 'failed',
  },
];

/** What a message must be, whatever it quotes: no link VS Code renders, nothing hidden, bounded. */
function assertInertMessage(message: string, why: string): void {
  assert.deepEqual(renderedLinks(message), [], `${why}: ${message}`);
  assert.deepEqual(invisibleCharacters(message), [], `${why}: ${message}`);
  assert.ok(message.length <= MESSAGE_LIMIT, `${why}: ${message.length} characters`);
}

/** The sample catalog with entities whose names hold `LINK`. */
async function craftedCatalog(): Promise<Catalog> {
  const catalog = await sampleCatalog();
  const status = await ingestBatch(catalog.url, [
    {
      entityType: 'dataset',
      urn: CRAFTED.dataset,
      aspectName: 'schemaMetadata',
      value: { fields: [{ fieldPath: CRAFTED.column }, { fieldPath: 'age' }] },
    },
    {
      entityType: 'mlFeatureTable',
      urn: CRAFTED.table,
      aspectName: 'mlFeatureTableProperties',
      value: { mlFeatures: [] },
    },
    { entityType: 'mlFeature', urn: CRAFTED.feature, aspectName: 'mlFeatureProperties', value: { description: 'f' } },
    {
      entityType: 'mlModel',
      urn: CRAFTED.model,
      aspectName: 'mlModelProperties',
      value: { mlFeatures: [], groups: [] },
    },
    {
      entityType: 'mlModelGroup',
      urn: CRAFTED.group,
      aspectName: 'mlModelGroupProperties',
      value: { description: 'g' },
    },
    {
      entityType: 'dataset',
      urn: dataset('db.zero\u200Bwidth'),
      aspectName: 'datasetProperties',
      value: { description: 'hidden\u200Bzero\uFEFFwidth\u2060text' },
    },
  ]);
  assert.equal(status, 200);
  return catalog;
}

describe('untrusted document text in write results, diagnostics and hovers (over LSP, the real local catalog)', () => {
  let catalog: Catalog;
  let aspectsPath: LspSession;
  before(async () => {
    catalog = await craftedCatalog();
    aspectsPath = await serverFor(catalog.url);
  });
  after(async () => {
    await aspectsPath.stop();
    await catalog.close();
  });

  for (const c of CASES) {
    test(`${c.command}, ${c.name}: the message names it without a link`, async (t) => {
      // A catalog of its own: what the write finds there is what `given` put there, nothing else.
      const own = await craftedCatalog();
      const servers = new Map<boolean, LspSession>();
      t.after(async () => {
        for (const s of servers.values()) await s.stop();
        await own.close();
      });
      const serverOn = async (graphql = false): Promise<LspSession> => {
        if (!servers.has(graphql))
          servers.set(graphql, await serverFor(own.url, graphql ? { settings: { writePath: 'graphql' } } : {}));
        return servers.get(graphql)!;
      };
      if (c.given) {
        const g = CASES.find((x) => x.name === c.given)!;
        const setup = await serverOn(g.graphql);
        assert.equal((await setup.command<WriteResult>(`catalogLens.${g.command}`, g.arg)).status, g.status, c.given);
      }
      const lsp = await serverOn(c.graphql);
      const r = await lsp.command<WriteResult>(`catalogLens.${c.command}`, c.arg);
      assert.equal(r.status, c.status, r.message);
      assertInertMessage(r.message, c.name);
      // The crafted text is still quoted, so the user reads what the file says.
      if (!/not a valid URN|must be a/.test(r.message)) assert.match(r.message, /\[Open docs\]/);
    });
  }

  test('the unknown-urn diagnostic of a URN with a megabyte name is bounded, and no diagnostic holds a hidden character', async () => {
    const uri = 'file:///w/long-name.py';
    const text = `x = "${dataset('a'.repeat(1 << 20))}"\ny = "${dataset('db.gh\u200Bost')}"\nz = "${dataset('db.bi\u202Edi')}"\n`;
    await aspectsPath.open(uri, 'python', text);
    const ds = await aspectsPath.diagnostics(uri, (d) => d.filter((x) => x.code === 'unknown-urn').length === 3);
    for (const d of ds) {
      const message = String(d.message);
      assert.ok(message.length <= MESSAGE_LIMIT, `${d.code}: ${message.length} characters`);
      assert.deepEqual(invisibleCharacters(message), [], message);
    }
    assert.match(
      String(ds.find((d) => String(d.message).includes('gh'))!.message),
      /db\.gh\\u200Bost is not in the catalog/,
    );
  });

  test('a hover keeps no zero-width character of the name or the description: each is shown as an escape', async () => {
    const uri = 'file:///w/zero-width.py';
    const text = `x = "${dataset('db.zero\u200Bwidth')}"\n`;
    await aspectsPath.open(uri, 'python', text);
    const h = hoverText(await aspectsPath.hover(uri, positionOf(text, 'db.zero')));
    assert.match(h, /hidden\\u200Bzero\\uFEFFwidth\\u2060text/);
    assert.deepEqual(invisibleCharacters(h), []);
    assert.deepEqual(
      activeMarkdown(h, (t) => t.startsWith(catalog.url)),
      [],
    );
  });
});
