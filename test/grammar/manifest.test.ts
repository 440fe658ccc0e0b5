/**
 * The extension manifest (package.json) against what the code and the security notes require:
 * commands in the "Catalog" category and registered by the client, no `*` activation, every
 * setting of DEFAULT_SETTINGS contributed with its default, endpoint settings machine-scoped
 * and restricted in untrusted workspaces, writes hidden there, the grammar and icon present,
 * and the shipped bundles free of native modules (a native module is built for one Node ABI).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_SETTINGS, MAX_FILE_SIZE_BOUND } from '../../model/src/protocol';
import { CLIENT_WRITE_COMMANDS, ClientCommands, ServerCommands } from '../../model/src/commandIds';
import { ROOT } from './textmate';

interface Contributed {
  command: string;
  title: string;
  category?: string;
  enablement?: string;
}
interface SettingSchema {
  type?: string;
  default?: unknown;
  maximum?: number;
  scope?: string;
  description?: string;
  markdownDescription?: string;
  enum?: string[];
  enumDescriptions?: string[];
}
interface Manifest {
  main: string;
  icon?: string;
  activationEvents?: string[];
  capabilities?: {
    untrustedWorkspaces?: { supported: unknown; description?: string; restrictedConfigurations?: string[] };
    virtualWorkspaces?: unknown;
  };
  contributes: {
    commands: Contributed[];
    configuration: { properties: Record<string, SettingSchema> };
    menus?: { commandPalette?: Array<{ command: string; when?: string }> };
    grammars?: Array<{ scopeName: string; path: string; injectTo?: string[] }>;
  };
  scripts: Record<string, string>;
}

const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;
const settings = manifest.contributes.configuration.properties;
const ENDPOINT_SETTINGS = ['url', 'graphqlUrl', 'uiUrl', 'entityUrlTemplate'].map((k) => `catalogLens.${k}`);
const CLIENT_COMMAND_TITLES: Record<string, string> = {
  [ClientCommands.writeDatasetDescription]: 'Write Dataset Description…',
  [ClientCommands.writeColumnDescription]: 'Write Column Description…',
  [ClientCommands.addFeatureToTable]: 'Add Feature to Feature Table…',
  [ClientCommands.addFeatureToModel]: 'Add Feature to Model…',
  [ClientCommands.addGroupToModel]: 'Add Model Group…',
  [ClientCommands.createEntityInteractive]: 'Create Entity in Catalog…',
  [ClientCommands.writeDescription]: 'Write Description…',
  [ClientCommands.removeFeatureFromTable]: 'Remove Feature from Feature Table…',
  [ClientCommands.removeFeatureFromModel]: 'Remove Feature from Model…',
  [ClientCommands.removeGroupFromModel]: 'Remove Model Group from Model…',
};

/** `catalogLens.a.b` → value for every leaf of the settings object (arrays are leaves). */
function leaves(value: object, prefix: string): Array<[string, unknown]> {
  return Object.entries(value).flatMap(([k, v]): Array<[string, unknown]> =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? leaves(v as object, `${prefix}.${k}`)
      : [[`${prefix}.${k}`, v]],
  );
}

describe('commands', () => {
  test('every contributed command has the category "Catalog Lens" and a title', () => {
    assert.ok(manifest.contributes.commands.length > 0);
    for (const c of manifest.contributes.commands) {
      assert.equal(c.category, 'Catalog Lens', `${c.command} category`);
      assert.ok(c.title.trim().length > 0, `${c.command} title`);
    }
  });

  test("the contributed commands are exactly the client's commands", () => {
    const contributed = manifest.contributes.commands.map((c) => c.command).sort();
    const registered = Object.values(ClientCommands).sort();
    assert.deepEqual(contributed, registered);
  });

  test('no server command is contributed: vscode-languageclient registers those ids itself', () => {
    const server = new Set<string>(Object.values(ServerCommands));
    for (const c of manifest.contributes.commands)
      assert.ok(!server.has(c.command), `${c.command} is a server command`);
  });

  test('client commands carry the titles users see in the palette', () => {
    for (const [id, title] of Object.entries(CLIENT_COMMAND_TITLES)) {
      assert.equal(manifest.contributes.commands.find((c) => c.command === id)?.title, title, id);
    }
  });

  test('commands that write are hidden from the palette and disabled in untrusted workspaces', () => {
    const palette = manifest.contributes.menus?.commandPalette ?? [];
    for (const id of CLIENT_WRITE_COMMANDS) {
      const entry = palette.find((m) => m.command === id);
      assert.ok(entry?.when?.includes('isWorkspaceTrusted'), `${id} palette when: ${entry?.when}`);
      assert.equal(
        manifest.contributes.commands.find((c) => c.command === id)?.enablement,
        'isWorkspaceTrusted',
        `${id} enablement`,
      );
    }
  });
});

