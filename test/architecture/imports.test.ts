/**
 * The import graph of the sources (server/src, client/src, catalog/src, model/src): no cycle, and
 * server/src drawn in floors, the wiring on top and the data flow top to bottom (docs/dev/architecture.md
 * "Parts and floors"). Every relative import counts, type-only ones too: a cycle of types is a cycle
 * a reader walks.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PARTS = ['server/src', 'client/src', 'catalog/src', 'model/src'];

/** Import graph: file (relative to ROOT, with `/`) → the files it imports. */
type Graph = Map<string, string[]>;

/**
 * The module specifiers a TypeScript text names, read by TypeScript's own pre-processor: imports
 * and `export … from` (type-only too), `import x = require(…)`, `import(…)` and `require(…)`;
 * nothing inside comments or strings.
 */
export function specifiersOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

/** `./x` from `from` → the file it loads: x.ts or x/index.ts; undefined for packages and what is not there. */
function resolveImport(from: string, spec: string, exists: (file: string) => boolean): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)).replace(/\.js$/, '');
  return [`${base}.ts`, `${base}/index.ts`].find(exists);
}

/** The graph of `files` ({path relative to the root: text}). */
export function importGraph(files: ReadonlyMap<string, string>): Graph {
  const graph: Graph = new Map();
  for (const [file, text] of files) {
    const targets = specifiersOf(text).flatMap((s) => resolveImport(file, s, (f) => files.has(f)) ?? []);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * One cycle per tangle (a strongly connected component: files that all reach each other, or a
 * file importing itself), with every file of the tangle.
 */
export function cyclesOf(graph: Graph): Array<{ cycle: string[]; tangle: string[] }> {
  // Tarjan's algorithm, then one concrete cycle through each component.
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
      }
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!indexOf.has(v)) visit(v);
  return components.map((c) => ({ cycle: cycleIn(graph, new Set(c)), tangle: c.sort() }));
}

/** A shortest way from the component's first file (in sort order) back to itself: the cycle a message names. */
function cycleIn(graph: Graph, component: ReadonlySet<string>): string[] {
  const start = [...component].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!component.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

function readSources(): Map<string, string> {
  const files = new Map<string, string>();
  for (const part of PARTS) {
    for (const abs of tsFiles(path.join(ROOT, part)))
      files.set(path.relative(ROOT, abs).split(path.sep).join('/'), readFileSync(abs, 'utf8'));
  }
  return files;
}

/**
 * server/src in floors, top to bottom: a file imports only files of its own unit or of a lower
 * floor. A unit is a top-level file or folder of server/src; a new one needs a floor here.
 */
export const SERVER_FLOORS: Readonly<Record<string, number>> = {
  main: 13,
  boot: 13,
  codeCache: 1,
  idleRelease: 1,
  transport: 1,
  server: 12,
  wiring: 11,
  cli: 11,
  tools: 9,
  handlers: 10,
  service: 9,
  index: 8,
  commands: 7,
  workspace: 7,
  writes: 7,
  pipeline: 6,
  lsp: 5,
  features: 4,
  resolution: 3,
  formats: 3,
  scan: 2,
  catalogClient: 2,
  settings: 1,
  clientSession: 1,
  capabilities: 2,
};

/** The unit of a server/src file: its top-level folder, or its own name without `.ts`. */
function unitOf(file: string): string {
  const rest = file.slice('server/src/'.length);
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : rest.replace(/\.ts$/, '');
}

/** What breaks the floors of server/src, one line per import. */
export function floorViolations(graph: Graph, floors: Readonly<Record<string, number>>): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph) {
    if (!file.startsWith('server/src/')) continue;
    const unit = unitOf(file);
    const floor = floors[unit];
    if (floor === undefined) {
      out.push(`${file}: its unit '${unit}' has no floor in SERVER_FLOORS`);
      continue;
    }
    for (const t of targets) {
      if (!t.startsWith('server/src/') || unitOf(t) === unit) continue;
      const below = floors[unitOf(t)];
      if (below === undefined || below >= floor)
        out.push(`${file} (${unit}, floor ${floor}) imports ${t} (${unitOf(t)}, floor ${below ?? '?'})`);
    }
  }
  return out.sort();
}

