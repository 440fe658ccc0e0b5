// Differential check of the scanners against another build: scanDocument in every language of the
// languages table, on the repository's texts, the shared fixtures, generated texts and random
// edits of them, cold (parse cache cleared) and warm (rescans after edits), and parseUrn on
// mutated URNs; every result is held to the other build's with isDeepStrictEqual (own properties,
// undefined-valued ones included) and JSON (key order).
//
//   node scripts/scanDifferential.mjs --base <root of a built checkout> [--seed N] [--edits N]
//
// Both builds are required in this process (each with its own parse cache). Exit code 1 on any
// difference. For a change to the hot paths of the scan that must not change what it reports.
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const baseRoot = arg('base');
if (!baseRoot) {
  console.error('usage: node scripts/scanDifferential.mjs --base <root of a built checkout> [--seed N] [--edits N]');
  process.exit(2);
}
let seed = Number(arg('seed', '1'));
const EDITS = Number(arg('edits', '6'));

const load = (root) => {
  const out = path.join(path.resolve(root), 'out');
  return {
    scan: require(path.join(out, 'server', 'src', 'scan', 'index.js')),
    cache: require(path.join(out, 'server', 'src', 'scan', 'parseCache.js')),
    urn: require(path.join(out, 'model', 'src', 'urn.js')),
  };
};
const base = load(baseRoot);
const head = load(HERE);
const { LANGUAGES } = require(path.join(HERE, 'out', 'model', 'src', 'languages.js'));
const languages = LANGUAGES.map((l) => l.id);

/** A small deterministic random source (mulberry32). */
function random() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (list) => list[Math.floor(random() * list.length)];

// Texts: the repository's own sources and docs (URNs of every shape in the tests), the shared fixtures, generated ones.
const texts = [];
const addFiles = (dir, pattern, limit = Infinity) => {
  if (!fs.existsSync(dir)) return;
  const found = [];
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (pattern.test(entry.name) && fs.statSync(p).size < 400_000) found.push(p);
    }
  };
  walk(dir);
  for (const p of found.sort().slice(0, limit))
    texts.push({ name: path.relative(HERE, p), text: fs.readFileSync(p, 'utf8') });
};
addFiles(path.join(HERE, 'test', 'scan'), /\.(ts|yaml|yml|json|py|md)$/);
addFiles(path.join(HERE, 'test', 'fixtures'), /./);
addFiles(path.join(HERE, 'examples'), /./);
addFiles(path.join(HERE, 'docs'), /\.md$/);
addFiles('/work/shared/fixtures', /\.(graphql|json)$/);
const { pythonLike, docsAsCodeYaml } = await import(path.join(HERE, 'bench', 'lib', 'generate.mjs'));
texts.push({ name: 'pythonLike', text: pythonLike(150_000, 1_500) });
texts.push({ name: 'docsAsCodeYaml', text: docsAsCodeYaml(60_000) });

const PIECES = [
  'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)',
  'urn:li:dataset:(urn:li:dataPlatform:snowflake,a.b.c,DEV)',
  'urn:li:dataset:(urn:li:dataPlatform:kafka,topic-1,PROD)',
  'urn:li:dataset:(urn:li:dataPlatform:hive,db.very_long_table_name_over_thirteen,PROD)',
  'urn:li:dataset:(urn:li:dataPlatform:a_platform_name_longer_than_thirty_two_chars,x,PROD)',
  'urn:li:dataset:(urn:li:dataPlatform:hivf,db.users,PROD)',
  'urn:li:dataset:(urn:li:dataPlatform:evih,db.users,PROD)',
  'urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn-1,PROD)',
  'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)',
  'urn:li:mlFeature:(users_table_1,age)',
  'urn:li:dataPlatform:hive',
  'urn:li:dataPlatform:mlflow',
  'urn:li:corpuser:jdoe',
  'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),col)',
  'urn:li:tag:pii',
  'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,PROD),task)',
  'urn:li:dataset:(urn:li:dataPlatform:{platform},{name},PROD)',
  'urn:li:dataset:(urn:li:dataPlatform:hive,db.*,PROD)',
  'urn:svc:dataset:(urn:svc:dataPlatform:hive,x,PROD)',
  'urn:li:dataset:(urn:li:dataPlatform:hive,broken',
  'urn:li:datset:(urn:li:dataPlatform:hive,x,PROD)',
  'make_dataset_urn("hive", "db.t", "PROD")',
  'DatasetUrn("hive", "db.t")',
  'Urn.createFromString("urn:li:corpuser:x")',
  '"',
  "'",
  '(',
  ')',
  ',',
  '\n',
  '\\',
  '#',
  '//',
  '*',
  '`',
  ' ',
  '${x}',
];

/** `text` with `count` random edits: a piece inserted, a range cut, a character changed. */
function edit(text, count) {
  let t = text;
  for (let i = 0; i < count; i++) {
    const at = Math.floor(random() * (t.length + 1));
    const r = random();
    if (r < 0.45) t = t.slice(0, at) + pick(PIECES) + t.slice(at);
    else if (r < 0.8) t = t.slice(0, at) + t.slice(Math.min(t.length, at + 1 + Math.floor(random() * 80)));
    else t = t.slice(0, at) + String.fromCharCode(32 + Math.floor(random() * 95)) + t.slice(at + 1);
  }
  return t;
}

