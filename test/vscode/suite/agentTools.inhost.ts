/**
 * The agent bridge's language model tools in the extension host: listed in `vscode.lm.tools` and
 * invoked through `vscode.lm.invokeTool`, as Copilot's agent mode calls them, answering from the
 * server what the editor shows. Skipped in a VS Code without the language model tools API.
 *
 * The MCP server the extension offers through VS Code's MCP server definition API: VS Code starts
 * it (`workbench.mcp.startServer`) and lists its tools beside the others, answering for the
 * workspace folder. Skipped, saying so, in a VS Code without that API. (VS Code's "MCP: List
 * Servers" is not offered in code-server, whose product has no chat setup: the command's
 * precondition hides it.)
 */
import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { describe, test } from 'node:test';
import * as vscode from 'vscode';
import { EXTENSION_ID, openFile, URNS, WAIT_MS } from './support';

/** The part of `vscode.lm` used here (newer than the typings the extension builds against). */
interface Lm {
  tools?: ReadonlyArray<{ name: string; inputSchema?: unknown }>;
  invokeTool?(
    name: string,
    options: { input: object; toolInvocationToken: undefined },
    token?: vscode.CancellationToken,
  ): Thenable<{ content: unknown[] }>;
}

const lm = (vscode as unknown as { lm?: Lm }).lm;

/** The text parts of a tool's result. */
function textOf(result: { content: unknown[] }): string {
  return result.content
    .map((p) => (p as { value?: unknown }).value)
    .filter((v) => typeof v === 'string')
    .join('');
}

describe('language model tools through vscode.lm', () => {
  test('each tool is listed, and problems and where_used answer what the editor shows', async (t) => {
    if (typeof lm?.invokeTool !== 'function') {
      t.skip(`this VS Code (${vscode.version}) has no vscode.lm.invokeTool`);
      return;
    }
    await openFile('catalog/datasets.yml');
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
    const names = (lm.tools ?? []).map((tool) => tool.name).filter((n) => n.startsWith('catalogLens_'));
    // The six read-only tools, and the three write tools (which refuse while the setting is off).
    assert.deepEqual(names.sort(), [
      'catalogLens_add_link',
      'catalogLens_append_members',
      'catalogLens_describe',
      'catalogLens_entities_in_files',
      'catalogLens_impact',
      'catalogLens_problems',
      'catalogLens_search',
      'catalogLens_set_description',
      'catalogLens_where_used',
    ]);
    const problems = textOf(
      await lm.invokeTool('catalogLens_problems', { input: { kind: 'deprecated' }, toolInvocationToken: undefined }),
    );
    assert.match(
      problems,
      /pipelines\/features\.py:66:\d+ warning \[deprecated-urn\]: Dataset db\.users_legacy is deprecated/,
    );
    const used = textOf(
      await lm.invokeTool('catalogLens_where_used', { input: { urn: URNS.users }, toolInvocationToken: undefined }),
    );
    assert.match(used, /sql\/revenue\.sql:4:12/);
    // Bad input: the tool's error reaches the caller.
    await assert.rejects(
      Promise.resolve(
        lm.invokeTool('catalogLens_describe', { input: { urn: 'nope' }, toolInvocationToken: undefined }),
      ),
    );
  });

  test('entities_in_files, search and impact answer for the demo as the editor shows it', async (t) => {
    if (typeof lm?.invokeTool !== 'function') {
      t.skip(`this VS Code (${vscode.version}) has no vscode.lm.invokeTool`);
      return;
    }
    await openFile('catalog/datasets.yml');
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
    const call = async (name: string, input: object): Promise<string> =>
      textOf(await lm.invokeTool!(`catalogLens_${name}`, { input, toolInvocationToken: undefined }));
    const named = await call('entities_in_files', { paths: ['sql/revenue.sql'] });
    assert.match(named, /entities named in those paths \(catalog: connected\)/);
    assert.ok(named.includes(`- ${URNS.users} [dataset, known]`), named);
    assert.match(named, /named at sql\/revenue\.sql:4:12/);
    const found = await call('search', { query: 'users', kind: 'dataset' });
    assert.ok(found.includes(`- ${URNS.users} [dataset, hive] named`), found);
    const downstream = await call('impact', { urn: URNS.users, depth: 1 });
    assert.match(downstream, /^- hop 1: urn:li:/m);
    assert.doesNotMatch(downstream, /^- hop 2:/m);
  });

  test('each write tool, with catalogLens.agentTools.writes off (the default), refuses and writes nothing', async (t) => {
    if (typeof lm?.invokeTool !== 'function') {
      t.skip(`this VS Code (${vscode.version}) has no vscode.lm.invokeTool`);
      return;
    }
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
    assert.notEqual(vscode.workspace.getConfiguration('catalogLens').get('agentTools.writes'), true);
    const writes: Array<[string, object]> = [
      ['set_description', { urn: URNS.users, description: 'Written by a model that may not write.' }],
      ['add_link', { urn: URNS.users, url: 'https://example.com/runbook', label: 'Runbook' }],
      ['append_members', { urn: URNS.usersTable, features: [URNS.age] }],
    ];
    for (const [name, input] of writes)
      await assert.rejects(
        Promise.resolve(lm.invokeTool(`catalogLens_${name}`, { input, toolInvocationToken: undefined })),
        /writes are not enabled.*catalogLens\.agentTools\.writes/s,
        name,
      );
  });
});

/** The part of `vscode.lm` the MCP server definition API adds (VS Code 1.101 and later). */
interface McpLm {
  registerMcpServerDefinitionProvider?: unknown;
}

