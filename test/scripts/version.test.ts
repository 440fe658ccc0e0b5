/**
 * The version is written once, in package.json: the unbundled build (out/) reads it there, the
 * bundles carry it from the build (scripts/build.mjs), and the language server and the local
 * catalog report it. No source holds a copy.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { startCatalogProcess } from '../../client/src/localCatalogProcess';
import { PRODUCT_VERSION } from '../../model/src/version';

/** The repository root, seen from out/test/scripts. */
const ROOT = path.resolve(__dirname, '..', '..', '..');
const PACKAGE_VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('the version, from package.json only', () => {
  test('the unbundled build reads it from package.json', () => {
    assert.equal(PRODUCT_VERSION, PACKAGE_VERSION);
  });

  test('the server bundle reports it (catalog-lens-server --version)', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'server.js'), '--version'], { encoding: 'utf8' });
    assert.equal(r.stdout, `catalog-lens-server ${PACKAGE_VERSION}\n`);
  });

  test("the local catalog's bundle reports it at GET /config", async () => {
    const catalog = await startCatalogProcess({
      node: process.execPath,
      script: path.join(ROOT, 'dist', 'catalog.js'),
      args: ['--port', '0', '--db', ':memory:', '--quiet'],
      cwd: ROOT,
      env: process.env,
    });
    try {
      const config = (await (await fetch(`${catalog.url}/config`)).json()) as { catalogLens?: { version?: string } };
      assert.equal(config.catalogLens?.version, PACKAGE_VERSION);
    } finally {
      await catalog.stop();
    }
  });

  test('no source writes the version itself', () => {
    const literal = new RegExp(`['"\`]${PACKAGE_VERSION.replace(/\./g, '\\.')}['"\`]`);
    for (const part of ['server/src', 'client/src', 'catalog/src', 'model/src']) {
      for (const file of sources(path.join(ROOT, part)))
        assert.doesNotMatch(readFileSync(file, 'utf8'), literal, path.relative(ROOT, file));
    }
  });
});
