/**
 * docs/settings.md is what scripts/settingsDoc.ts writes from package.json: a setting added,
 * removed or reworded in the manifest fails here until `npm run docs:settings` is run.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTINGS_DOC, settingsDoc } from '../../scripts/settingsDoc';
import { REPO_ROOT } from '../support/shared';

const manifestText = readFileSync(join(REPO_ROOT, 'package.json'), 'utf8');

describe('the settings reference (docs/settings.md)', () => {
  test('is what npm run docs:settings writes from package.json', () => {
    const actual = readFileSync(join(REPO_ROOT, SETTINGS_DOC), 'utf8');
    assert.ok(
      actual === settingsDoc(manifestText),
      `${SETTINGS_DOC} differs from what package.json says: run npm run docs:settings`,
    );
  });

  test('names every contributed setting with its type, default and scope', () => {
    const doc = settingsDoc(manifestText);
    const { properties } = (
      JSON.parse(manifestText) as {
        contributes: { configuration: { properties: Record<string, { default?: unknown; scope?: string }> } };
      }
    ).contributes.configuration;
    assert.ok(Object.keys(properties).length > 20);
    for (const [name, s] of Object.entries(properties)) {
      const section = doc.split(`\n## ${name}\n`)[1]?.split('\n## ')[0];
      assert.ok(section, `no section for ${name}`);
      assert.match(section, /^- Type: /m, name);
      assert.ok(section.includes(`- Default: \`${JSON.stringify(s.default)}\``), `${name}: default`);
      if (s.scope) assert.ok(section.includes(`- Scope: ${s.scope}`), `${name}: scope`);
    }
  });

  test('a changed description changes the document', () => {
    const manifest = JSON.parse(manifestText) as {
      contributes: { configuration: { properties: Record<string, { markdownDescription?: string }> } };
    };
    const url = manifest.contributes.configuration.properties['catalogLens.url'];
    assert.ok(url);
    url.markdownDescription = 'Something else entirely.';
    const doc = settingsDoc(JSON.stringify(manifest));
    assert.notEqual(doc, settingsDoc(manifestText));
    assert.ok(doc.includes('Something else entirely.'));
  });
});
