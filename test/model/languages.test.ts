/**
 * The table of languages (model/src/languages.ts): what is derived from it (the default setting,
 * the file extensions, the extractors, the literal syntaxes) is what it was, and the extension
 * manifest, which cannot import it, agrees with it: `activationEvents`' `onLanguage:` entries and
 * `catalogLens.languages`' default are exactly the languages on by default.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  DEFAULT_LANGUAGES,
  extractorsOf,
  LANGUAGE_BY_EXTENSION,
  LANGUAGES,
  languageOf,
  literalSyntaxNameOf,
} from '../../model/src/languages';
import { DEFAULT_SETTINGS } from '../../model/src/protocol';
import { extractorsFor } from '../../server/src/scan';
import { literalSyntaxFor, SYNTAX_BY_NAME } from '../../server/src/scan/languages';
import { LANGUAGE_BY_EXTENSION as WORKSPACE_EXTENSIONS } from '../../server/src/workspace';

const ROOT = path.resolve(__dirname, '..', '..', '..');

interface Manifest {
  activationEvents?: string[];
  contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
}
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;

const ON = [
  'python',
  'yaml',
  'sql',
  'json',
  'markdown',
  'plaintext',
  'typescript',
  'javascript',
  'typescriptreact',
  'javascriptreact',
  'java',
  'scala',
  'go',
  'shellscript',
  'toml',
];

describe('the languages table', () => {
  test('one row per language id; extensions lower case, with their dot, each read as one language', () => {
    const ids = LANGUAGES.map((l) => l.id);
    assert.equal(new Set(ids).size, ids.length, 'a language id has two rows');
    const extensions = LANGUAGES.flatMap((l) => l.extensions);
    assert.equal(new Set(extensions).size, extensions.length, 'an extension is read as two languages');
    for (const e of extensions) assert.match(e, /^\.[a-z0-9]+$/, e);
  });

  test('the languages on by default are the default setting, in its order', () => {
    assert.deepEqual(DEFAULT_LANGUAGES, ON);
    assert.deepEqual(DEFAULT_SETTINGS.languages, ON);
    assert.ok(!DEFAULT_LANGUAGES.includes('jsonc'), 'editor settings files (jsonc) are not scanned by default');
  });

  test('file extensions → language: the ones Check Workspace, the index, its watcher and the CLI read', () => {
    assert.deepEqual(
      { ...LANGUAGE_BY_EXTENSION },
      {
        '.py': 'python',
        '.yml': 'yaml',
        '.yaml': 'yaml',
        '.sql': 'sql',
        '.json': 'json',
        '.md': 'markdown',
        '.txt': 'plaintext',
        '.ts': 'typescript',
        '.tsx': 'typescriptreact',
        '.js': 'javascript',
        '.jsx': 'javascriptreact',
        '.java': 'java',
        '.scala': 'scala',
        '.go': 'go',
        '.sh': 'shellscript',
        '.toml': 'toml',
      },
    );
    assert.equal(WORKSPACE_EXTENSIONS, LANGUAGE_BY_EXTENSION);
  });

  test('extractors: YAML and its dialects, Python and Java have their own; every other language is text', () => {
    const own = Object.fromEntries(
      LANGUAGES.filter((l) => l.extractors.join() !== 'text').map((l) => [l.id, l.extractors]),
    );
    assert.deepEqual(own, {
      python: ['text', 'pythonBuilders', 'pythonClasses'],
      yaml: ['yaml'],
      java: ['text', 'java'],
      'github-actions-workflow': ['yaml'],
      dockercompose: ['yaml'],
    });
    for (const l of LANGUAGES) assert.deepEqual(extractorsFor(l.id), extractorsOf(l.id), l.id);
    for (const id of ['some-new-language', 'constructor', '__proto__'])
      assert.deepEqual(extractorsFor(id), ['text'], id);
  });

  test('literal syntaxes by language, each reader found by its name', () => {
    const expected: Record<string, string> = {
      python: 'python',
      javascript: 'javascript',
      typescript: 'javascript',
      javascriptreact: 'javascript',
      typescriptreact: 'javascript',
      vue: 'javascript',
      svelte: 'javascript',
      java: 'java',
      scala: 'java',
      kotlin: 'java',
      groovy: 'java',
      csharp: 'java',
      go: 'go',
      c: 'c',
      cpp: 'c',
      'objective-c': 'c',
      swift: 'rust',
      rust: 'rust',
      json: 'json',
      jsonc: 'json',
      jsonl: 'json',
      json5: 'javascript',
      sql: 'sql',
      'sql-bigquery': 'sql',
      snowflake_sql: 'sql',
      postgres: 'sql',
      mysql: 'sql',
      plsql: 'sql',
      markdown: 'prose',
      mdx: 'prose',
      plaintext: 'prose',
      restructuredtext: 'prose',
      asciidoc: 'prose',
    };
    for (const [id, name] of Object.entries(expected)) {
      assert.equal(literalSyntaxNameOf(id), name, id);
      assert.equal(literalSyntaxFor(id).name, name, id);
    }
    for (const l of LANGUAGES.filter((x) => !Object.hasOwn(expected, x.id)))
      assert.equal(literalSyntaxFor(l.id).name, 'default', l.id);
    for (const id of ['some-new-language', 'constructor', '__proto__']) {
      assert.equal(languageOf(id), undefined, id);
      assert.equal(literalSyntaxFor(id).name, 'default', id);
    }
    for (const [name, syntax] of Object.entries(SYNTAX_BY_NAME)) assert.equal(syntax.name, name);
  });
});

describe('the extension manifest agrees with the languages table', () => {
  test('activationEvents: onLanguage for exactly the languages on by default', () => {
    const onLanguage = (manifest.activationEvents ?? [])
      .filter((e) => e.startsWith('onLanguage:'))
      .map((e) => e.slice('onLanguage:'.length));
    assert.deepEqual(onLanguage, [...DEFAULT_LANGUAGES]);
  });

  test("catalogLens.languages' default is the languages on by default", () => {
    assert.deepEqual(manifest.contributes.configuration.properties['catalogLens.languages']?.default, [
      ...DEFAULT_LANGUAGES,
    ]);
  });
});
