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
import { TOOLS } from '../../server/src/tools/tools';

const ROOT = join(__dirname, '..', '..', '..');

interface Contributed {
  name: string;
  displayName: string;
  modelDescription: string;
  inputSchema: unknown;
}

test('package.json declares each tool of the server, with its schema, description and activation event', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    contributes: { languageModelTools: Contributed[] };
    activationEvents: string[];
  };
  const declared = pkg.contributes.languageModelTools;
  assert.deepEqual(
    declared.map((t) => t.name),
    TOOLS.map((t) => `catalogLens_${t.name}`),
  );
  for (const tool of TOOLS) {
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
