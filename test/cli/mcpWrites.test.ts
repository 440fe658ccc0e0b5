/**
 * `catalog-lens mcp`'s write tools: the real bin over stdio, driven by the MCP SDK's client, against
 * the local catalog (its sample). Without --allow-writes they are not listed and a call is a tool
 * error that writes nothing; with it, each writes through the server's write commands, and what it
 * wrote is read back from the catalog.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import Ajv from 'ajv';
import { aspects } from '../support/catalogHttp';
import { startCatalogProcess, type CatalogProcess } from '../support/catalogProcess';

const ROOT = join(__dirname, '..', '..', '..');
const BIN = join(ROOT, 'bin', 'catalog-lens.js');
const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const USERS_TABLE = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users_table)';
const ORDER_COUNT = 'urn:li:mlFeature:(orders_table,order_count)';
const AGE = 'urn:li:mlFeature:(users_table,age)';

function hermeticEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('CATALOG_LENS_') && !k.startsWith('DATAHUB_')) env[k] = v;
  return { ...env, DATAHUB_SKIP_CONFIG: 'true', ...extra };
}

async function connect(args: string[], env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: hermeticEnv(env),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'catalog-lens-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('catalog-lens mcp write tools (the bin, over stdio, against the local catalog)', () => {
  let catalog: CatalogProcess;
  let work: string;
  let readOnly: Client;
  let writing: Client;
  const ajv = new Ajv({ strict: false, allErrors: true });

  before(async () => {
    catalog = await startCatalogProcess({ sample: true });
    work = mkdtempSync(join(tmpdir(), 'catalog-lens-mcp-writes-'));
    writeFileSync(join(work, 'job.py'), `SOURCE = "${USERS}"\n`);
    readOnly = await connect([work], { CATALOG_LENS_URL: catalog.url });
    writing = await connect([work, '--allow-writes'], { CATALOG_LENS_URL: catalog.url });
  });
  after(async () => {
    await readOnly?.close();
    await writing?.close();
    await catalog?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('without --allow-writes: the write tools are not listed, and a call is refused as a tool error', async () => {
    const names = (await readOnly.listTools()).tools.map((t) => t.name);
    assert.ok(!names.includes('set_description'), names.join());
    const before = await aspects(catalog.url, USERS, ['editableDatasetProperties']);
    const r = (await readOnly.callTool({
      name: 'set_description',
      arguments: { urn: USERS, description: 'Written by an agent that may not write.' },
    })) as CallToolResult;
    assert.equal(r.isError, true);
    assert.match(textOf(r), /not enabled.*--allow-writes.*Nothing was written/s);
    assert.deepEqual(await aspects(catalog.url, USERS, ['editableDatasetProperties']), before);
  });

  test('with --allow-writes: the write tools are listed as writing, with their schemas', async () => {
    const tools = (await writing.listTools()).tools;
    const writes = tools.filter((t) => t.annotations?.readOnlyHint === false).map((t) => t.name);
    assert.deepEqual(writes, ['set_description', 'add_link', 'append_members']);
    for (const t of tools) ajv.compile(t.inputSchema);
  });

  async function write(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const r = (await writing.callTool({ name, arguments: args })) as CallToolResult;
    if (!r.isError) {
      const tool = (await writing.listTools()).tools.find((t) => t.name === name)!;
      const validate = ajv.compile(tool.outputSchema!);
      assert.ok(validate(r.structuredContent), `${name}: ${JSON.stringify(validate.errors)}`);
    }
    return r;
  }

  test('set_description writes a dataset’s description, then answers unchanged when it is already so', async () => {
    const text = 'Every user since 2019, as an agent described it.';
    const r = await write('set_description', { urn: USERS, description: text });
    assert.equal(r.isError, undefined, textOf(r));
    assert.equal((r.structuredContent as { status: string }).status, 'written');
    assert.match(textOf(r), /Wrote the description of dataset db\.users/);
    const read = await aspects(catalog.url, USERS, ['editableDatasetProperties']);
    assert.equal(read['editableDatasetProperties']?.description, text);
    const again = await write('set_description', { urn: USERS, description: text });
    assert.equal((again.structuredContent as { status: string }).status, 'unchanged');
  });

  test('set_description of a column and of an ML entity', async () => {
    const col = await write('set_description', { urn: USERS, column: 'email', description: 'The sign-up address.' });
    assert.equal(col.isError, undefined, textOf(col));
    const schema = await aspects(catalog.url, USERS, ['editableSchemaMetadata']);
    const entry = (schema['editableSchemaMetadata']?.editableSchemaFieldInfo as Array<Record<string, unknown>>).find(
      (e) => String(e['fieldPath']).endsWith('email'),
    );
    assert.equal(entry?.['description'], 'The sign-up address.');
    const ml = await write('set_description', { urn: AGE, description: 'Age in whole years.' });
    assert.equal(ml.isError, undefined, textOf(ml));
    assert.match(textOf(ml), /Wrote the description of/);
  });

  test('add_link adds a link to a dataset and keeps its description', async () => {
    const before = await aspects(catalog.url, USERS, ['editableDatasetProperties']);
    const r = await write('add_link', { urn: USERS, url: 'https://wiki.example/users', label: 'Runbook' });
    assert.equal(r.isError, undefined, textOf(r));
    const read = await aspects(catalog.url, USERS, ['institutionalMemory', 'editableDatasetProperties']);
    const links = read['institutionalMemory']?.elements as Array<Record<string, unknown>>;
    assert.ok(links.some((l) => l['url'] === 'https://wiki.example/users' && l['description'] === 'Runbook'));
    assert.deepEqual(read['editableDatasetProperties'], before['editableDatasetProperties']);
    const again = await write('add_link', { urn: USERS, url: 'https://wiki.example/users' });
    assert.equal((again.structuredContent as { status: string }).status, 'unchanged');
  });

  test('append_members appends a feature to a feature table, exactly once', async () => {
    const r = await write('append_members', { urn: USERS_TABLE, features: [ORDER_COUNT] });
    assert.equal(r.isError, undefined, textOf(r));
    assert.deepEqual((r.structuredContent as { added: string[] }).added, [ORDER_COUNT]);
    const read = await aspects(catalog.url, USERS_TABLE, ['mlFeatureTableProperties']);
    const features = read['mlFeatureTableProperties']?.mlFeatures as string[];
    assert.equal(features.filter((f) => f === ORDER_COUNT).length, 1);
    const again = await write('append_members', { urn: USERS_TABLE, features: [ORDER_COUNT] });
    assert.equal((again.structuredContent as { status: string }).status, 'unchanged');
  });

  test('bad writes are tool errors that name what is wrong', async () => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['set_description', { urn: USERS }, /description is required/],
      ['set_description', { urn: USERS_TABLE, column: 'x', description: 'd' }, /a column is of a dataset/],
      ['add_link', { urn: USERS, url: 'ftp://x.example/a' }, /http\(s\) URL/],
      ['append_members', { urn: USERS_TABLE, features: [AGE], groups: [] }, /either features or groups/],
      ['append_members', { urn: USERS_TABLE, features: ['urn:li:mlFeature:(users_table,nope)'] }, /not in the catalog/],
      [
        'set_description',
        { urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.nope,PROD)', description: 'd' },
        /failed/,
      ],
    ];
    for (const [name, args, message] of cases) {
      const r = await write(name, args);
      assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}`);
      assert.match(textOf(r), message, `${name} ${JSON.stringify(args)}`);
    }
  });
});
