// `npm run bench` (after `npm run build`): runs every benchmark, prints the table and writes
// bench/RESULTS.md. Options:
//   --quick          small inputs, a few seconds per benchmark; prints, writes RESULTS.md only with --write
//   --only=1,3,7     run only these benchmarks
//   --write / --no-write   force writing RESULTS.md or not
//   --cpu-prof       start the server and catalog processes with --cpu-prof (profiles in a kept folder)
//   --compare <ref>  also build <ref> in a temporary git worktree and measure both builds, passes
//                    interleaved (before, after, before, after); prints both side by side with the
//                    change, never writes RESULTS.md
//   --passes=N       passes per build with --compare (default 2)
// A benchmark reports figures; it asserts no timing. It fails (exit code 1) only when a benchmark
// cannot run, so CI (`.ci/run` with --quick) notices a benchmark that broke.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import * as path from 'node:path';
import { closeAgent, ingestDatasets } from './lib/catalogData.mjs';
import { ROOT, startCatalog, stopAll, useBuild } from './lib/processes.mjs';
import {
  combinePasses,
  compareMarkdown,
  createWorktree,
  historyMarkdown,
  historyRow,
  keptNotes,
  parseHistory,
  removeWorktree,
} from './lib/compare.mjs';
import { machineInfo, printTable, resultsMarkdown } from './lib/report.mjs';
import { textBenchmark, yamlBenchmark } from './benchmarks/scan.mjs';
import { coldHoverBenchmark, warmHoverBenchmark } from './benchmarks/hover.mjs';
import { diagnosticsBenchmark } from './benchmarks/diagnostics.mjs';
import { workspaceBenchmark } from './benchmarks/workspace.mjs';
import { loadBenchmark } from './benchmarks/load.mjs';
import { startupBenchmark } from './benchmarks/startup.mjs';
import { completionBenchmark } from './benchmarks/completion.mjs';
import { indexBenchmark } from './benchmarks/index.mjs';
import { inlayBenchmark } from './benchmarks/inlay.mjs';
import { realRepoBenchmark } from './benchmarks/realrepo.mjs';

const args = process.argv.slice(2);
// `--compare <ref>` or `--compare=<ref>`: the ref is taken out of the arguments first.
let compareRef;
const compareAt = args.indexOf('--compare');
if (compareAt >= 0) {
  compareRef = args[compareAt + 1];
  args.splice(compareAt, 2);
  if (!compareRef || compareRef.startsWith('--')) {
    process.stderr.write('bench: --compare needs a git ref (a commit, branch or tag)\n');
    process.exit(2);
  }
}
const compareArg = args.find((a) => a.startsWith('--compare='));
if (compareArg) compareRef = compareArg.slice('--compare='.length);
const quick = args.includes('--quick');
const onlyArg = args.find((a) => a.startsWith('--only='));
const only = onlyArg ? new Set(onlyArg.slice('--only='.length).split(',')) : undefined;
const passesArg = args.find((a) => a.startsWith('--passes='));
const passes = passesArg ? Math.max(1, Number(passesArg.slice('--passes='.length)) || 1) : compareRef ? 2 : 1;
const write = !compareRef && (args.includes('--write') || (!quick && !args.includes('--no-write') && !only));
const cpuProf = args.includes('--cpu-prof');
const unknown = args.filter(
  (a) =>
    !['--quick', '--write', '--no-write', '--cpu-prof'].includes(a) &&
    !a.startsWith('--only=') &&
    !a.startsWith('--passes=') &&
    !a.startsWith('--compare='),
);
if (unknown.length > 0) {
  process.stderr.write(`bench: unknown option(s) ${unknown.join(' ')}\n`);
  process.exit(2);
}

