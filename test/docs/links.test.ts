/**
 * The README, the CHANGELOG and every Markdown file under docs/: each relative link resolves to a file of the
 * repository that a clone has (not one git ignores, nothing outside the repository), each `#anchor`
 * into a Markdown file names one of its headings (GitHub's slugs), and the README stays a front
 * door: at most 12 KB.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { REPO_ROOT } from '../support/shared';

const README_LIMIT = 12 * 1024;

/** Top-level folders .gitignore keeps out of a clone. */
const IGNORED = readFileSync(join(REPO_ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => /^[\w.-]+\/$/.test(l))
  .map((l) => l.slice(0, -1));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? markdownFiles(p) : p.endsWith('.md') ? [p] : [];
  });
}

/** The text outside fenced code blocks and code spans, where links and headings are. */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/(`+)[^`]*?\1/g, '');
  });
}

/** GitHub's anchor for a heading: lowercase, punctuation but `-` and `_` dropped, each space a `-`. */
export function githubSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings, duplicates numbered as GitHub numbers them. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m?.[1]) continue;
    // The heading as GitHub renders it: link text kept, the markup of code spans and emphasis dropped.
    const rendered = m[1].replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
    const base = githubSlug(rendered);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every link target of a Markdown text: inline links and images, and reference definitions. */
export function linkTargets(text: string): string[] {
  const targets: string[] = [];
  for (const line of prose(text)) {
    for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) if (m[1]) targets.push(m[1]);
    const def = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
    if (def?.[1]) targets.push(def[1]);
  }
  return targets;
}

/** What is wrong with `target` linked from `file`, or null. */
function brokenLink(file: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto: … — not a file of the repository
  const [pathPart = '', anchor] = target.split('#', 2);
  const path = decodeURIComponent(pathPart);
  const dest = path === '' ? file : resolve(dirname(file), path);
  const inRepo = relative(REPO_ROOT, dest);
  if (inRepo.startsWith('..') || resolve(REPO_ROOT, inRepo) !== dest) return 'outside the repository';
  if (IGNORED.includes(inRepo.split(sep)[0] ?? '')) return 'a file git ignores, which a clone does not have';
  if (!existsSync(dest)) return 'no such file';
  if (anchor !== undefined && dest.endsWith('.md')) {
    if (!anchors(readFileSync(dest, 'utf8')).has(anchor))
      return `no heading #${anchor} in ${relative(REPO_ROOT, dest)}`;
  }
  return null;
}

const FILES = [
  join(REPO_ROOT, 'README.md'),
  join(REPO_ROOT, 'CHANGELOG.md'),
  ...markdownFiles(join(REPO_ROOT, 'docs')),
];

describe('links in README.md and docs/', () => {
  test('the README is a front door: at most 12 KB', () => {
    const size = statSync(join(REPO_ROOT, 'README.md')).size;
    assert.ok(size <= README_LIMIT, `README.md is ${size} bytes, over ${README_LIMIT}: move detail under docs/`);
  });

  test('GitHub slugs and link targets are read as GitHub reads them', () => {
    assert.equal(githubSlug('In CI: `catalog-lens check`'.replace(/`/g, '')), 'in-ci-catalog-lens-check');
    assert.equal(
      githubSlug('Pages: read-only HTML at DataHub’s UI paths'),
      'pages-read-only-html-at-datahubs-ui-paths',
    );
    assert.equal(githubSlug('DataHub mode (--compat datahub)'), 'datahub-mode---compat-datahub');
    assert.deepEqual([...anchors('# A\n## A\n```\n# B\n```\n')], ['a', 'a-1']);
    assert.deepEqual(linkTargets('[a](x.md) `[b](y.md)` ![c](i.png "t")\n[d]: z.md\n'), ['x.md', 'i.png', 'z.md']);
  });

  for (const file of FILES) {
    const name = relative(REPO_ROOT, file);
    test(`every relative link of ${name} resolves`, () => {
      const broken = linkTargets(readFileSync(file, 'utf8'))
        .map((target) => [target, brokenLink(file, target)] as const)
        .filter(([, why]) => why !== null)
        .map(([target, why]) => `${target}: ${why}`);
      assert.deepEqual(broken, [], `${name} has broken links`);
    });
  }

  test('README.md and docs/ link to nothing a clone lacks (../shared and the like)', () => {
    const outside = FILES.flatMap((file) =>
      linkTargets(readFileSync(file, 'utf8'))
        .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t))
        .filter((t) => relative(REPO_ROOT, resolve(dirname(file), t.split('#')[0] ?? '')).startsWith('..'))
        .map((t) => `${relative(REPO_ROOT, file)}: ${t}`),
    );
    assert.deepEqual(outside, []);
  });
});
