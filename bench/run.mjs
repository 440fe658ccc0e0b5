// `npm run bench` (after `npm run build`): runs every benchmark, prints the table and writes
// bench/RESULTS.md. Options:
//   --quick          small inputs, a few seconds per benchmark; prints, writes RESULTS.md only with --write
//   --only=1,3,7     run only these benchmarks
//   --write / --no-write   force writing RESULTS.md or not
//   --cpu-prof       start the server and catalog processes with --cpu-prof (profiles in a kept folder)
// A benchmark reports figures; it asserts no timing. It fails (exit code 1) only when a benchmark
// cannot run, so CI (`.ci/run` with --quick) notices a benchmark that broke.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import * as path from 'node:path';
import { closeAgent, ingestDatasets } from './lib/catalogData.mjs';
import { ROOT, startCatalog, stopAll } from './lib/processes.mjs';
import { machineInfo, printTable, resultsMarkdown } from './lib/report.mjs';
import { textBenchmark, yamlBenchmark } from './benchmarks/scan.mjs';
import { coldHoverBenchmark, warmHoverBenchmark } from './benchmarks/hover.mjs';
import { diagnosticsBenchmark } from './benchmarks/diagnostics.mjs';
import { workspaceBenchmark } from './benchmarks/workspace.mjs';
import { loadBenchmark } from './benchmarks/load.mjs';
import { startupBenchmark } from './benchmarks/startup.mjs';
import { completionBenchmark } from './benchmarks/completion.mjs';
import { indexBenchmark } from './benchmarks/index.mjs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyArg = args.find((a) => a.startsWith('--only='));
const only = onlyArg ? new Set(onlyArg.slice('--only='.length).split(',')) : undefined;
const write = args.includes('--write') || (!quick && !args.includes('--no-write') && !only);
const cpuProf = args.includes('--cpu-prof');
const unknown = args.filter(
  (a) => !['--quick', '--write', '--no-write', '--cpu-prof'].includes(a) && !a.startsWith('--only='),
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
];

/** The run's temporary folder (inputs, databases), removed at the end or on SIGINT/SIGTERM. */
let tmp;

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
  try {
    // Benchmarks 3–6 and 8 share one catalog (a SQLite file, synchronous=FULL) with the sample data
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
    for (const b of selected) {
      log(`${b.id}. ${b.title}…`);
      const t = performance.now();
      try {
        sections.push(await b.run(ctx));
        log(`${b.id}. done in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      } catch (caught) {
        const e = caught instanceof Error ? caught : new Error(String(caught));
        failed++;
        log(`${b.id}. FAILED: ${e.stack ?? e.message}`);
        sections.push({
          id: b.id,
          title: b.title,
          input: 'This benchmark could not run.',
          rows: [],
          notes: [`FAILED: ${String(e.message).split('\n')[0]}`],
        });
      }
    }
  } finally {
    await catalog?.stop();
    closeAgent();
    await stopAll();
    rmSync(tmp, { recursive: true, force: true });
  }
  const durationS = (performance.now() - started) / 1000;
  const machine = machineInfo(loadBefore, os.loadavg());
  printTable(sections);
  process.stdout.write(
    `\n${machine.cpu}, Node ${machine.node}, load average ${machine.load.before[0].toFixed(2)} → ${machine.load.after[0].toFixed(2)}${machine.busy ? ' (busy machine: times are inflated)' : ''}; ${durationS.toFixed(0)} s${quick ? ', --quick' : ''}\n`,
  );
  if (write) {
    const command = quick ? 'npm run bench -- --quick --write' : 'npm run bench';
    const file = path.join(ROOT, 'bench', 'RESULTS.md');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, resultsMarkdown(sections, machine, { quick, command, durationS, profileDir }) + '\n');
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
      process.exit(130);
    });
  });
}

main().catch(async (e) => {
  process.stderr.write(`bench: ${e.stack ?? e.message}\n`);
  await stopAll();
  process.exit(1);
});