/** A text of random pieces and filler: URNs packed close, in and out of literals. */
function soup(length) {
  const parts = [];
  let n = 0;
  while (n < length) {
    const p =
      random() < 0.6
        ? pick(PIECES)
        : pick(['x = ', ' + ', '[', ']', '{', '}', ':', 'foo', '\n    ', '; ', '/* ', ' */']);
    parts.push(p);
    n += p.length;
  }
  return parts.join('');
}
for (let i = 0; i < 12; i++) texts.push({ name: `soup${i}`, text: soup(500 + Math.floor(random() * 4000)) });

let scans = 0;
let differences = 0;
const report = (what, a, b) => {
  differences++;
  if (differences <= 10) {
    console.error(`DIFFERENCE: ${what}`);
    const sa = JSON.stringify(a);
    const sb = JSON.stringify(b);
    let k = 0;
    while (k < sa.length && sa[k] === sb[k]) k++;
    console.error(`  base: …${sa.slice(Math.max(0, k - 200), k + 200)}`);
    console.error(`  head: …${sb.slice(Math.max(0, k - 200), k + 200)}`);
  }
};
const same = (a, b) => isDeepStrictEqual(a, b) && JSON.stringify(a) === JSON.stringify(b);
const OPTIONS = [{ namespaces: ['li', 'svc'] }, { namespaces: ['li'] }, { namespaces: ['li'], topLevelOnly: true }];

function compareScan(what, text, language, opts) {
  scans++;
  let a;
  let b;
  let ea;
  let eb;
  try {
    a = base.scan.scanDocument(text, language, opts);
  } catch (e) {
    ea = String(e);
  }
  try {
    b = head.scan.scanDocument(text, language, opts);
  } catch (e) {
    eb = String(e);
  }
  if (ea !== undefined || eb !== undefined) {
    if (ea !== eb) report(`${what}: threw ${ea} / ${eb}`, ea, eb);
    return;
  }
  if (!same(a, b)) report(what, a, b);
}

const started = Date.now();
for (const [t, { name, text }] of texts.entries()) {
  for (const [l, language] of languages.entries()) {
    const opts = OPTIONS[(t + l) % OPTIONS.length];
    // Cold, then warm (the same text again), as a file opened and rescanned.
    base.cache.clearParseCache();
    head.cache.clearParseCache();
    compareScan(`${name} as ${language} cold`, text, language, opts);
    compareScan(`${name} as ${language} warm`, text, language, opts);
    // Random edits, rescanned after each (warm), for every eighth language (rotating with the text).
    if ((t + l) % 8 === 0) {
      let current = text;
      for (let i = 0; i < EDITS; i++) {
        current = edit(current, 1 + Math.floor(random() * 4));
        compareScan(`${name} as ${language} after edit ${i + 1}`, current, language, opts);
      }
      // Back to the first text (a sequence far from this one), then a cold scan of the last edit.
      compareScan(`${name} as ${language} back`, text, language, opts);
      base.cache.clearParseCache();
      head.cache.clearParseCache();
      compareScan(`${name} as ${language} edited cold`, current, language, opts);
    }
  }
}
// retainParseCache between scans, as the open documents do on a close.
for (const { name, text } of texts.slice(0, 40)) {
  const a = base.scan.scanDocument(text, 'python', OPTIONS[0]);
  const b = head.scan.scanDocument(text, 'python', OPTIONS[0]);
  base.cache.retainParseCache(a.occurrences.slice(0, 5));
  head.cache.retainParseCache(b.occurrences.slice(0, 5));
  const edited = edit(text, 3);
  compareScan(`${name} after retain`, edited, 'python', OPTIONS[0]);
  compareScan(`${name} after retain, again`, text, 'python', OPTIONS[0]);
}

// Benchmark 1's text (10 MB, 100,000 URNs) as python: cold, warm, edited, cold again.
{
  const big = pythonLike(10_000_000, 100_000);
  base.cache.clearParseCache();
  head.cache.clearParseCache();
  compareScan('benchmark 1 cold', big, 'python', OPTIONS[0]);
  compareScan('benchmark 1 warm', big, 'python', OPTIONS[0]);
  let current = big;
  for (let i = 0; i < 3; i++) {
    current = edit(current, 1 + Math.floor(random() * 20));
    compareScan(`benchmark 1 after edit ${i + 1}`, current, 'python', OPTIONS[0]);
  }
  base.cache.clearParseCache();
  head.cache.clearParseCache();
  compareScan('benchmark 1 edited cold', current, 'python', OPTIONS[0]);
  compareScan('benchmark 1 back', big, 'python', OPTIONS[0]);
}

// parseUrn on mutated URNs (and parseUrnCached through each build's cache).
let parses = 0;
const urns = PIECES.filter((p) => p.startsWith('urn:'));
for (let i = 0; i < 20_000; i++) {
  let u = pick(urns);
  const mutations = Math.floor(random() * 3);
  for (let m = 0; m < mutations; m++) u = edit(u, 1);
  if (random() < 0.3) u = u.replace('hive', pick(['hive', 'hivf', 'evih', 'h', 'kafka', 'mlflow', '']));
  parses++;
  const a = base.urn.parseUrn(u);
  const b = head.urn.parseUrn(u);
  if (!same(a, b)) report(`parseUrn(${JSON.stringify(u)})`, a, b);
  const ca = base.cache.parseUrnCached(u);
  const cb = head.cache.parseUrnCached(u);
  if (!same(ca, cb)) report(`parseUrnCached(${JSON.stringify(u)})`, ca, cb);
}

console.log(
  `${scans} scans of ${texts.length} texts in ${languages.length} languages, ${parses} URNs parsed, seed ${arg('seed', '1')}: ${differences} differences (${((Date.now() - started) / 1000).toFixed(0)} s)`,
);
process.exit(differences === 0 ? 0 : 1);
