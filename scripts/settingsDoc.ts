/**
 * The settings reference, docs/settings.md, written from package.json's `contributes.configuration`:
 * every setting with its type, default, scope, allowed values and markdownDescription, and whether
 * a workspace in Restricted Mode may set it (`capabilities.untrustedWorkspaces.restrictedConfigurations`).
 *
 *   npm run docs:settings            (writes docs/settings.md)
 *   node out/scripts/settingsDoc.js --check   (exit 1 when docs/settings.md differs)
 *
 * test/docs/settings.test.ts fails when docs/settings.md is not what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

interface SettingSchema {
  type?: string | string[];
  default?: unknown;
  scope?: string;
  order?: number;
  enum?: unknown[];
  enumDescriptions?: string[];
  minimum?: number;
  maximum?: number;
  items?: { type?: string };
  markdownDescription?: string;
  description?: string;
}

interface Manifest {
  capabilities?: { untrustedWorkspaces?: { restrictedConfigurations?: string[] } };
  contributes: { configuration: { properties: Record<string, SettingSchema> } };
}

export const SETTINGS_DOC = join('docs', 'settings.md');

const SCOPES: Record<string, string> = {
  application: 'application (user settings only)',
  machine: 'machine (user settings only; a workspace cannot set it)',
  'machine-overridable': 'machine-overridable',
  window: 'window (user or workspace settings)',
  resource: 'resource (user, workspace or folder settings)',
  'language-overridable': 'language-overridable',
};

const HEADER = `# Settings

<!-- Generated from package.json by scripts/settingsDoc.ts (npm run docs:settings); do not edit by hand. -->

Every setting is in the section \`catalogLens\`: VS Code's settings, or \`workspace/configuration\` (or
\`initializationOptions.settings\`) in other editors ([other editors](other-editors.md) has a table of them
in brief). This page is generated from the extension's manifest (\`package.json\`), so it says what VS Code's
Settings editor says.

The access token is not a setting. VS Code keeps it in SecretStorage, per catalog origin (a token is only
ever sent to the host it was stored for) and hands it to the server process in its environment; other
editors set \`CATALOG_LENS_TOKEN\`. Endpoint settings are machine-scoped and restricted in untrusted
workspaces, so a repository's \`.vscode/settings.json\` cannot redirect the token; in Restricted Mode
hovers work against the user-level endpoint and nothing is written.
`;

function code(value: unknown): string {
  const text = JSON.stringify(value);
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}

function typeOf(s: SettingSchema): string {
  const types = Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? 'any');
  return s.type === 'array' && s.items?.type ? `array of ${s.items.type}` : types;
}

/** docs/settings.md as the manifest `manifestText` says it. */
export function settingsDoc(manifestText: string): string {
  const manifest = JSON.parse(manifestText) as Manifest;
  const restricted = new Set(manifest.capabilities?.untrustedWorkspaces?.restrictedConfigurations ?? []);
  const entries = Object.entries(manifest.contributes.configuration.properties);
  const lines: string[] = [HEADER];
  lines.push('| setting | type | default |', '| --- | --- | --- |');
  for (const [name, s] of entries) lines.push(`| [\`${name}\`](#${slug(name)}) | ${typeOf(s)} | ${code(s.default)} |`);
  for (const [name, s] of entries) {
    lines.push('', `## ${name}`, '');
    lines.push(`- Type: ${typeOf(s)}`);
    lines.push(`- Default: ${code(s.default)}`);
    if (s.minimum !== undefined || s.maximum !== undefined)
      lines.push(`- Range: ${s.minimum ?? '…'} to ${s.maximum ?? '…'}`);
    lines.push(`- Scope: ${s.scope ? (SCOPES[s.scope] ?? s.scope) : 'window (the default)'}`);
    if (restricted.has(name)) lines.push('- Restricted Mode: read from your user settings only');
    if (s.enum) {
      lines.push('- Values:');
      s.enum.forEach((value, i) => {
        const said = s.enumDescriptions?.[i];
        lines.push(`  - ${code(value)}${said ? `: ${said}` : ''}`);
      });
    }
    const text = s.markdownDescription ?? s.description;
    if (text) lines.push('', linkSettings(text));
  }
  return `${lines.join('\n')}\n`;
}

/** VS Code's setting references (`` `#catalogLens.url#` ``) as links to the setting's heading here. */
function linkSettings(text: string): string {
  return text.replace(/`#([\w.]+)#`/g, (_, name: string) => `[\`${name}\`](#${slug(name)})`);
}

/** GitHub's anchor for a heading: lowercase, punctuation but `-` and `_` removed, spaces to `-`. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function main(): void {
  const root = resolve(__dirname, '..', '..');
  const expected = settingsDoc(readFileSync(join(root, 'package.json'), 'utf8'));
  const target = join(root, SETTINGS_DOC);
  if (process.argv.includes('--check')) {
    let actual = '';
    try {
      actual = readFileSync(target, 'utf8');
    } catch {
      // a missing file differs like any other
    }
    if (actual !== expected) {
      console.error(`${SETTINGS_DOC} is not what package.json says: run npm run docs:settings`);
      process.exit(1);
    }
    return;
  }
  writeFileSync(target, expected);
  console.log(`wrote ${SETTINGS_DOC}`);
}

if (require.main === module) main();