const BENCHMARKS = [
  { id: '1', title: 'Finding URNs in text', run: textBenchmark },
  { id: '2', title: 'Finding URNs in YAML', run: yamlBenchmark },
  { id: '3', title: 'Warm hover', run: warmHoverBenchmark, catalog: true },
  { id: '4', title: 'Cold hover', run: coldHoverBenchmark, catalog: true },
  { id: '5', title: 'Diagnostics', run: diagnosticsBenchmark, catalog: true },
  { id: '6', title: 'Check Workspace', run: workspaceBenchmark, catalog: true },
  { id: '7', title: 'Catalog under load', run: loadBenchmark },
  { id: '8', title: 'Start-up, size and memory', run: startupBenchmark, catalog: true },
  { id: '9', title: 'Completion of real names', run: completionBenchmark },
  { id: '10', title: 'Workspace index', run: indexBenchmark, catalog: true },
  { id: '11', title: 'Inlay hints', run: inlayBenchmark, catalog: true },
  { id: '12', title: 'A repository shaped like DataHub’s own', run: realRepoBenchmark, catalog: true },
];

/** The run's temporary folder (inputs, databases), removed at the end or on SIGINT/SIGTERM. */
let tmp;
/** With --compare: the other ref's worktree, removed at the end, on failure or on SIGINT/SIGTERM. */
let worktree;

