/**
 * The impact tool through data jobs, charts and dashboards, in both catalog modes: the local
 * catalog loaded with a lineage graph in DataHub's MCP shapes (test/fixtures/datahub-lineage), a
 * workspace naming some of its entities, and the tool asked both ways an agent asks it: over MCP
 * (the bin over stdio, driven by the SDK's client) and over the language server's protocol
 * (`catalogLens/tool`, the language model tools' request). Both give the same walk: a dataset, the
 * job that reads it, the datasets the job writes; a dataset, the chart that reads it, the dashboard
 * holding the chart; each with the workspace's places.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import Ajv from 'ajv';
import { startCatalog } from '../../catalog/src/server';
import { ToolRequest, type ToolResult } from '../../model/src/protocol';
import { TOOLS } from '../../server/src/tools/tools';
import { COMPAT_MODES, serverFor, type Catalog } from '../support/fixture';
import type { LspSession } from '../support/lspClient';

const ROOT = join(__dirname, '..', '..', '..');
const BIN = join(ROOT, 'bin', 'catalog-lens.js');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'datahub-lineage', 'jobs-and-charts.json');

const P = 'urn:li:dataPlatform:postgres';
const RAW = `urn:li:dataset:(${P},shop.public.raw_orders,PROD)`;
const CLEAN = `urn:li:dataset:(${P},shop.public.orders_clean,PROD)`;
const DAILY = `urn:li:dataset:(${P},shop.public.daily_sales,PROD)`;
const FLOW = 'urn:li:dataFlow:(airflow,shop_etl,PROD)';
const CLEAN_JOB = `urn:li:dataJob:(${FLOW},clean_orders)`;
const AGG_JOB = `urn:li:dataJob:(${FLOW},aggregate_sales)`;
const CHART = 'urn:li:chart:(looker,sales_by_day)';
const DASHBOARD = 'urn:li:dashboard:(looker,sales_overview)';

/** The workspace: pipelines naming the datasets and jobs, a YAML file naming the dashboard. */
const FILES: Record<string, string> = {
  'etl/clean_orders.py': `RAW = "${RAW}"\nJOB = "${CLEAN_JOB}"\nOUT = "${CLEAN}"\n`,
  'etl/aggregate_sales.py': `JOB = "${AGG_JOB}"\nOUT = "${DAILY}"\n`,
  'dashboards/sales.yml': `dashboard: "${DASHBOARD}"\n`,
};

interface Row {
  urn: string;
  kind: string;
  name: string;
  hop: number;
  via: string;
  placeCount: number;
  places: Array<{ path: string; line: number }>;
}
type Impact = { entities: Row[]; total: number; usedInWorkspace: number; truncated?: boolean };
type Ask = (args: Record<string, unknown>) => Promise<{ structured: Impact; text: string }>;

function hermeticEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('CATALOG_LENS_') && !k.startsWith('DATAHUB_')) env[k] = v;
  return { ...env, DATAHUB_SKIP_CONFIG: 'true', ...extra };
}

/** Rows as `hop urn ← via (places)`, by hop then URN (code-unit order): what the walk found, comparable across both ways. */
const walk = (s: Impact): string[] =>
  [...s.entities]
    .sort((a, b) => a.hop - b.hop || (a.urn < b.urn ? -1 : 1))
    .map((e) => `${e.hop} ${e.urn} ← ${e.via} (${e.places.map((p) => `${p.path}:${p.line}`).join(', ')})`);

