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
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- required lazily, as said above
  const { readFileSync } = require('node:fs') as typeof import('node:fs');
  // eslint-disable-next-line @typescript-eslint/no-require-imports, @typescript-eslint/unbound-method -- lazily, as said above; path.join uses no this
  const { join } = require('node:path') as typeof import('node:path');
  // out/model/src/version.js → the package.json of the repository
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}