const log = (m) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${m}\n`);

async function main() {
  const started = performance.now();
  const loadBefore = os.loadavg();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'catalog-lens-bench-'));
  const profileDir = cpuProf ? mkdtempSync(path.join(os.tmpdir(), 'catalog-lens-profiles-')) : undefined;
  const profArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const selected = BENCHMARKS.filter((b) => !only || only.has(b.id));
  /** @type {import('./lib/report.mjs').Section[]} */
  const sections = [];
  let failed = 0;
  let catalog;
  /** With --compare: each benchmark's sections for the two builds. */
  const compared = [];
  try {
    // Benchmarks 3–6, 8 and 10–12 share one catalog (a SQLite file, synchronous=FULL) with the sample data
    // and the benchmark datasets bench.t_0 … bench.t_<n-1>.
    const datasets = quick ? 1000 : 10_000;
    if (selected.some((b) => b.catalog)) {
      catalog = await startCatalog({ db: path.join(tmp, 'catalog.db'), nodeArgs: profArgs });
      const t = performance.now();
      await ingestDatasets(catalog.url, 0, datasets);
      log(
        `local catalog at ${catalog.url}, ${datasets} datasets ingested in ${((performance.now() - t) / 1000).toFixed(1)} s`,
      );
    }
    const ctx = { quick, tmp, catalog, datasets, serverArgs: profArgs, catalogArgs: profArgs };
    if (compareRef) {
      worktree = createWorktree(ROOT, compareRef, { log });
      log(`--compare: ${compareRef} (${worktree.commit.slice(0, 10)}) built; ${passes} pass(es) per build`);
    }
    /** The builds measured, in the order of each pass: the other ref first (before), then this checkout. */
    const builds = worktree
      ? [
          { name: 'before', root: worktree.tree },
          { name: 'after', root: ROOT },
        ]
      : [{ name: 'this', root: ROOT }];
    for (const b of selected) {
      /** @type {Map<string, import('./lib/report.mjs').Section[]>} */
      const byBuild = new Map(builds.map((x) => [x.name, []]));
      const passesOf = (name) => byBuild.get(name) ?? [];
      let error;
      for (let pass = 0; pass < passes && !error; pass++) {
        for (const build of builds) {
          useBuild(build.root);
          const label = worktree ? ` (${build.name}, pass ${pass + 1}/${passes})` : '';
          log(`${b.id}. ${b.title}${label}…`);
          const t = performance.now();
          try {
            passesOf(build.name).push(await b.run(ctx));
            log(`${b.id}. done in ${((performance.now() - t) / 1000).toFixed(1)} s`);
          } catch (caught) {
            error = caught instanceof Error ? caught : new Error(String(caught));
            log(`${b.id}. FAILED${label}: ${error.stack ?? error.message}`);
            break;
          }
        }
      }
      useBuild(ROOT);
      if (error) {
        failed++;
        sections.push({
          id: b.id,
          title: b.title,
          input: 'This benchmark could not run.',
          rows: [],
          notes: [`FAILED: ${String(error.message).split('\n')[0]}`],
        });
        continue;
      }
      if (worktree) {
        const before = combinePasses(passesOf('before'));
        const after = combinePasses(passesOf('after'));
        compared.push({ id: b.id, title: b.title, before, after });
        sections.push(after);
      } else sections.push(combinePasses(passesOf('this')));
    }
  } finally {
    await catalog?.stop();
    closeAgent();
    await stopAll();
    rmSync(tmp, { recursive: true, force: true });
    removeWorktree(worktree);
    worktree = undefined;
  }
  const durationS = (performance.now() - started) / 1000;
  const machine = machineInfo(loadBefore, os.loadavg());
  if (compareRef) {
    const head = gitOut(['rev-parse', '--short', 'HEAD']);
    const dirty = gitOut(['status', '--porcelain', '--untracked-files=no']) ? ' with uncommitted changes' : '';
    process.stdout.write(
      `\n${compareMarkdown(compared, {
        beforeName: `${compareRef} (${gitOut(['rev-parse', '--short', `${compareRef}^{commit}`])})`,
        afterName: `this checkout (${head}${dirty})`,
        passes,
      })}`,
    );
    process.stdout.write(
      "\nThe shared local catalog (benchmarks 3–6, 8, 10–12) is this checkout's for both builds; benchmarks 7 and 9 start the catalog of the build they measure.\n",
    );
  } else printTable(sections);
  process.stdout.write(
    `\n${machine.cpu}, Node ${machine.node}, load average ${machine.load.before[0].toFixed(2)} → ${machine.load.after[0].toFixed(2)}${machine.busy ? ' (busy machine: times are inflated)' : ''}; ${durationS.toFixed(0)} s${quick ? ', --quick' : ''}\n`,
  );
  if (write) {
    const command = quick ? 'npm run bench -- --quick --write' : 'npm run bench';
    const file = path.join(ROOT, 'bench', 'RESULTS.md');
    mkdirSync(path.dirname(file), { recursive: true });
    // The history keeps its rows (a full run adds its own), and the notes at the end are kept.
    const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const history = parseHistory(before);
    const notes = keptNotes(before);
    if (!quick && !only) {
      const dirty = gitOut(['status', '--porcelain', '--untracked-files=no']) ? '+' : '';
      history.push(
        historyRow(sections, {
          date: machine.date,
          commit: `${gitOut(['rev-parse', '--short', 'HEAD'])}${dirty}`,
          load: `${machine.load.before[0].toFixed(2)} → ${machine.load.after[0].toFixed(2)}`,
        }),
      );
    }
    writeFileSync(
      file,
      resultsMarkdown(sections, machine, { quick, command, durationS, profileDir, history: historyMarkdown(history) }) +
        '\n' +
        (notes ? `\n${notes}` : ''),
    );
    process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
  }
  if (profileDir) process.stdout.write(`CPU profiles: ${profileDir}\n`);
  if (failed > 0) {
    process.stderr.write(`bench: ${failed} benchmark(s) could not run\n`);
    process.exitCode = 1;
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    log(`${signal}: stopping the processes this run started`);
    void stopAll().finally(() => {
      if (tmp) rmSync(tmp, { recursive: true, force: true });
      removeWorktree(worktree);
      process.exit(130);
    });
  });
}

/** git's answer in this checkout, or '' when git fails. */
function gitOut(gitArgs) {
  try {
    return execFileSync('git', gitArgs, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

main().catch(async (e) => {
  process.stderr.write(`bench: ${e.stack ?? e.message}\n`);
  await stopAll();
  removeWorktree(worktree);
  process.exit(1);
});
