// `npm run bench -- --compare <git ref>`: the other ref built in a temporary git worktree, both
// builds measured in one run, passes interleaved (before, after, before, after …), each figure
// printed side by side with the change. Also the history table of bench/RESULTS.md: the headline
// ratios of every full run, one row per commit.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import * as path from 'node:path';
import { summary } from './measure.mjs';
import { formatNumber } from './report.mjs';

/**
 * @typedef {import('./report.mjs').Section} Section
 * @typedef {import('./report.mjs').Row} Row
 * @typedef {{ ref: string, commit: string, dir: string, tree: string, root: string }} Worktree
 */

const git = (root, args) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** The commit `ref` names in the repository of `root` (throws with git's message when it names none). */
export function resolveRef(root, ref) {
  return git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
}

/**
 * Checks `ref` out in a new worktree under the OS temp folder, with this checkout's node_modules
 * linked in, and builds it (`npm run build`, whose output is shown only if it fails). The worktree
 * is removed again if anything fails here; otherwise `removeWorktree` removes it.
 * @param {string} root
 * @param {string} ref
 * @param {{ log?: (message: string) => void, build?: boolean }} [options]
 * @returns {Worktree}
 */
export function createWorktree(root, ref, { log = (_message) => {}, build = true } = {}) {
  const commit = resolveRef(root, ref);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'catalog-lens-compare-'));
  const tree = path.join(dir, 'tree');
  /** @type {Worktree} */
  const wt = { ref, commit, dir, tree, root };
  try {
    git(root, ['worktree', 'add', '--detach', tree, commit]);
    symlinkSync(realpathSync(path.join(root, 'node_modules')), path.join(tree, 'node_modules'), 'dir');
    if (build) {
      log(`--compare: building ${ref} (${commit.slice(0, 10)}) in ${tree}`);
      try {
        execFileSync('npm', ['run', 'build'], { cwd: tree, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (e) {
        const failed = /** @type {{ stdout?: string, stderr?: string }} */ (e);
        const out = `${failed.stdout ?? ''}${failed.stderr ?? ''}`.trim().split('\n').slice(-20).join('\n');
        throw new Error(`npm run build of ${ref} failed:\n${out}`);
      }
    }
    return wt;
  } catch (e) {
    removeWorktree(wt);
    throw e;
  }
}

/** Removes the worktree and its temporary folder (synchronously, so a signal handler can call it); never throws. */
export function removeWorktree(wt) {
  if (!wt) return;
  try {
    if (existsSync(wt.tree)) git(wt.root, ['worktree', 'remove', '--force', wt.tree]);
  } catch {
    // removed below by hand; `prune` forgets it
  }
  rmSync(wt.dir, { recursive: true, force: true });
  try {
    git(wt.root, ['worktree', 'prune']);
  } catch {
    // nothing more to do
  }
}

/**
 * One section from several passes of the same benchmark on the same build: each figure's min and
 * max over all passes, its median the median of the passes' medians; the ratio the passes' median.
 * @param {Section[]} passes
 * @returns {Section}
 */
export function combinePasses(passes) {
  const [first] = passes;
  if (!first || passes.length === 1) return /** @type {Section} */ (first);
  const rows = first.rows.map((row, i) => {
    /** @type {Row[]} */
    const same = [];
    for (const p of passes) {
      const r = p.rows[i];
      if (r && r.figure === row.figure) same.push(r);
    }
    const merge = (pick) => {
      const values = same.map(pick).filter((v) => v !== undefined);
      if (values.length === 0) return undefined;
      const medians = summary(values.map((v) => v.median));
      return {
        min: Math.min(...values.map((v) => v.min)),
        median: medians.median,
        max: Math.max(...values.map((v) => v.max)),
        runs: values.reduce((n, v) => n + v.runs, 0),
      };
    };
    const ratios = same.map((r) => r.ratio).filter((r) => r !== undefined && !Number.isNaN(r));
    const ratio = ratios.length > 0 ? summary(ratios).median : undefined;
    // The ratio text of the pass whose ratio is nearest the median (rates are written as %).
    const nearest =
      ratio === undefined
        ? row
        : same.reduce((a, b) => (Math.abs((b.ratio ?? NaN) - ratio) < Math.abs((a.ratio ?? NaN) - ratio) ? b : a), row);
    /** @type {Row} */
    const merged = { ...row, value: /** @type {any} */ (merge((r) => r.value)) };
    const floor = merge((r) => r.floor);
    if (floor) merged.floor = floor;
    if (ratio !== undefined) merged.ratio = ratio;
    if (nearest.ratioText !== undefined) merged.ratioText = nearest.ratioText;
    if (nearest.met !== undefined) merged.met = nearest.met;
    return merged;
  });
  return {
    ...first,
    rows,
    notes: [
      ...(first.notes ?? []),
      `Figures over ${passes.length} passes: min and max of all runs, the median of the passes' medians.`,
    ],
  };
}

/** The change from `before` to `after`: "1.23× (+23.0 %)"; "—" when either is missing or before is 0. */
export function formatChange(before, after) {
  if (before === undefined || after === undefined || Number.isNaN(before) || Number.isNaN(after) || before === 0)
    return '—';
  const ratio = after / before;
  const pct = (ratio - 1) * 100;
  const sign = pct > 0 ? '+' : pct < 0 ? '−' : '±';
  return `${ratio.toFixed(2)}× (${sign}${Math.abs(pct).toFixed(1)} %)`;
}

const ratioCell = (row) =>
  !row
    ? '—'
    : (row.ratioText ?? (row.ratio === undefined || Number.isNaN(row.ratio) ? '—' : `${row.ratio.toFixed(2)}×`));

const valueCell = (row) => {
  if (!row) return '—';
  const v = row.value.median;
  if (row.unit === 'bytes') return formatNumber(v, 'bytes');
  return `${formatNumber(v, row.unit)}${row.unit && row.unit !== 'count' ? ` ${row.unit}` : ''}`;
};

/**
 * The side-by-side rows of one benchmark: each figure (medians) before and after, the change
 * after ÷ before, and each side's ratio to its floor. Rows are matched by their figure's name.
 * @param {Section | undefined} before
 * @param {Section | undefined} after
 */
export function compareRows(before, after) {
  const names = [];
  for (const r of [...(after?.rows ?? []), ...(before?.rows ?? [])])
    if (!names.includes(r.figure)) names.push(r.figure);
  return names.map((figure) => {
    const b = before?.rows.find((r) => r.figure === figure);
    const a = after?.rows.find((r) => r.figure === figure);
    return {
      figure,
      before: valueCell(b),
      after: valueCell(a),
      change: formatChange(b?.value.median, a?.value.median),
      ratioBefore: ratioCell(b),
      ratioAfter: ratioCell(a),
      ratioChange: formatChange(b?.ratio, a?.ratio),
    };
  });
}

/**
 * The comparison as Markdown (also what the terminal shows): per benchmark, a table of the
 * figures before (the other ref) and after (this checkout).
 * @param {Array<{ id: string, title: string, before?: Section, after?: Section }>} pairs
 */
export function compareMarkdown(pairs, { beforeName, afterName, passes }) {
  const out = [];
  out.push(
    `Before: ${beforeName}; after: ${afterName}. Medians; each benchmark ran ${passes} pass(es) per build, the builds alternating (before, after, before …). Change = after ÷ before (for a rate, above 1 is faster; for a time or size, below 1 is).`,
    '',
  );
  for (const { id, title, before, after } of pairs) {
    out.push(`### ${id}. ${title}`, '');
    out.push(
      '| figure | before | after | change | ratio to floor, before | after | change |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const r of compareRows(before, after)) {
      out.push(
        `| ${[r.figure, r.before, r.after, r.change, r.ratioBefore, r.ratioAfter, r.ratioChange].map((c) => String(c).replaceAll('|', '\\|')).join(' | ')} |`,
      );
    }
    out.push('');
  }
  return out.join('\n');
}

/**
 * The headline figures of the history table: which benchmark, which row (by the start of its
 * figure's name), and the column's title. The value kept is the row's ratio to its floor.
 */
export const HEADLINES = [
  { section: '1', figure: 'scan, warm', title: 'scan warm' },
  { section: '1', figure: 'scan, cold', title: 'scan cold' },
  { section: '2', figure: 'find URNs with context', title: 'YAML' },
  { section: '3', figure: 'hover p50', title: 'warm hover p50', exact: true },
  { section: '3', figure: 'hover p50, 10,000-URN', title: 'hover 10k URNs' },
  { section: '3', figure: 'hover p50, 100,000-URN', title: 'hover 100k URNs' },
  { section: '4', figure: 'cold hover p50', title: 'cold hover p50' },
  { section: '6', figure: 'check, cold', title: 'check cold' },
  { section: '6', figure: 'check, warm', title: 'check warm' },
  { section: '7', figure: 'GraphQL reads', title: 'catalog reads' },
  { section: '7', figure: 'durable writes', title: 'durable writes' },
  { section: '8', figure: 'spawn → initialize', title: 'start-up' },
  { section: '9', figure: 'completion p99', title: 'completion p99' },
  { section: '10', figure: 'index build', title: 'index build' },
  { section: '12', figure: 'open → final diagnostics per MB, every file', title: 'real repo open', exact: true },
  { section: '12', figure: 'documentLink p99, every file', title: 'real repo links p99', exact: true },
];

const HISTORY_HEADING = '## History of the headline ratios';

/**
 * One history row from a full run's sections: the date, the commit, the load, and each headline
 * row's ratio as the table prints it ("—" when the run lacks it).
 * @param {Section[]} sections
 */
export function historyRow(sections, { date, commit, load }) {
  const cells = HEADLINES.map((h) => {
    const section = sections.find((s) => s.id === h.section);
    const row = section?.rows.find((r) => (h.exact ? r.figure === h.figure : r.figure.startsWith(h.figure)));
    return ratioCell(row);
  });
  return [date.slice(0, 10), commit, load, ...cells];
}

/** The rows of the history table in an existing RESULTS.md (none when it has no such table). */
export function parseHistory(markdown) {
  const at = markdown.indexOf(HISTORY_HEADING);
  if (at < 0) return [];
  const rows = [];
  for (const line of markdown.slice(at).split('\n').slice(1)) {
    if (line.startsWith('## ')) break;
    if (!line.startsWith('| ') || line.startsWith('| date ') || line.startsWith('| ---')) continue;
    rows.push(line.slice(2, -2).split(' | '));
  }
  return rows;
}

/**
 * The notes written by hand at the end of RESULTS.md (from its first `## Notes` heading on), which a
 * run that rewrites the file keeps; '' when there are none.
 */
export function keptNotes(markdown) {
  const at = markdown.search(/^## Notes/m);
  return at < 0 ? '' : markdown.slice(at).trimEnd() + '\n';
}

/** The history table as Markdown, oldest row first. */
export function historyMarkdown(rows) {
  const head = ['date', 'commit', 'load (1 min)', ...HEADLINES.map((h) => `${h.title} (${h.section})`)];
  return [
    HISTORY_HEADING,
    '',
    'Each full `npm run bench` adds a row: the ratio of each headline figure to its floor (× for times, % of the floor for rates), on the commit it ran on. Older rows are kept.',
    '',
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
  ].join('\n');
}
