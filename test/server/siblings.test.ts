/**
 * Siblings: a warehouse table documented on its dbt side. Its own description and a
 * column's are empty; the dbt sibling's fill them, as DataHub's UI merges siblings: no "missing
 * description" there, the hover shows the text and says where it came from; what neither has is
 * still flagged. Through the real server against the real local catalog, both modes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { caret, hoverText } from '../support/lspClient';
import { COMPAT_MODES, useSampleServerPerTest, type Catalog } from '../support/fixture';

const TABLE = 'urn:li:dataset:(urn:li:dataPlatform:snowflake,analytics.customers,PROD)';
const MODEL = 'urn:li:dataset:(urn:li:dataPlatform:dbt,analytics.customers,PROD)';

async function ingest(catalog: Catalog, urn: string, aspectName: string, value: unknown): Promise<void> {
  const r = await fetch(`${catalog.url}/aspects?action=ingestProposal`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      proposal: {
        entityType: 'dataset',
        entityUrn: urn,
        changeType: 'UPSERT',
        aspectName,
        aspect: { value: JSON.stringify(value), contentType: 'application/json' },
      },
      async: 'false',
    }),
  });
  assert.equal(r.status, 200, `${aspectName} of ${urn}: ${await r.text()}`);
}

const field = (fieldPath: string, description?: string): Record<string, unknown> => ({
  fieldPath,
  nullable: true,
  ...(description ? { description } : {}),
  type: { type: { 'com.linkedin.schema.StringType': {} } },
  nativeDataType: 'varchar',
  recursive: false,
  isPartOfKey: false,
});

const schema = (name: string, platform: string, fields: Array<Record<string, unknown>>): Record<string, unknown> => ({
  schemaName: name,
  platform,
  version: 0,
  hash: '',
  platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
  fields,
});

async function seed(catalog: Catalog): Promise<void> {
  await ingest(catalog, TABLE, 'datasetProperties', { name: 'customers', customProperties: {} });
  await ingest(
    catalog,
    TABLE,
    'schemaMetadata',
    schema('analytics.customers', 'urn:li:dataPlatform:snowflake', [field('id'), field('email'), field('segment')]),
  );
  await ingest(catalog, TABLE, 'siblings', { siblings: [MODEL], primary: false });
  await ingest(catalog, MODEL, 'datasetProperties', {
    name: 'customers',
    description: 'One row per paying customer.',
    customProperties: {},
  });
  await ingest(
    catalog,
    MODEL,
    'schemaMetadata',
    schema('customers', 'urn:li:dataPlatform:dbt', [
      field('id', 'Customer key.'),
      field('email', 'Billing e-mail.'),
      field('segment'),
    ]),
  );
  await ingest(catalog, MODEL, 'siblings', { siblings: [TABLE], primary: true });
}

for (const compat of COMPAT_MODES)
  describe(`siblings (${compat} catalog)`, () => {
    const env = useSampleServerPerTest({}, compat);

    test("the dbt sibling fills the table's empty description and columns; what neither has is still flagged", async () => {
      await seed(env.catalog);
      const uri = 'file:///w/customers.yml';
      const text = `datasets:\n  - urn: ${TABLE}\n    columns:\n      - name: email\n      - name: segment\n`;
      await env.lsp.open(uri, 'yaml', text);
      const ds = await env.lsp.diagnostics(uri, (all) => all.some((d) => d.code === 'missing-column-description'));
      assert.deepEqual(
        ds.map((d) => [d.code, typeof d.message === 'string' ? d.message : d.message.value]).sort(),
        [['missing-column-description', "Column 'segment' of analytics.customers has no description"]],
        'no missing description for the table, nor for email: the sibling has them',
      );
      const { text: py, position } = caret(`T = "${TABLE.replace('analytics.customers', 'analytics.cust|omers')}"\n`);
      await env.lsp.open('file:///w/c.py', 'python', py);
      const h = hoverText(await env.lsp.hover('file:///w/c.py', position));
      assert.match(h, /One row per paying customer\./);
      assert.match(h, /_From its sibling `analytics\.customers` \(dbt\), as the catalog shows them together\._/);
      assert.match(h, /`email` \S+ — Billing e-mail\./);
      assert.match(h, /`segment` \S+ — _no description_/);
    });

    test('a dataset with its own description keeps it; no sibling line', async () => {
      await seed(env.catalog);
      await ingest(env.catalog, TABLE, 'editableDatasetProperties', {
        description: 'Customers as the warehouse keeps them.',
      });
      const { text: py, position } = caret(`T = "${TABLE.replace('analytics.customers', 'analytics.cust|omers')}"\n`);
      await env.lsp.open('file:///w/own.py', 'python', py);
      const h = hoverText(await env.lsp.hover('file:///w/own.py', position));
      assert.match(h, /Customers as the warehouse keeps them\./);
      assert.doesNotMatch(h, /One row per paying customer/);
      // Its columns still come from the sibling, and the hover says so.
      assert.match(h, /From its sibling/);
    });
  });