/** What both ways must answer. */
function impactTests(ask: () => Ask): void {
  test('a dataset: the job that reads it, the dataset and the job after it, then what that job writes', async () => {
    const { structured: s, text } = await ask()({ urn: RAW, depth: 3 });
    assert.deepEqual(walk(s), [
      `1 ${CLEAN_JOB} ← ${RAW} (etl/clean_orders.py:2)`,
      `2 ${AGG_JOB} ← ${CLEAN_JOB} (etl/aggregate_sales.py:1)`,
      `2 ${CLEAN} ← ${CLEAN_JOB} (etl/clean_orders.py:3)`,
      `3 ${DAILY} ← ${AGG_JOB} (etl/aggregate_sales.py:2)`,
    ]);
    assert.equal(s.usedInWorkspace, 4);
    const job = s.entities.find((e) => e.urn === CLEAN_JOB)!;
    assert.equal(job.kind, 'dataJob');
    assert.equal(job.name, 'clean_orders');
    assert.match(text, /^4 entities downstream of .* within 3 hops; the workspace names 4 of them\./);
    assert.match(
      text,
      /hop 1: urn:li:dataJob:\(urn:li:dataFlow:\(airflow,shop_etl,PROD\),clean_orders\) \[dataJob\] named at etl\/clean_orders\.py:2:8/,
    );
    // Bounded as before: two hops stop before what the second job writes.
    const two = (await ask()({ urn: RAW })).structured;
    assert.deepEqual(two.entities.map((e) => e.urn).sort(), [AGG_JOB, CLEAN, CLEAN_JOB].sort());
  });

  test('a dataset: the chart that reads it, then the dashboard holding the chart', async () => {
    const { structured: s } = await ask()({ urn: DAILY });
    assert.deepEqual(walk(s), [`1 ${CHART} ← ${DAILY} ()`, `2 ${DASHBOARD} ← ${CHART} (dashboards/sales.yml:1)`]);
    assert.deepEqual(
      s.entities.map((e) => [e.kind, e.name]),
      [
        ['dashboard', 'Sales overview'],
        ['chart', 'Sales by day'],
      ],
      'the one the workspace names first',
    );
    assert.equal(s.usedInWorkspace, 1);
  });

  test('a data job and a chart are starts too', async () => {
    const job = (await ask()({ urn: CLEAN_JOB, depth: 1 })).structured;
    assert.deepEqual(walk(job), [
      `1 ${AGG_JOB} ← ${CLEAN_JOB} (etl/aggregate_sales.py:1)`,
      `1 ${CLEAN} ← ${CLEAN_JOB} (etl/clean_orders.py:3)`,
    ]);
    const chart = (await ask()({ urn: CHART })).structured;
    assert.deepEqual(walk(chart), [`1 ${DASHBOARD} ← ${CHART} (dashboards/sales.yml:1)`]);
    const dashboard = (await ask()({ urn: DASHBOARD })).structured;
    assert.equal(dashboard.total, 0);
  });
}

for (const compat of COMPAT_MODES)
  describe(`impact through data jobs and charts (${compat} catalog)`, () => {
    let catalog: Catalog;
    let dir: string;
    let lsp: LspSession;
    let mcp: Client;
    const outputSchema = TOOLS.find((t) => t.name === 'impact')!.outputSchema;
    const validate = new Ajv({ strict: false, allErrors: true }).compile(outputSchema);

    before(async () => {
      catalog = await startCatalog({
        port: 0,
        db: ':memory:',
        log: () => undefined,
        compat,
        load: [{ file: FIXTURE, text: readFileSync(FIXTURE, 'utf8') }],
      });
      assert.deepEqual(
        catalog.loadReport?.refusals ?? [],
        [],
        `every item of the fixture is loaded: ${JSON.stringify(catalog.loadReport)}`,
      );
      dir = mkdtempSync(join(tmpdir(), 'catalog-lens-impact-'));
      for (const [path, text] of Object.entries(FILES)) {
        mkdirSync(join(dir, path, '..'), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      lsp = await serverFor(catalog.url, {
        workspaceFolders: [{ uri: pathToFileURL(dir).toString(), name: 'shop' }],
      });
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', dir],
        env: hermeticEnv({ CATALOG_LENS_URL: catalog.url }),
        stderr: 'pipe',
      });
      mcp = new Client({ name: 'catalog-lens-test', version: '1.0.0' });
      await mcp.connect(transport);
    });
    after(async () => {
      await mcp?.close();
      await lsp?.stop();
      await catalog?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    describe('over MCP', () => {
      impactTests(() => async (args) => {
        const r = (await mcp.callTool({ name: 'impact', arguments: args })) as CallToolResult;
        const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
        assert.ok(!r.isError, text);
        assert.ok(validate(r.structuredContent), JSON.stringify(validate.errors));
        return { structured: r.structuredContent as unknown as Impact, text };
      });
    });

    describe('over the language server’s catalogLens/tool', () => {
      impactTests(() => async (args) => {
        const r = await lsp.connection.sendRequest<ToolResult>(ToolRequest.method, { name: 'impact', input: args });
        assert.ok(r.structured, JSON.stringify(r));
        assert.ok(validate(r.structured), JSON.stringify(validate.errors));
        return { structured: r.structured as unknown as Impact, text: r.text };
      });
    });
  });