describe('activation', () => {
  test('never on "*"; on each language of the document selector and on each command', () => {
    const events = manifest.activationEvents ?? [];
    assert.ok(!events.includes('*'), 'activationEvents has *');
    assert.ok(!events.includes('onStartupFinished'), 'activation is tied to languages and commands');
    for (const lang of DEFAULT_SETTINGS.languages)
      assert.ok(events.includes(`onLanguage:${lang}`), `onLanguage:${lang}`);
    for (const c of manifest.contributes.commands)
      assert.ok(events.includes(`onCommand:${c.command}`), `onCommand:${c.command}`);
  });

  test('main points at the bundled client', () => {
    assert.equal(path.normalize(manifest.main), path.normalize('./dist/extension.js'));
  });
});

describe('settings', () => {
  test('every field of DEFAULT_SETTINGS is contributed with its default and a description', () => {
    for (const [key, value] of leaves(DEFAULT_SETTINGS, 'catalogLens')) {
      const s = settings[key];
      assert.ok(s, `${key} is not contributed`);
      assert.deepEqual(s.default, value, `${key} default`);
      assert.ok((s.markdownDescription ?? s.description ?? '').length > 10, `${key} description`);
      if (s.enum) assert.equal(s.enumDescriptions?.length, s.enum.length, `${key} enumDescriptions`);
    }
  });

  test('nothing is contributed that the settings do not have, except the trace setting', () => {
    const known = new Set([...leaves(DEFAULT_SETTINGS, 'catalogLens').map(([k]) => k), 'catalogLens.trace.server']);
    for (const key of Object.keys(settings)) assert.ok(known.has(key), `${key} is not in Settings`);
  });

  test("catalogLens.trace.server is the client id's trace setting: off, messages, verbose", () => {
    assert.deepEqual(settings['catalogLens.trace.server']?.enum, ['off', 'messages', 'verbose']);
    assert.equal(settings['catalogLens.trace.server']?.default, 'off');
  });

  test('endpoint settings are machine-scoped and restricted in untrusted workspaces (anchors.md, security)', () => {
    const untrusted = manifest.capabilities?.untrustedWorkspaces;
    assert.equal(untrusted?.supported, 'limited');
    assert.ok((untrusted?.description ?? '').length > 0);
    for (const key of ENDPOINT_SETTINGS) {
      assert.equal(settings[key]?.scope, 'machine', `${key} scope`);
      assert.ok(untrusted?.restrictedConfigurations?.includes(key), `${key} restricted`);
    }
    assert.equal(manifest.capabilities?.virtualWorkspaces, false);
  });

  test('what changes the requests sent with the token, their number, or the author of writes is not for a restricted workspace to set', () => {
    // VS Code reads a restricted setting from the user's settings only while the workspace is untrusted;
    // a machine-scoped one never from a workspace.
    const untrusted = manifest.capabilities?.untrustedWorkspaces?.restrictedConfigurations ?? [];
    const TOKEN_TRAFFIC = [
      'catalogLens.batchSize',
      'catalogLens.cache.ttlSeconds',
      'catalogLens.cache.maxEntries',
      'catalogLens.requestTimeoutMs',
      'catalogLens.graphqlComplexityBudget',
      ...Object.keys(settings).filter((k) => k.startsWith('catalogLens.diagnostics.')),
      'catalogLens.actor',
    ];
    assert.ok(TOKEN_TRAFFIC.length >= 12);
    for (const key of TOKEN_TRAFFIC) {
      assert.ok(settings[key], `${key} is a setting`);
      assert.ok(untrusted.includes(key), `${key} restricted`);
    }
    assert.equal(settings['catalogLens.actor']?.scope, 'machine', "a repository's settings never choose the author");
    for (const key of untrusted) assert.ok(settings[key], `${key} (restricted) is a setting`);
  });

  test('maxFileSize is machine-scoped, bounded as the server bounds it, and counted in characters (security probe, finding 6)', () => {
    const s = settings['catalogLens.maxFileSize'];
    assert.equal(s?.scope, 'machine', "a workspace's .vscode/settings.json cannot raise it");
    assert.equal(s?.maximum, MAX_FILE_SIZE_BOUND);
    assert.match(s?.markdownDescription ?? '', /characters/);
    assert.doesNotMatch(s?.markdownDescription ?? '', /\(bytes\)/);
  });

  test('no setting holds a token: it lives in SecretStorage only', () => {
    // allowTokenOrigins names where the token may go (origins, checked by a pattern), never the token.
    for (const key of Object.keys(settings).filter((k) => k !== 'catalogLens.allowTokenOrigins'))
      assert.ok(!/token|secret|password/i.test(key), key);
    const origins = settings['catalogLens.allowTokenOrigins'] as
      { type?: string; items?: { pattern?: string } } | undefined;
    assert.equal(origins?.type, 'array');
    assert.ok(
      origins?.items?.pattern &&
        !new RegExp(origins.items.pattern).test('s3cretTOKEN') &&
        new RegExp(origins.items.pattern).test('https://h:9002'),
    );
  });
});

