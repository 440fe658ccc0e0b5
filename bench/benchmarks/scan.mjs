// Benchmarks 1 and 2: finding URNs in text and in YAML, in this process, against the compiled
// scanners (out/server/src/scan). Floors: a bare indexOf('urn:') loop, and yaml.parseDocument.
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { alternate, mapSummary } from '../lib/measure.mjs';
import { countUrnPrefixes, docsAsCodeYaml, pythonLike } from '../lib/generate.mjs';
import { BUILD_ROOT } from '../lib/processes.mjs';
import { WHY } from '../notes.mjs';

const require = createRequire(import.meta.url);
/** The compiled scanners of the build being measured (processes.mjs useBuild), required when a benchmark starts. */
let scan;
let clearParseCache;
function loadScanners() {
  const out = path.join(BUILD_ROOT, 'out', 'server', 'src', 'scan');
  scan = require(path.join(out, 'index.js'));
  ({ clearParseCache } = require(path.join(out, 'parseCache.js')));
}
const yaml = require('yaml');

const OPTIONS = { namespaces: ['li', 'svc'] };
const cpuRatio = (r) => `${(r.cpu.target.median / r.cpu.floor.median).toFixed(2)}×`;
const topLevel = (result) => result.occurrences.filter((o) => o.parent === undefined).length;

export async function textBenchmark({ quick }) {
  loadScanners();
  const bytes = quick ? 1_000_000 : 10_000_000;
  const urns = quick ? 10_000 : 100_000;
  const text = pythonLike(bytes, urns);
  const mb = text.length / 1e6;
  const reps = quick ? { warmup: 1, runs: 3 } : { warmup: 2, runs: 7 };
  let found = 0;
  let hits = 0;
  const floor = () => {
    hits = countUrnPrefixes(text);
  };
  // Cold: the parse cache is emptied first, as when a file is opened; warm: a rescan after a keystroke.
  const cold = await alternate(
    reps,
    () => {
      clearParseCache();
      const start = performance.now();
      found = topLevel(scan.scanDocument(text, 'python', OPTIONS));
      return performance.now() - start;
    },
    floor,
  );
  const warm = await alternate(
    reps,
    () => {
      found = topLevel(scan.scanDocument(text, 'python', OPTIONS));
    },
    floor,
  );
  clearParseCache();
  const rate = (s) => mapSummary(s, (ms) => mb / (ms / 1000));
  const row = (figure, r, limit, why) => {
    const ratio = r.target.median / r.floor.median;
    return {
      figure,
      unit: 'MB/s',
      value: rate(r.target),
      floorName: "indexOf('urn:') loop",
      floor: rate(r.floor),
      ratio,
      aim: `≤ ${limit}× floor`,
      met: ratio <= limit,
      why,
    };
  };
  return {
    id: '1',
    title: 'Finding URNs in text',
    input: `A generated ${mb.toFixed(1)} MB Python-like file holding ${urns.toLocaleString('en-US')} URNs (string constants, lists, calls, comments, builder calls), scanned as \`python\` by scanDocument (text extractor + builder calls). ${reps.runs} runs after ${reps.warmup} warm-up.`,
    rows: [
      row('scan, cold parse cache (file opened)', cold, 15, WHY.textScan),
      row('scan, warm parse cache (rescan after an edit)', warm, 8, WHY.textScan),
    ],
    notes: [
      `Found ${found.toLocaleString('en-US')} top-level URNs (expected ${urns.toLocaleString('en-US')}); the floor saw ${hits.toLocaleString('en-US')} 'urn:' hits (nested platform URNs and a comment's 'urn:' included).`,
      `Median times: cold ${cold.target.median.toFixed(1)} ms, warm ${warm.target.median.toFixed(1)} ms, floor ${cold.floor.median.toFixed(1)} ms. In this process's CPU time (less disturbed by other processes): cold ${cpuRatio(cold)}, warm ${cpuRatio(warm)} the floor.`,
    ],
  };
}

export async function yamlBenchmark({ quick }) {
  loadScanners();
  const bytes = quick ? 200_000 : 5_000_000;
  const text = docsAsCodeYaml(bytes);
  const reps = quick ? { warmup: 1, runs: 3 } : { warmup: 1, runs: 5 };
  /** @type {import('../../server/src/scan/index.js').ScanResult | undefined} */
  let result;
  const r = await alternate(
    reps,
    () => {
      clearParseCache();
      const start = performance.now();
      result = scan.scanDocument(text, 'yaml', OPTIONS);
      return performance.now() - start;
    },
    () => {
      yaml.parseDocument(text);
    },
  );
  // The same text through the yaml package's parse (what a file the quick reader leaves to the
  // package costs; builds before the quick reader ignore the option and always parse so).
  const { findUrnsInYaml } = require(path.join(BUILD_ROOT, 'out', 'server', 'src', 'scan', 'yaml.js'));
  /** @type {import('../../server/src/scan/index.js').ScanResult | undefined} */
  let packaged;
  const p = await alternate(
    reps,
    () => {
      clearParseCache();
      const start = performance.now();
      packaged = findUrnsInYaml(text, OPTIONS, { quick: false });
      return performance.now() - start;
    },
    () => {
      yaml.parseDocument(text);
    },
  );
  clearParseCache();
  if (!result || !packaged) throw new Error('the YAML scan never ran');
  if (packaged.occurrences.length !== result.occurrences.length)
    throw new Error(
      `the package's parse found ${packaged.occurrences.length} URNs, the scan ${result.occurrences.length}`,
    );
  const ratio = r.target.median / r.floor.median;
  const packagedRatio = p.target.median / p.floor.median;
  const withContext = result.occurrences.filter((o) => o.yaml !== undefined).length;
  return {
    id: '2',
    title: 'Finding URNs in YAML, with their context',
    input: `A generated ${(text.length / 1e6).toFixed(1)} MB docs-as-code YAML file (datasets with descriptions, owners and columns; feature tables with feature lists), scanned as \`yaml\` by scanDocument: URNs with key path, siblings, list owner, column and description entries. ${reps.runs} runs after ${reps.warmup} warm-up.`,
    rows: [
      {
        figure: 'find URNs with context',
        unit: 'ms',
        value: r.target,
        floorName: 'yaml.parseDocument alone',
        floor: r.floor,
        ratio,
        aim: '≤ 1.3× floor',
        met: ratio <= 1.3,
        why: WHY.yamlScan,
      },
      {
        figure: 'find URNs with context, parsed by the yaml package (the quick reader off)',
        unit: 'ms',
        value: p.target,
        floorName: 'yaml.parseDocument alone',
        floor: p.floor,
        ratio: packagedRatio,
      },
    ],
    notes: [
      `Found ${result.occurrences.length.toLocaleString('en-US')} URN occurrences (${withContext.toLocaleString('en-US')} with YAML context), ${result.columns.length.toLocaleString('en-US')} columns and ${result.descriptions.length.toLocaleString('en-US')} descriptions; ${result.problems.length} YAML problems.`,
      `In this process's CPU time (less disturbed by other processes): ${r.cpu.target.median.toFixed(0)} ms against ${r.cpu.floor.median.toFixed(0)} ms, ${cpuRatio(r)} the floor.`,
      `Throughput: ${(text.length / 1e6 / (r.target.median / 1000)).toFixed(1)} MB/s (floor ${(text.length / 1e6 / (r.floor.median / 1000)).toFixed(1)} MB/s).`,
    ],
  };
}
