/**
 * Source comments say what the code does, in the code's own terms. A reader with only the
 * repository must be able to follow them, so a comment in server/src, client/src, catalog/src or
 * model/src never cites a ticket number, a note kept outside the repository, or a numbered section
 * of a specification the repository does not hold. A fact taken from DataHub names DataHub's
 * public file instead; a rule taken from the specification is said in words.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PARTS = ['server/src', 'client/src', 'catalog/src', 'model/src'];

/** What a comment must not cite: [pattern, what it is]. */
export const FORBIDDEN: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:issue|ticket)s?\s*#?\d/i, 'a ticket number'],
  [/(?:^|[\s(])#\d+\b/, 'a ticket number'],
  [/\.\.\/shared\b/, 'a folder outside the repository'],
  [/(?:^|[\s(`'"])shared\/(?:fixtures|spec|notes)\//, 'a folder outside the repository'],
  [/\bnotes\//, 'a note outside the repository'],
  // A section of a public standard (RFC 6455 §5.3, CommonMark §4.7) is one a reader can open.
  [/(?<!(?:RFC \d+|CommonMark|ECMA-\d+) )§/, 'a numbered section the repository does not hold'],
  [/\bDESIGN\b/, 'a design note outside the repository'],
  [/\bsecurity[- ]probe\b/i, 'a report outside the repository'],
  [/\bfindings? \d/i, 'a finding of a report outside the repository'],
  [/\baudit (?:row|#)/i, 'a row of a report outside the repository'],
  [/\banchors\.md\b/, 'a note outside the repository'],
  [/\bdatahub-api\.md\b/, 'a note outside the repository'],
];

export interface Citation {
  /** 1-based line of the comment's offending line. */
  line: number;
  /** What is cited, from FORBIDDEN (each kind once). */
  what: string[];
  /** The offending line, trimmed. */
  text: string;
}

/** Every comment of a TypeScript text, as [start, end] offsets; comments only, never strings or templates. */
export function commentRanges(text: string, fileName = 'file.ts'): Array<[number, number]> {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const seen = new Map<number, number>();
  const add = (ranges: ts.CommentRange[] | undefined): void => {
    for (const r of ranges ?? []) seen.set(r.pos, r.end);
  };
  const visit = (node: ts.Node): void => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    // getChildren includes the punctuation tokens, so a comment before a lone `}` is found too.
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  add(ts.getLeadingCommentRanges(text, 0));
  return [...seen].sort((a, b) => a[0] - b[0]);
}

/** The citations in the comments of a TypeScript text, one per offending line. */
export function citationsIn(text: string, fileName = 'file.ts'): Citation[] {
  const out: Citation[] = [];
  for (const [start, end] of commentRanges(text, fileName)) {
    const firstLine = text.slice(0, start).split('\n').length;
    text
      .slice(start, end)
      .split('\n')
      .forEach((lineText, i) => {
        const what = [...new Set(FORBIDDEN.filter(([pattern]) => pattern.test(lineText)).map(([, w]) => w))];
        if (what.length > 0) out.push({ line: firstLine + i, what, text: lineText.trim() });
      });
  }
  return out;
}

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

describe('source comments cite nothing a reader of the repository cannot open', () => {
  test('a citation in a comment is found, and the same words in code or a string are not', () => {
    const text = [
      '/** Did-you-mean (issue 16, point 4): see notes §8 and ../shared/notes/anchors.md. */',
      "const a = 'issue 16 and notes §8'; // the rule of DESIGN",
      'const b = `${a} security-probe finding 4`;',
      'function f() {',
      '  // audit #1 (RFC 6455 §5.3 is public)',
      '  // the schema of shared/fixtures/datahub-graphql/search.graphql; datahub-web-react/src/app/entity/shared/utils.ts',
      '}',
    ].join('\n');
    const found = citationsIn(text).map((c) => `${c.line}: ${c.what.join('; ')}`);
    assert.deepEqual(found, [
      '1: a ticket number; a folder outside the repository; a note outside the repository; a numbered section the repository does not hold',
      '2: a design note outside the repository',
      '5: a ticket number; a row of a report outside the repository',
      '6: a folder outside the repository',
    ]);
  });

  test('reads every part', () => {
    for (const part of PARTS) assert.ok(tsFiles(path.join(ROOT, part)).length > 0, `no TypeScript file under ${part}`);
  });

  test('no comment in server/src, client/src, catalog/src or model/src cites a ticket, a note or a spec section', () => {
    const found: string[] = [];
    for (const part of PARTS) {
      for (const abs of tsFiles(path.join(ROOT, part))) {
        const file = path.relative(ROOT, abs).split(path.sep).join('/');
        for (const c of citationsIn(readFileSync(abs, 'utf8'), file))
          found.push(`${file}:${c.line}: ${c.what.join('; ')}: ${c.text}`);
      }
    }
    assert.ok(
      found.length === 0,
      `${found.length} comment line(s) cite what a reader of the repository cannot open; say what the code ` +
        `does instead (a DataHub fact may name DataHub's public file, a spec rule is said in words):\n` +
        found.join('\n'),
    );
  });
});
