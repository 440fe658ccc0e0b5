// An esbuild plugin for the server's first bundle (scripts/build.mjs): the LSP library's re-exports
// as plain values instead of getters.
import { readFile } from 'node:fs/promises';

/**
 * The CommonJS modules of the LSP library (vscode-jsonrpc, vscode-languageserver-protocol,
 * vscode-languageserver), wherever npm put them.
 */
export const LSP_LIBRARY_MODULE =
  /[\\/]node_modules[\\/](?:.+[\\/])?(?:vscode-jsonrpc|vscode-languageserver-protocol|vscode-languageserver)[\\/]lib[\\/].+\.js$/;

/**
 * TypeScript's `__exportStar` helper as the library's modules hold it: `export * from` compiled to
 * CommonJS, which defines a getter on `exports` for each name of the other module (through
 * `__createBinding`). The library re-exports all it has over four or five levels (vscode-jsonrpc's
 * API, its node entry, the protocol's API and node entry, vscode-languageserver's API and node
 * entry): some 2,000 getters, each a closure and a property definition, made at every start
 * before `initialize` can be answered, and each name read later goes down that many getters.
 */
const EXPORT_STAR =
  /(var __exportStar = \(this && this\.__exportStar\) \|\| function ?\(m, exports\) \{\s*for \(var p in m\) if \(p !== "default" && !Object\.prototype\.hasOwnProperty\.call\(exports, p\)\)) __createBinding\(exports, m, p\);/;

/**
 * `source` with its `__exportStar` copying each name's value instead (undefined when it has no
 * such helper). The same as the getter as long as the name is not assigned again after the
 * re-export ran: each `export *` runs once the module it re-exports is evaluated (its `require`
 * returned), and the library assigns its exports at their modules' top level only, in no cycle
 * through a re-export (test/scripts/serverBundle.test.ts compares every exported name of the
 * library built with and without this). A helper in another form fails the build.
 */
export function flattenExportStar(source, file = 'source') {
  if (!source.includes('__exportStar = ')) return undefined;
  if (!EXPORT_STAR.test(source))
    throw new Error(`${file}: TypeScript's __exportStar helper in a form scripts/flatReexports.mjs does not know`);
  return source.replace(EXPORT_STAR, '$1 exports[p] = m[p];');
}

/** The plugin: the library's modules with flattenExportStar applied. */
export const flatReexports = {
  name: 'flat-reexports',
  setup(build) {
    build.onLoad({ filter: LSP_LIBRARY_MODULE }, async (args) => {
      const contents = flattenExportStar(await readFile(args.path, 'utf8'), args.path);
      return contents === undefined ? undefined : { contents, loader: 'js' };
    });
  },
};
