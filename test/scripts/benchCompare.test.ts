/**
 * `npm run bench -- --compare <ref>` (bench/lib/compare.mjs): the arithmetic and formatting of the
 * side-by-side figures, the passes merged per build, the history table kept across runs, and the
 * temporary git worktree removed again when its set-up fails and after use. No timing is measured
 * or asserted here.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../support/shared';

interface Summary {
  min: number;
  median: number;
  max: number;
  runs: number;
}
interface Row {
  figure: string;
  unit: string;
  value: Summary;
  floor?: Summary;
  ratio?: number;
  ratioText?: string;
  aim?: string;
  met?: boolean;
}
interface Section {
  id: string;
  title: string;
  input: string;
  rows: Row[];
  notes?: string[];
}
interface Worktree {
  ref: string;
  commit: string;
  dir: string;
  tree: string;
  root: string;
}
interface CompareModule {
  formatChange(before: number | undefined, after: number | undefined): string;
  combinePasses(passes: Section[]): Section;
  compareRows(
    before: Section | undefined,
    after: Section | undefined,
  ): Array<{
    figure: string;
    before: string;
    after: string;
    change: string;
    ratioBefore: string;
    ratioAfter: string;
    ratioChange: string;
  }>;
  compareMarkdown(
    pairs: Array<{ id: string; title: string; before?: Section; after?: Section }>,
    o: { beforeName: string; afterName: string; passes: number },
  ): string;
  historyRow(sections: Section[], o: { date: string; commit: string; load: string }): string[];
  parseHistory(markdown: string): string[][];
  historyMarkdown(rows: string[][]): string;
  keptNotes(markdown: string): string;
  HEADLINES: Array<{ section: string; title: string }>;
  createWorktree(root: string, ref: string, o?: { build?: boolean }): Worktree;
  removeWorktree(wt: Worktree | undefined): void;
}

const s = (median: number, min = median, max = median, runs = 1): Summary => ({ min, median, max, runs });
const row = (figure: string, value: number, floor: number, extra: Partial<Row> = {}): Row => ({
  figure,
  unit: 'ms',
  value: s(value),
  floor: s(floor),
  ratio: value / floor,
  ...extra,
});
const section = (id: string, rows: Row[]): Section => ({ id, title: `bench ${id}`, input: '', rows });

describe('bench --compare', () => {
  let m: CompareModule;
  before(async () => {
    m = (await import(pathToFileURL(path.join(REPO_ROOT, 'bench', 'lib', 'compare.mjs')).href)) as CompareModule;
  });

  test('the change is after ÷ before, with its percentage and sign; "—" without both figures', () => {
    assert.equal(m.formatChange(2, 3), '1.50× (+50.0 %)');
    assert.equal(m.formatChange(4, 3), '0.75× (−25.0 %)');
    assert.equal(m.formatChange(1.5, 1.5), '1.00× (±0.0 %)');
    assert.equal(m.formatChange(0, 3), '—');
    assert.equal(m.formatChange(undefined, 3), '—');
    assert.equal(m.formatChange(2, Number.NaN), '—');
  });

  test('passes of one build merge: min and max of all, the median of the medians, the median ratio', () => {
    const passes = [
      section('3', [row('hover p50', 3, 1, { value: s(3, 2, 5, 5) })]),
      section('3', [row('hover p50', 1, 1, { value: s(1, 0.5, 2, 5) })]),
      section('3', [row('hover p50', 2, 2, { value: s(2, 1, 9, 5) })]),
    ];
    const merged = m.combinePasses(passes).rows[0]!;
    assert.deepEqual(merged.value, { min: 0.5, median: 2, max: 9, runs: 15 });
    assert.deepEqual(merged.floor, { min: 1, median: 1, max: 2, runs: 3 });
    assert.equal(merged.ratio, 1);
    assert.equal(m.combinePasses([passes[0]!]), passes[0], 'one pass is kept as it is');
  });

  test('figures side by side, matched by name; a figure only one build has is shown with "—"', () => {
    const before = section('3', [row('hover p50', 2, 1), row('old only', 1, 1)]);
    const after = section('3', [row('hover p50', 1, 1, { ratioText: '50 %' }), row('new only', 5, 1)]);
    const rows = m.compareRows(before, after);
    assert.deepEqual(
      rows.map((r) => r.figure),
      ['hover p50', 'new only', 'old only'],
    );
    assert.deepEqual(rows[0], {
      figure: 'hover p50',
      before: '2.00 ms',
      after: '1.00 ms',
      change: '0.50× (−50.0 %)',
      ratioBefore: '2.00×',
      ratioAfter: '50 %',
      ratioChange: '0.50× (−50.0 %)',
    });
    assert.equal(rows[1]!.before, '—');
    assert.equal(rows[1]!.change, '—');
    assert.equal(rows[2]!.after, '—');
    const md = m.compareMarkdown([{ id: '3', title: 'Warm hover', before, after }], {
      beforeName: 'a09c138',
      afterName: 'this checkout',
      passes: 2,
    });
    assert.match(md, /^Before: a09c138; after: this checkout\./);
    assert.match(md, /\n### 3\. Warm hover\n/);
    assert.match(
      md,
      /\n\| hover p50 \| 2\.00 ms \| 1\.00 ms \| 0\.50× \(−50\.0 %\) \| 2\.00× \| 50 % \| 0\.50× \(−50\.0 %\) \|\n/,
    );
  });

  test('the history table: a row per full run appended, older rows read back from RESULTS.md and kept', () => {
    const sections = [
      section('1', [row('scan, cold parse cache (file opened)', 60, 1), row('scan, warm parse cache', 25, 1)]),
      section('3', [row('hover p50', 1.5, 1), row('hover p50, 100,000-URN document', 1.1, 1)]),
      section('7', [row('GraphQL reads', 1, 10, { ratioText: '9 %' })]),
    ];
    const first = m.historyRow(sections, { date: '2026-11-27T02:09:18.033Z', commit: 'a09c138', load: '1.59 → 1.46' });
    assert.equal(first.length, 3 + m.HEADLINES.length);
    assert.deepEqual(first.slice(0, 7), ['2026-11-27', 'a09c138', '1.59 → 1.46', '25.00×', '60.00×', '—', '1.50×']);
    assert.ok(first.includes('9 %'));
    const second = m.historyRow(sections, { date: '2026-11-28T00:00:00Z', commit: 'abc1234+', load: '0.5 → 0.7' });
    const file = `# Benchmark results\n\nintro\n\n${m.historyMarkdown([first])}\n## 1. Finding URNs in text\n\n| figure | min |\n| --- | --- |\n| x | 1 |\n`;
    const rows = m.parseHistory(file);
    assert.deepEqual(rows, [first]);
    const again = m.historyMarkdown([...rows, second]);
    assert.deepEqual(m.parseHistory(again), [first, second]);
    assert.deepEqual(m.parseHistory('# Benchmark results\n\nno history yet\n'), []);
    // The notes written by hand at the end are kept by a rewrite.
    assert.equal(m.keptNotes(`${file}\n## Notes: before / after\n\ntext\n\n`), '## Notes: before / after\n\ntext\n');
    assert.equal(m.keptNotes(file), '');
  });

  test('the worktree: made at the ref with node_modules linked, removed after use and when its set-up fails', (t) => {
    const repo = mkdtempSync(path.join(tmpdir(), 'catalog-lens-compare-test-'));
    t.after(() => rmSync(repo, { recursive: true, force: true }));
    const git = (...args: string[]): string =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd: repo,
        encoding: 'utf8',
      }).trim();
    git('init', '-q');
    writeFileSync(path.join(repo, 'a.txt'), 'one\n');
    git('add', 'a.txt');
    git('commit', '-q', '-m', 'one');
    const firstCommit = git('rev-parse', 'HEAD');
    writeFileSync(path.join(repo, 'a.txt'), 'two\n');
    git('commit', '-q', '-am', 'two');
    const ours = (): string[] =>
      readdirSync(tmpdir()).filter((n) => n.startsWith('catalog-lens-compare-') && !repo.endsWith(n));
    const before = new Set(ours());
    const worktrees = (): number =>
      git('worktree', 'list', '--porcelain')
        .split('\n')
        .filter((l) => l.startsWith('worktree ')).length;

    // No node_modules to link: the set-up fails, and nothing is left behind.
    assert.throws(() => m.createWorktree(repo, 'HEAD~1', { build: false }));
    assert.equal(worktrees(), 1);
    assert.deepEqual(
      ours().filter((n) => !before.has(n)),
      [],
    );

    mkdirSync(path.join(repo, 'node_modules'));
    const wt = m.createWorktree(repo, 'HEAD~1', { build: false });
    assert.equal(wt.commit, firstCommit);
    assert.equal(execFileSync('cat', [path.join(wt.tree, 'a.txt')], { encoding: 'utf8' }), 'one\n');
    assert.equal(realpathSync(path.join(wt.tree, 'node_modules')), realpathSync(path.join(repo, 'node_modules')));
    assert.equal(worktrees(), 2);
    m.removeWorktree(wt);
    assert.equal(existsSync(wt.dir), false);
    assert.equal(worktrees(), 1);
    m.removeWorktree(wt); // twice: nothing to do, no throw

    assert.throws(() => m.createWorktree(repo, 'no-such-ref', { build: false }));
    assert.equal(worktrees(), 1);
  });
});
