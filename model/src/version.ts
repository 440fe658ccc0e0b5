/**
 * The product's version, written in one place: package.json. The bundles (dist/) get it from
 * esbuild's `define` (scripts/build.mjs); the unbundled build (out/, which the tests run) reads
 * package.json when it loads.
 */
declare const CATALOG_LENS_VERSION: string | undefined;

export const PRODUCT_VERSION: string =
  typeof CATALOG_LENS_VERSION === 'string' ? CATALOG_LENS_VERSION : versionInPackageJson();

function versionInPackageJson(): string {
  // Required here, not imported: the bundles never reach this line, and model/ reads no files otherwise.
  const { readFileSync } = require('node:fs') as typeof import('node:fs');
  const { join } = require('node:path') as typeof import('node:path');
  // out/model/src/version.js → the package.json of the repository
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}
