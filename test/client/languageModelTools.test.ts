/**
 * The language model tools VS Code is told of (package.json `contributes.languageModelTools`) are
 * the server's tools, with the same input schemas, each activating the extension; the protocol's
 * list of tool names is the server's.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { AGENT_TOOLS } from '../../model/src/protocol';
import { AGENT_WRITE_TOOLS } from '../../model/src/agentWrites';
import { TOOLS } from '../../server/src/tools/tools';
import { WRITE_TOOLS } from '../../server/src/tools/writeTools';

const ROOT = join(__dirname, '..', '..', '..');

interface Contributed {
  name: string;
  displayName: string;
  modelDescription: string;
  inputSchema: unknown;
  when?: string;
}

test('package.json declares each tool of the server, with its schema, description and activation event', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    contributes: { languageModelTools: Contributed[] };
    activationEvents: string[];
  };
  const declared = pkg.contributes.languageModelTools;
  // The read-only tools, then the write tools.
  assert.deepEqual(
    declared.map((t) => t.name),
    [...TOOLS, ...WRITE_TOOLS].map((t) => `catalogLens_${t.name}`),
  );
  for (const tool of [...TOOLS, ...WRITE_TOOLS]) {
    const d = declared.find((t) => t.name === `catalogLens_${tool.name}`)!;
    assert.deepEqual(d.inputSchema, JSON.parse(JSON.stringify(tool.inputSchema)), tool.name);
    assert.equal(d.modelDescription, tool.description);
    assert.equal(d.displayName, tool.title);
    assert.ok(pkg.activationEvents.includes(`onLanguageModelTool:${d.name}`), d.name);
  }
});

test('the protocol names the server’s tools', () => {
  assert.deepEqual(
    [...AGENT_TOOLS],
    TOOLS.map((t) => t.name),
  );
});

test('the write tools are declared only for when the user turned them on, and the protocol names them', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    contributes: {
      languageModelTools: Contributed[];
      configuration: { properties: Record<string, { scope?: string; default?: unknown }> };
    };
  };
  for (const tool of WRITE_TOOLS) {
    const d = pkg.contributes.languageModelTools.find((t) => t.name === `catalogLens_${tool.name}`)!;
    assert.equal(d.when, 'config.catalogLens.agentTools.writes', tool.name);
  }
  for (const tool of TOOLS)
    assert.equal(
      pkg.contributes.languageModelTools.find((t) => t.name === `catalogLens_${tool.name}`)!.when,
      undefined,
    );
  assert.deepEqual(
    [...AGENT_WRITE_TOOLS],
    WRITE_TOOLS.map((t) => t.name),
  );
  // A workspace cannot turn writes on: machine scope is read from the user's or the machine's settings only.
  const setting = pkg.contributes.configuration.properties['catalogLens.agentTools.writes']!;
  assert.equal(setting.scope, 'machine');
  assert.equal(setting.default, false);
});

test('package.json contributes the MCP server definition provider the extension registers', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    contributes: { mcpServerDefinitionProviders: Array<{ id: string; label: string }> };
  };
  const source = readFileSync(join(ROOT, 'client', 'src', 'mcpServers.ts'), 'utf8');
  const id = /MCP_PROVIDER_ID = '([^']+)'/.exec(source)?.[1];
  assert.deepEqual(pkg.contributes.mcpServerDefinitionProviders, [{ id, label: 'Catalog Lens' }]);
  // Read-only: the definitions never pass --allow-writes.
  assert.ok(!source.includes("'--allow-writes'"));
});