describe('grammar, icon and scripts', () => {
  test('the injection grammar exists, names its scope and is injected into the common languages', () => {
    const g = manifest.contributes.grammars?.find((x) => x.scopeName === 'urn.injection.catalog-lens');
    assert.ok(g, 'grammar contributed');
    const file = JSON.parse(readFileSync(path.join(ROOT, g.path), 'utf8')) as {
      scopeName: string;
      injectionSelector?: string;
    };
    assert.equal(file.scopeName, g.scopeName);
    assert.match(file.injectionSelector ?? '', /L:string/);
    assert.match(file.injectionSelector ?? '', /L:comment/);
    for (const host of ['source.python', 'source.yaml', 'source.sql', 'source.json', 'text.html.markdown']) {
      assert.ok(g.injectTo?.includes(host), `injectTo ${host}`);
    }
  });

  test('the icon is a 128×128 PNG', () => {
    assert.ok(manifest.icon, 'icon set');
    const png = readFileSync(path.join(ROOT, manifest.icon));
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.equal(png.readUInt32BE(16), 128, 'width');
    assert.equal(png.readUInt32BE(20), 128, 'height');
  });

  test('the package script runs scripts/package.mjs', () => {
    assert.match(manifest.scripts['package'] ?? '', /package\.mjs/);
  });
});

describe('the shipped bundles hold no native module (notes/native-modules.md)', () => {
  const requireOf = /require\(\s*["']better-sqlite3["']\s*\)|from\s*["']better-sqlite3["']/;
  for (const bundle of [
    'dist/server.js',
    'dist/server-core.js',
    'dist/server-wiring.js',
    'dist/scanWorker.js',
    'dist/extension.js',
  ]) {
    test(`${bundle} does not require better-sqlite3`, () => {
      const file = path.join(ROOT, bundle);
      assert.ok(existsSync(file), `${bundle} is missing: run node scripts/build.mjs first`);
      assert.doesNotMatch(readFileSync(file, 'utf8'), requireOf);
    });
  }

  test('dist/extension.js bundles vscode-languageclient and leaves only vscode external', () => {
    const file = path.join(ROOT, 'dist/extension.js');
    assert.ok(existsSync(file), 'dist/extension.js is missing: run node scripts/build.mjs first');
    const text = readFileSync(file, 'utf8');
    assert.doesNotMatch(text, /require\(\s*["']vscode-languageclient/);
    assert.match(text, /require\(\s*["']vscode["']\s*\)/);
  });
});