describe('the MCP server offered to VS Code (its MCP server definition API)', () => {
  test('VS Code runs the extension’s definition, catalog-lens mcp on the workspace folder, and lists its tools', async (t) => {
    const mcpApi = vscode as unknown as { lm?: McpLm; McpStdioServerDefinition?: unknown };
    if (typeof mcpApi.lm?.registerMcpServerDefinitionProvider !== 'function' || !mcpApi.McpStdioServerDefinition) {
      t.skip(
        `this VS Code (${vscode.version}) has no vscode.lm.registerMcpServerDefinitionProvider (VS Code 1.101 and later have it)`,
      );
      return;
    }
    if (typeof lm?.invokeTool !== 'function') {
      t.skip(`this VS Code (${vscode.version}) has no vscode.lm.invokeTool`);
      return;
    }
    await openFile('catalog/datasets.yml');
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
    // VS Code starts the servers its providers define (ours: one per workspace folder) and waits for their tools.
    await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
    const ours = new Set(['entities_in_files', 'where_used', 'problems', 'describe', 'search', 'impact']);
    const started = Date.now();
    let served: string[] = [];
    while (Date.now() - started < WAIT_MS) {
      served = (lm.tools ?? [])
        .map((tool) => tool.name)
        .filter((n) => !n.startsWith('catalogLens_') && [...ours].some((o) => n.endsWith(o)));
      if (served.length === ours.size) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    t.diagnostic(`the MCP server's tools as VS Code lists them: ${JSON.stringify(served)}`);
    assert.equal(served.length, ours.size, `the six tools of catalog-lens mcp: ${JSON.stringify(served)}`);
    // Served on the workspace folder (`catalog-lens mcp <folder>`): paths relative to it, as the editor's own tool answers.
    const whereUsed = served.find((n) => n.endsWith('where_used'))!;
    const used = textOf(await lm.invokeTool(whereUsed, { input: { urn: URNS.users }, toolInvocationToken: undefined }));
    // VS Code hands the model the tool's structured content (or its text): the same place either way.
    assert.match(used, /sql\/revenue\.sql(:4:12|","line":4,"column":12)/);
  });
});

/** Waits until the language server answers from the launcher's catalog again, its commands registered. */
async function serverBackOnCatalog(): Promise<void> {
  const started = Date.now();
  let last = '';
  await new Promise((resolve) => setTimeout(resolve, 500));
  while (Date.now() - started < 2 * WAIT_MS) {
    const registered = (await vscode.commands.getCommands(true)).includes('catalogLens.setDatasetDescription');
    last = await Promise.resolve(
      lm!.invokeTool!('catalogLens_describe', { input: { urn: URNS.users }, toolInvocationToken: undefined }),
    ).then(textOf, (e: unknown) => String(e));
    if (registered && /One row per registered user/.test(last)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the language server is not back on the catalog: ${last}`);
}

describe('a language model tool invocation cancelled by its token', () => {
  test('the server request is cancelled with it: the catalog connection closes and the invocation ends at once', async (t) => {
    if (typeof lm?.invokeTool !== 'function') {
      t.skip(`this VS Code (${vscode.version}) has no vscode.lm.invokeTool`);
      return;
    }
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
    // A catalog that accepts connections and never answers, made the catalog for this test.
    const requests: Array<{ socket: Socket; text: string }> = [];
    const hung: Server = createServer((socket) => {
      const r = { socket, text: '' };
      requests.push(r);
      socket.on('data', (d: Buffer) => (r.text += d.toString('utf8')));
    });
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('catalogLens');
    const original = settings().inspect<string>('url')?.globalValue;
    try {
      try {
        await settings().update(
          'url',
          `http://127.0.0.1:${(hung.address() as AddressInfo).port}`,
          vscode.ConfigurationTarget.Global,
        );
      } catch (err) {
        t.skip(`catalogLens.url (a machine setting) cannot be changed from here: ${String(err)}`);
        return;
      }
      const source = new vscode.CancellationTokenSource();
      const call = Promise.resolve(
        lm.invokeTool(
          'catalogLens_impact',
          { input: { urn: URNS.revenue }, toolInvocationToken: undefined },
          source.token,
        ),
      );
      call.catch(() => undefined);
      const started = Date.now();
      let lineage: { socket: Socket; text: string } | undefined;
      while (!lineage && Date.now() - started < WAIT_MS) {
        lineage = requests.find((r) => r.text.includes('query entityLineage'));
        if (!lineage) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.ok(lineage, 'the tool asked the catalog for the lineage');
      const cancelled = Date.now();
      source.cancel();
      const closed = new Promise<number>((resolve) =>
        lineage.socket.destroyed ? resolve(0) : lineage.socket.once('close', () => resolve(Date.now() - cancelled)),
      );
      const ended = await Promise.race([
        call.then(
          () => 'answered',
          (e: unknown) => `rejected: ${String(e)}`,
        ),
        new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 5000)),
      ]);
      assert.match(ended, /^rejected: .*cancel/i, 'the invocation ends, cancelled');
      const closedAfter = await Promise.race([
        closed,
        new Promise<number>((resolve) => setTimeout(() => resolve(-1), 5000)),
      ]);
      t.diagnostic(
        `ended ${Date.now() - cancelled} ms after the cancel (${ended}); the catalog connection closed after ${closedAfter} ms`,
      );
      assert.ok(closedAfter >= 0, 'the catalog request was aborted');
    } finally {
      await settings().update('url', original, vscode.ConfigurationTarget.Global);
      for (const r of requests) r.socket.destroy();
      await new Promise<void>((resolve) => hung.close(() => resolve()));
      // The url's change restarts the language server: the next tests find it back on the catalog.
      await serverBackOnCatalog();
    }
  });
});
