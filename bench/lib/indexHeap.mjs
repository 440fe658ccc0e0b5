// The workspace index's own memory, in a process of its own (`node --expose-gc indexHeap.mjs
// <build root> <folder>`): the compiled index (out/) of a build builds the index of a folder as the
// server does (scanText, the default settings); the heap used after a full GC before and after,
// with the URN parse cache cleared, against the summed UTF-8 bytes of the URN texts of the
// occurrences it holds. Prints one JSON line.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [root, folder] = process.argv.slice(2);
const gc = globalThis.gc;
if (!root || !folder || typeof gc !== 'function')
  throw new Error('usage: node --expose-gc indexHeap.mjs <build root> <folder>');
const load = (p) => import(pathToFileURL(path.join(root, 'out', p)).href);
const { DEFAULT_SETTINGS } = await load('model/src/protocol.js');
const { scanText } = await load('server/src/pipeline/check.js');
const { clearParseCache } = await load('server/src/scan/parseCache.js');
const { WorkspaceIndex, indexedOccurrences } = await load('server/src/index/workspaceIndex.js');
const { LANGUAGE_BY_EXTENSION } = await load('server/src/workspace.js');
// An older build (bench --compare) whose index cannot list what it holds: no figure, said why.
if (typeof WorkspaceIndex.prototype.entitiesNamedIn !== 'function' || typeof indexedOccurrences !== 'function') {
  process.stdout.write(
    `${JSON.stringify({ unavailable: "this build's index has no entitiesNamedIn or indexedOccurrences" })}\n`,
  );
  process.exit(0);
}

const settle = () => {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
};
const uris = [];
const host = {
  settingsFor: async () => DEFAULT_SETTINGS,
  openDocument: () => undefined,
  scan: (text, languageId, settings) => scanText(text, languageId, settings),
  log: () => {},
};
const build = (index) =>
  index.build(
    [pathToFileURL(folder).href],
    () => {},
    () => false,
  );
// Warm the modules up on the folder once, on an index thrown away after, so the measured build
// allocates no code or caches and what an index keeps (arrays, maps) is not in the baseline.
await build(new WorkspaceIndex(host));
clearParseCache();
const before = settle();
const index = new WorkspaceIndex(host);
await build(index);
clearParseCache();
const after = settle();
// The URN texts of the occurrences it holds, read again from the files.
let urnBytes = 0;
let occurrences = 0;
for (const urn of index.entitiesNamedIn()) for (const place of index.placesOf(urn)) uris.push(place.uri);
for (const uri of new Set(uris)) {
  const text = readFileSync(fileURLToPath(uri), 'utf8');
  // As the index reads a file: YAML as text.
  const languageId = LANGUAGE_BY_EXTENSION[path.extname(uri).toLowerCase()];
  const yaml = languageId === 'yaml';
  const scan = scanText(text, yaml ? 'plaintext' : languageId, DEFAULT_SETTINGS);
  for (const { occ } of indexedOccurrences(scan, yaml ? text : undefined)) {
    urnBytes += Buffer.byteLength(occ.urn, 'utf8');
    occurrences++;
  }
}
process.stdout.write(
  `${JSON.stringify({ heap: after - before, urnBytes, occurrences, indexed: index.occurrenceCount, files: index.fileCount })}\n`,
);