/** What must never be imported, though the floors would allow it: [importer, imported (file or package), why]. */
const NEVER: ReadonlyArray<readonly [RegExp, RegExp, string]> = [
  [/^server\/src\/writes\//, /^server\/src\/features\//, 'the write commands take their vocabulary from model/'],
  [
    /^server\/src\/features\//,
    /^server\/src\/catalogClient\/registry\.ts$/,
    'the features are pure: they are given lookups, not the registry of catalog clients',
  ],
  [
    /^server\/src\/(pipeline\/|workspace\.ts$)/,
    /^vscode-languageserver(\/|$)/,
    'the pipeline and Check Workspace run without an LSP connection (a command line runs them too)',
  ],
  [
    /^model\/src\//,
    /^(vscode|vscode-languageclient|vscode-languageserver|better-sqlite3)(\/|$)/,
    'model/ is shared by everything: no editor, no language server library, no storage',
  ],
];

describe('the import graph', () => {
  const sources = readSources();
  const graph = importGraph(sources);

  test('reads every part and finds their imports', () => {
    for (const part of PARTS)
      assert.ok(
        [...graph.keys()].some((f) => f.startsWith(`${part}/`)),
        `no TypeScript file read under ${part}`,
      );
    assert.ok(
      [...graph.values()].some((targets) => targets.length > 0),
      'no relative import found',
    );
  });

  test('has no cycle in server/src, client/src, catalog/src or model/src', () => {
    const cycles = cyclesOf(graph);
    assert.deepEqual(
      cycles.map((c) => c.cycle.join(' → ')),
      [],
      `import cycles:\n${cycles.map((c) => `  ${c.cycle.join(' → ')}  (in a tangle of ${c.tangle.join(', ')})`).join('\n')}`,
    );
  });

  test('server/src keeps its floors: the wiring (server.ts, main.ts) on top, nothing below imports it', () => {
    const violations = floorViolations(graph, SERVER_FLOORS);
    assert.deepEqual(violations, [], `imports against the floors:\n  ${violations.join('\n  ')}`);
    for (const [file, targets] of graph) {
      for (const t of targets.filter((x) => x === 'server/src/server.ts' || x === 'server/src/main.ts'))
        assert.ok(
          (file === 'server/src/main.ts' && t === 'server/src/server.ts') || !file.startsWith('server/src/'),
          `${file} imports ${t}`,
        );
    }
  });

  test('what must never be imported is not', () => {
    const found: string[] = [];
    for (const [file, targets] of graph) {
      const packages = specifiersOf(sources.get(file)!).filter((spec) => !spec.startsWith('.'));
      for (const imported of [...targets, ...packages]) {
        for (const [from, to, why] of NEVER)
          if (from.test(file) && to.test(imported)) found.push(`${file} imports ${imported}: ${why}`);
      }
    }
    assert.deepEqual(found.sort(), [], `imports that must not be:\n  ${found.join('\n  ')}`);
  });

  test('the parts import each other only through model/, and model/ only itself', () => {
    for (const [file, targets] of graph) {
      const part = PARTS.find((p) => file.startsWith(`${p}/`))!;
      for (const t of targets)
        assert.ok(t.startsWith(`${part}/`) || t.startsWith('model/src/'), `${file} imports ${t}`);
    }
  });
});

describe('the checks themselves', () => {
  const fixture = (files: Record<string, string>): Graph => importGraph(new Map(Object.entries(files)));

  test('every form of import is read, and commented ones are not', () => {
    assert.deepEqual(
      specifiersOf(
        [
          "import { a } from './a';",
          "import type { B } from './b';",
          "import * as c from './c';",
          "import './d';",
          "export { e } from './e';",
          "export * from './f';",
          "export type { G } from './g';",
          "const h = await import('./h');",
          "const i = require('./i') as typeof import('./j');",
          "import {\n  k,\n  type K,\n} from './k';",
          "import l = require('./l');",
          "// import { x } from './x';",
          "/* import { y } from './y'; */",
          "const s = '/* import { z } from \\'./z\\' */';",
        ].join('\n'),
      ).sort(),
      ['./a', './b', './c', './d', './e', './f', './g', './h', './i', './j', './k', './l'],
    );
  });

  test('a deliberate cycle is found and named', () => {
    const graph = fixture({
      'server/src/server.ts': "import { w } from './workspace';\nimport { c } from './commands';",
      'server/src/workspace.ts': "import type { ServerState } from './server';",
      'server/src/commands.ts': "import { writeCommands } from './writes/commands';",
      'server/src/writes/commands.ts': "import { signalOf } from '../server';\nimport type { H } from '../commands';",
      'model/src/urn.ts': "export * from './urn';",
    });
    assert.deepEqual(
      cyclesOf(graph)
        .map((c) => c.cycle.join(' → '))
        .sort(),
      [
        'model/src/urn.ts → model/src/urn.ts',
        'server/src/commands.ts → server/src/writes/commands.ts → server/src/commands.ts',
      ],
    );
    assert.deepEqual(
      cyclesOf(graph).map((c) => c.tangle.length),
      [1, 4],
      'the tangle holds server.ts, workspace.ts, commands.ts and writes/commands.ts',
    );
    assert.deepEqual(cyclesOf(fixture({ 'a/x.ts': "import './y';", 'a/y.ts': "import { z } from './z';" })), []);
  });

  test('an import up the floors is named', () => {
    const graph = fixture({
      'server/src/server.ts': "import { checkWorkspace } from './workspace';",
      'server/src/workspace.ts': "import { toLspDiagnostic } from './server';",
      'server/src/features/hover.ts': "import { Catalogs } from '../catalogs';",
      'server/src/catalogs.ts': '',
    });
    assert.deepEqual(floorViolations(graph, SERVER_FLOORS), [
      "server/src/catalogs.ts: its unit 'catalogs' has no floor in SERVER_FLOORS",
      'server/src/features/hover.ts (features, floor 4) imports server/src/catalogs.ts (catalogs, floor ?)',
      'server/src/workspace.ts (workspace, floor 7) imports server/src/server.ts (server, floor 12)',
    ]);
  });
});
