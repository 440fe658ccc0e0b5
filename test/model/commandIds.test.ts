/**
 * model/src/commandIds.ts: every command id in one module, named by one rule, and the client's
 * group exactly what package.json contributes (commands and menus).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_WRITE_COMMANDS, ClientCommands, ServerCommands } from '../../model/src/commandIds';
import { WRITE_COMMANDS } from '../../model/src/protocol';
import { REPO_ROOT } from '../support/shared';

interface Manifest {
  contributes: {
    commands: Array<{ command: string }>;
    menus?: Record<string, Array<{ command?: string; submenu?: string }>>;
    keybindings?: Array<{ command: string }>;
  };
}

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
const GROUPS = { ServerCommands, ClientCommands } as const;

/** The key the naming rule gives an id: without `catalogLens.`, each further dot dropped and the next letter upper-cased. */
function keyOf(id: string): string {
  assert.match(id, /^catalogLens\.[a-z]\w*(\.[a-z]\w*)*$/, `${id} is not catalogLens.<name>[.<name>…]`);
  return id.slice('catalogLens.'.length).replace(/\.(\w)/g, (_, c: string) => c.toUpperCase());
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('command ids (model/src/commandIds.ts)', () => {
  test('each constant is named after its id: the id without catalogLens., camel-cased at each dot', () => {
    for (const [group, ids] of Object.entries(GROUPS)) {
      for (const [key, id] of Object.entries(ids)) assert.equal(key, keyOf(id), `${group}.${key} = '${id}'`);
    }
  });

  test('the rule as the module header states it, on the ids where it is not the obvious one', () => {
    assert.equal(ClientCommands.runCheckWorkspace, 'catalogLens.runCheckWorkspace');
    assert.equal(ServerCommands.checkWorkspace, 'catalogLens.checkWorkspace');
    assert.equal(ClientCommands.lineageCopyUrn, 'catalogLens.lineage.copyUrn');
    assert.equal(ClientCommands.createEntityInteractive, 'catalogLens.createEntityInteractive');
  });

  test('no id is in both groups (and so no key is)', () => {
    const server = new Set<string>(Object.values(ServerCommands));
    for (const id of Object.values(ClientCommands)) assert.ok(!server.has(id), `${id} is in both groups`);
    const serverKeys = new Set(Object.keys(ServerCommands));
    for (const key of Object.keys(ClientCommands)) assert.ok(!serverKeys.has(key), `${key} is in both groups`);
  });

  test('every command package.json contributes or names in a menu or keybinding is a client command, and every client command is contributed', () => {
    const client = new Set<string>(Object.values(ClientCommands));
    const contributed = manifest.contributes.commands.map((c) => c.command);
    const named = [
      ...contributed,
      ...Object.values(manifest.contributes.menus ?? {}).flatMap((entries) => entries.flatMap((e) => e.command ?? [])),
      ...(manifest.contributes.keybindings ?? []).map((k) => k.command),
    ];
    for (const id of named) assert.ok(client.has(id), `package.json names ${id}, which is not in ClientCommands`);
    const contributedSet = new Set(contributed);
    for (const id of client) assert.ok(contributedSet.has(id), `ClientCommands.${keyOf(id)} is not contributed`);
  });

  test('the write subsets are of their groups: CLIENT_WRITE_COMMANDS of ClientCommands, WRITE_COMMANDS of ServerCommands', () => {
    const client = new Set<string>(Object.values(ClientCommands));
    for (const id of CLIENT_WRITE_COMMANDS) assert.ok(client.has(id), id);
    const server = new Set<string>(Object.values(ServerCommands));
    for (const id of WRITE_COMMANDS) assert.ok(server.has(id), id);
  });

  test('no other source file spells a command id in quotes: they all come from the module', () => {
    const ids = [...Object.values(ServerCommands), ...Object.values(ClientCommands)];
    const module = join(REPO_ROOT, 'model', 'src', 'commandIds.ts');
    const files = ['model/src', 'server/src', 'client/src', 'catalog/src'].flatMap((d) =>
      sourceFiles(join(REPO_ROOT, d)),
    );
    assert.ok(files.length > 50, 'the sources are found');
    for (const file of files.filter((f) => f !== module)) {
      const text = readFileSync(file, 'utf8');
      for (const id of ids) {
        assert.ok(!text.includes(`'${id}'`) && !text.includes(`"${id}"`), `${file} spells '${id}'`);
      }
    }
  });
});
