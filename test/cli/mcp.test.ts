/**
 * `catalog-lens mcp`: the real bin as a process, driven by the MCP SDK's own client over stdio,
 * against the local catalog (its sample) and a copy of examples/: the tools listed, each called,
 * every answer valid against its declared output schema and bounded, bad input answered as a
 * tool error, and the answers the same as Check Workspace's.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import Ajv from 'ajv';
import { MAX_TOOL_TEXT } from '../../server/src/tools/tools';
import { startCatalogProcess, type CatalogProcess } from '../support/catalogProcess';

const ROOT = join(__dirname, '..', '..', '..');
const BIN = join(ROOT, 'bin', 'catalog-lens.js');
const TOKEN = 'mcp-test-token-4b1d';
const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const LEGACY = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users_legacy,PROD)';

/** The environment of the server: nothing of this machine's catalog settings, tokens or DataHub CLI configuration. */
function hermeticEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('CATALOG_LENS_') && !k.startsWith('DATAHUB_')) env[k] = v;
  return { ...env, DATAHUB_SKIP_CONFIG: 'true', ...extra };
}

async function connect(folder: string, env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', folder],
    env: hermeticEnv(env),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const client = new Client({ name: 'catalog-lens-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

describe('catalog-lens mcp (the bin, over stdio, against the local catalog)', () => {
  let catalog: CatalogProcess;
  let work: string;
  let client: Client;
  let stderr: () => string;
  let tools: Tool[];
  const ajv = new Ajv({ strict: false, allErrors: true });

  /** Calls a tool and checks what every answer must be: valid, bounded, the text beside the data. */
  async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    assert.ok(text.length > 0 && text.length <= MAX_TOOL_TEXT, `${name}: text of ${text.length} characters`);
    if (!r.isError) {
      const tool = tools.find((t) => t.name === name)!;
      const validate = ajv.compile(tool.outputSchema!);
      assert.ok(validate(r.structuredContent), `${name}: ${JSON.stringify(validate.errors)}`);
      assert.ok(
        JSON.stringify(r.structuredContent).length <= 4 * MAX_TOOL_TEXT,
        `${name}: structured content too large`,
      );
    }
    return r;
  }

  before(async () => {
    catalog = await startCatalogProcess({ sample: true, token: TOKEN });
    work = mkdtempSync(join(tmpdir(), 'catalog-lens-mcp-'));
    cpSync(join(ROOT, 'examples'), join(work, 'examples'), { recursive: true });
    // Many URNs in one file: lists come in pages.
    writeFileSync(
      join(work, 'many.py'),
      Array.from({ length: 60 }, (_, i) => `T${i} = "urn:li:dataset:(urn:li:dataPlatform:hive,db.t${i},PROD)"`).join(
        '\n',
      ),
    );
    ({ client, stderr } = await connect(work, { CATALOG_LENS_URL: catalog.url, CATALOG_LENS_TOKEN: TOKEN }));
    tools = (await client.listTools()).tools;
  });
  after(async () => {
    await client?.close();
    await catalog?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('lists the six read-only tools, each with input and output schemas', () => {
    assert.deepEqual(
      tools.map((t) => t.name),
      ['entities_in_files', 'where_used', 'problems', 'describe', 'search', 'impact'],
    );
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object');
      assert.equal(t.outputSchema?.type, 'object');
      assert.equal(t.annotations?.readOnlyHint, true);
      ajv.compile(t.inputSchema);
    }
  });

  test('entities_in_files: the entities of a folder, with their state and places', async () => {
    const r = await call('entities_in_files', { paths: ['examples/sql'] });
    const s = r.structuredContent as { entities: Array<Record<string, unknown>>; total: number; catalog: string };
    assert.equal(s.catalog, 'connected');
    assert.equal(s.total, 3);
    const users = s.entities.find((e) => e['urn'] === USERS)!;
    assert.equal(users['state'], 'known');
    assert.deepEqual(users['places'], [{ path: 'examples/sql/revenue.sql', line: 4, column: 12 }]);
    assert.equal(s.entities.find((e) => String(e['urn']).includes('db.orders'))!['state'], 'undocumented');
    const legacy = await call('entities_in_files', { paths: ['examples/pipelines/features.py'], limit: 100 });
    const dep = (legacy.structuredContent as { entities: Array<Record<string, unknown>> }).entities.find(
      (e) => e['urn'] === LEGACY,
    )!;
    assert.equal(dep['state'], 'deprecated');
    assert.equal((dep['deprecation'] as { replacement: string }).replacement, USERS);
  });

  test('entities_in_files pages a long list: limit, offset, nextOffset', async () => {
    const first = await call('entities_in_files', { paths: ['many.py'], limit: 25 });
    const s1 = first.structuredContent as { entities: unknown[]; total: number; nextOffset?: number };
    assert.equal(s1.total, 60);
    assert.equal(s1.entities.length, 25);
    assert.equal(s1.nextOffset, 25);
    assert.match((first.content[0] as { text: string }).text, /call again with offset 25/);
    const last = await call('entities_in_files', { paths: ['many.py'], offset: 50, limit: 25 });
    const s3 = last.structuredContent as { entities: unknown[]; nextOffset?: number };
    assert.equal(s3.entities.length, 10);
    assert.equal(s3.nextOffset, undefined);
    // Unknown to the catalog, every one.
    assert.ok((s3.entities as Array<{ state: string }>).every((e) => e.state === 'unknown'));
  });

  test('where_used by URN and by name: every place, both namespace words, YAML', async () => {
    const byUrn = await call('where_used', { urn: USERS });
    const s = byUrn.structuredContent as { places: Array<{ path: string }>; total: number; files: number };
    assert.ok(s.total >= 2);
    assert.ok(s.places.some((p) => p.path === 'examples/sql/revenue.sql'));
    const byName = await call('where_used', { name: 'users_legacy' });
    const n = byName.structuredContent as { urn: string; places: Array<{ path: string; line: number }> };
    assert.equal(n.urn, LEGACY);
    assert.deepEqual(
      n.places.map((p) => `${p.path}:${p.line}`),
      ['examples/pipelines/features.py:66'],
    );
  });

  test('problems: what catalog-lens check finds, by kind, with the replacement', async () => {
    const all = await call('problems', { limit: 100 });
    const s = all.structuredContent as { total: number; counts: Record<string, number> };
    // The same 22 findings as `catalog-lens check examples` (check.test.ts): plus the 60 unknown of many.py.
    assert.equal(s.total, 22 + 60);
    assert.deepEqual(s.counts, { unknown: 62, deprecated: 3, malformed: 1, undocumented: 12, other: 4 });
    const dep = await call('problems', { kind: 'deprecated' });
    const rows = (dep.structuredContent as { problems: Array<Record<string, unknown>> }).problems;
    assert.equal(rows.length, 3);
    const legacy = rows.find((p) => p['urn'] === LEGACY)!;
    assert.equal(legacy['path'], 'examples/pipelines/features.py');
    assert.equal(legacy['line'], 66);
    assert.equal(legacy['replacement'], USERS);
    const inSql = await call('problems', { paths: ['examples/sql'] });
    assert.ok(
      (inSql.structuredContent as { problems: Array<{ path: string }> }).problems.every((p) =>
        p.path.startsWith('examples/sql/'),
      ),
    );
  });

  test('describe: what the hover says, structured', async () => {
    const r = await call('describe', { urn: LEGACY });
    const s = r.structuredContent as Record<string, unknown>;
    assert.equal(s['state'], 'deprecated');
    assert.equal((s['deprecation'] as { replacement: string }).replacement, USERS);
    assert.equal(s['workspacePlaces'], 1);
    const users = (await call('describe', { urn: USERS })).structuredContent as Record<string, unknown>;
    assert.equal(users['description'], 'One row per registered user of the product.');
    assert.ok(Array.isArray(users['columns']));
    assert.equal(typeof users['downstream'], 'number');
  });

  test('search: the catalog, with how often the workspace names each', async () => {
    const r = await call('search', { query: 'users', kind: 'dataset' });
    const s = r.structuredContent as { items: Array<{ urn: string; workspacePlaces: number }> };
    assert.ok(s.items.some((i) => i.urn === USERS && i.workspacePlaces > 0));
    assert.ok(s.items.every((i) => i.urn.startsWith('urn:li:dataset:')));
  });

  test('impact: downstream entities over hops, with the places using each', async () => {
    const r = await call('impact', { urn: USERS });
    const s = r.structuredContent as {
      entities: Array<{ urn: string; hop: number; placeCount: number }>;
      usedInWorkspace: number;
    };
    assert.ok(s.entities.some((e) => e.hop === 1));
    assert.ok(s.entities.some((e) => e.hop === 2));
    assert.ok(s.usedInWorkspace > 0);
    const one = await call('impact', { urn: USERS, depth: 1 });
    assert.ok((one.structuredContent as { entities: Array<{ hop: number }> }).entities.every((e) => e.hop === 1));
  });

  test('bad input is a tool error, not a protocol error', async () => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['problems', { kind: 'bad' }, /kind must be one of/],
      ['describe', {}, /urn is required/],
      ['describe', { urn: 'not a urn' }, /is not a URN/],
      ['entities_in_files', { limit: 1000 }, /limit must be at most 100/],
      ['entities_in_files', { paths: 'x' }, /paths must be a list/],
      ['where_used', { urn: USERS, bogus: 1 }, /bogus is not a parameter/],
      ['where_used', {}, /either urn or name/],
      ['impact', { urn: 'urn:li:corpuser:jdoe' }, /not a dataset or ML entity/],
    ];
    for (const [name, args, message] of cases) {
      const r = await call(name, args);
      assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}`);
      assert.match((r.content[0] as { text: string }).text, message);
    }
  });

  test('the token is never in what the server says', () => {
    assert.doesNotMatch(stderr(), new RegExp(TOKEN));
    assert.match(stderr(), /serving 6 tools/);
  });

  test('a catalog that does not answer: the tools say so instead of reporting a clean workspace', async () => {
    const down = await connect(work, { CATALOG_LENS_URL: 'http://127.0.0.1:9' });
    try {
      const r = (await down.client.callTool({ name: 'problems', arguments: { kind: 'unknown' } })) as CallToolResult;
      const s = r.structuredContent as { catalog: string; counts: Record<string, number> };
      assert.match(s.catalog, /^unreachable: /);
      assert.equal(s.counts['malformed'], 1, 'the syntax is still checked');
      const e = (await down.client.callTool({
        name: 'entities_in_files',
        arguments: { paths: ['examples/sql'] },
      })) as CallToolResult;
      const es = e.structuredContent as { catalog: string; entities: Array<{ state: string }> };
      assert.match(es.catalog, /^unreachable: /);
      assert.ok(es.entities.every((x) => x.state === 'error'));
    } finally {
      await down.client.close();
    }
  });

  test('a config file in the folder may not name the catalog when a token is set: refused at start', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'catalog-lens-mcp-repo-'));
    try {
      writeFileSync(join(repo, '.catalog-lens.json'), JSON.stringify({ url: 'http://evil.example' }));
      await assert.rejects(connect(repo, { CATALOG_LENS_TOKEN: TOKEN }));
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
