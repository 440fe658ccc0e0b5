/* eslint-disable @typescript-eslint/no-unsafe-enum-comparison -- charCodeAt compared with CharCode, as server/src/scan does */
/**
 * Where each character of a YAML scalar's value stands in the source: quotes, escapes (`\u0041`,
 * `\"`, `''`), folded line breaks and block indentation undone the way the `yaml` package undoes
 * them (mirrors its `resolve-flow-scalar` and `resolve-block-scalar`). Only built for scalars that
 * hold a URN, so the cost does not grow with the document.
 */
import { Scalar } from 'yaml';
import { MappedText as MappedValue, type SourceMap } from '../../../server/src/scan/sourceMap';
import { CharCode } from '../../../server/src/scan/charCode';

/** The source map of `node`'s string value, or one spanning the whole node when it cannot be rebuilt exactly. */
export function scalarSourceMap(text: string, node: Scalar): SourceMap {
  const value = String(node.value);
  const [start, end] = node.range ?? [0, text.length];
  const inner = node.type === Scalar.QUOTE_SINGLE || node.type === Scalar.QUOTE_DOUBLE ? 1 : 0;
  if (
    node.type !== Scalar.BLOCK_LITERAL &&
    node.type !== Scalar.BLOCK_FOLDED &&
    end - start - 2 * inner === value.length &&
    text.startsWith(value, start + inner)
  ) {
    return { offset: start + inner };
  }
  let mapped: MappedValue | undefined;
  switch (node.type) {
    case Scalar.PLAIN:
      mapped = unfoldLines(text, start, end, false);
      break;
    // Like the `yaml` package, drop the last character as the closing quote even when it is not one.
    case Scalar.QUOTE_SINGLE:
      mapped = unfoldLines(text, start + 1, Math.max(start + 1, end - 1), true);
      break;
    case Scalar.QUOTE_DOUBLE:
      mapped = doubleQuoted(text, start, end);
      break;
    case Scalar.BLOCK_LITERAL:
      mapped = blockScalar(text, start, end, false);
      break;
    case Scalar.BLOCK_FOLDED:
      mapped = blockScalar(text, start, end, true);
      break;
    default:
      break;
  }
  if (mapped && mapped.value === value) return mapped;
  return approximateMap(text, start, end, value);
}

/** Fallback: the value verbatim inside the node, else every character maps to the whole node. */
function approximateMap(text: string, start: number, end: number, value: string): SourceMap {
  const at = text.slice(start, end).indexOf(value);
  if (at >= 0) return { offset: start + at };
  return { starts: new Array<number>(value.length).fill(start), ends: new Array<number>(value.length).fill(end) };
}

function isBlank(c: number): boolean {
  return c === CharCode.Space || c === CharCode.Tab;
}

/** Plain and single-quoted scalars: lines trimmed, one line break folds to a space, n+1 breaks to n newlines. */
function unfoldLines(text: string, from: number, to: number, singleQuoted: boolean): MappedValue {
  const out = new MappedValue();
  const copy = (a: number, b: number): void => {
    if (!singleQuoted) return out.run(text, a, b);
    for (let p = a; p < b; p++) {
      if (text.charCodeAt(p) === CharCode.SingleQuote && text.charCodeAt(p + 1) === CharCode.SingleQuote && p + 1 < b) {
        out.made("'", p, p + 2);
        p++;
      } else {
        out.run(text, p, p + 1);
      }
    }
  };
  let lineStart = from;
  let first = true;
  let sep = ' ';
  let sepAt = -1;
  for (;;) {
    const lf = text.indexOf('\n', lineStart);
    if (lf < 0 || lf >= to) break;
    let contentEnd = lf > lineStart && text.charCodeAt(lf - 1) === CharCode.CarriageReturn ? lf - 1 : lf;
    while (contentEnd > lineStart && isBlank(text.charCodeAt(contentEnd - 1))) contentEnd--;
    let contentStart = lineStart;
    if (!first) while (contentStart < contentEnd && isBlank(text.charCodeAt(contentStart))) contentStart++;
    if (first) {
      copy(contentStart, contentEnd);
      first = false;
      sepAt = lf;
    } else if (contentStart === contentEnd) {
      if (sep === '\n') out.made('\n', lf, lf + 1);
      else sep = '\n';
    } else {
      out.made(sep, sepAt, sepAt + 1);
      copy(contentStart, contentEnd);
      sep = ' ';
      sepAt = lf;
    }
    lineStart = lf + 1;
  }
  if (first) {
    copy(from, to);
    return out;
  }
  let lastStart = lineStart;
  while (lastStart < to && isBlank(text.charCodeAt(lastStart))) lastStart++;
  out.made(sep, sepAt, sepAt + 1);
  copy(lastStart, to);
  return out;
}

const DOUBLE_QUOTE_ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  '\t': '\t',
};

function doubleQuoted(text: string, start: number, end: number): MappedValue {
  const out = new MappedValue();
  for (let i = start + 1; i < end - 1; i++) {
    const ch = text[i]!;
    if (ch === '\r' && text[i + 1] === '\n') continue;
    if (ch === '\n') {
      let fold = '';
      let j = i;
      for (let c = text[j + 1]; c === ' ' || c === '\t' || c === '\n' || c === '\r'; c = text[j + 1]) {
        if (c === '\r' && text[j + 2] !== '\n') break;
        if (c === '\n') fold += '\n';
        j++;
      }
      out.made(fold || ' ', i, i + 1);
      i = j;
    } else if (ch === '\\') {
      const escapeAt = i;
      const next = text[++i] ?? '';
      const simple = DOUBLE_QUOTE_ESCAPES[next];
      if (simple !== undefined) {
        out.made(simple, escapeAt, i + 1);
      } else if (next === '\n' || (next === '\r' && text[i + 1] === '\n')) {
        if (next === '\r') i++;
        while (text[i + 1] === ' ' || text[i + 1] === '\t') i++;
      } else if (next === 'x' || next === 'u' || next === 'U') {
        const length = next === 'x' ? 2 : next === 'u' ? 4 : 8;
        const hex = text.substr(i + 1, length);
        const code = hex.length === length && /^[0-9a-fA-F]+$/.test(hex) ? parseInt(hex, 16) : NaN;
        out.made(
          Number.isNaN(code) || code > 0x10ffff ? text.substr(escapeAt, length + 2) : String.fromCodePoint(code),
          escapeAt,
          i + 1 + length,
        );
        i += length;
      } else {
        out.run(text, escapeAt, i + 1);
      }
    } else if (ch === ' ' || ch === '\t') {
      const wsStart = i;
      while (text[i + 1] === ' ' || text[i + 1] === '\t') i++;
      const after = text[i + 1];
      if (after !== '\n' && !(after === '\r' && text[i + 2] === '\n')) out.run(text, wsStart, i + 1);
    } else {
      out.run(text, i, i + 1);
    }
  }
  return out;
}

interface BlockLine {
  indentStart: number;
  contentStart: number;
  contentEnd: number;
  breakAt: number;
}

/** Block scalars (`|`, `>`): indentation removed, folded lines joined, chomping applied. */
function blockScalar(text: string, start: number, end: number, folded: boolean): MappedValue | undefined {
  const headerEnd = text.indexOf('\n', start);
  if (headerEnd < 0 || headerEnd >= end) return new MappedValue();
  let chomp = '';
  let explicitIndent = 0;
  for (let p = start + 1; p < headerEnd; p++) {
    const ch = text[p]!;
    if (!chomp && (ch === '-' || ch === '+')) chomp = ch;
    else if (!explicitIndent && Number(ch)) explicitIndent = Number(ch);
    else break;
  }
  const lines = splitBlockLines(text, headerEnd + 1, end);
  const isEmpty = (l: BlockLine): boolean =>
    l.contentStart === l.contentEnd ||
    (l.contentEnd - l.contentStart === 1 && text.charCodeAt(l.contentStart) === CharCode.CarriageReturn);
  let chompStart = lines.length;
  for (let i = lines.length - 1; i >= 0 && isEmpty(lines[i]!); i--) chompStart = i;
  const out = new MappedValue();
  const lastBreak = lines[lines.length - 1]?.breakAt ?? start;
  if (chompStart === 0) {
    if (chomp === '+' && lines.length > 0)
      out.made('\n'.repeat(Math.max(1, lines.length - 1)), lastBreak, lastBreak + 1);
    return out;
  }
  let trimIndent = collectionIndent(text, start) + explicitIndent;
  let contentStart = 0;
  for (let i = 0; i < chompStart; i++) {
    const line = lines[i]!;
    const indent = line.contentStart - line.indentStart;
    if (isEmpty(line)) {
      if (explicitIndent === 0 && indent > trimIndent) trimIndent = indent;
    } else {
      if (explicitIndent === 0) trimIndent = indent;
      contentStart = i;
      break;
    }
  }
  for (let i = lines.length - 1; i >= chompStart; i--) {
    const line = lines[i]!;
    if (line.contentStart - line.indentStart > trimIndent) chompStart = i + 1;
  }
  const indentTail = (line: BlockLine): void =>
    out.run(text, Math.min(line.indentStart + trimIndent, line.contentStart), line.contentStart);
  let sep = '';
  let sepAt = start;
  let prevMoreIndented = false;
  for (let i = 0; i < contentStart; i++) {
    const line = lines[i]!;
    indentTail(line);
    out.made('\n', line.breakAt, line.breakAt + 1);
  }
  for (let i = contentStart; i < chompStart; i++) {
    const line = lines[i]!;
    let contentEnd = line.contentEnd;
    if (contentEnd > line.contentStart && text.charCodeAt(contentEnd - 1) === CharCode.CarriageReturn) contentEnd--;
    const indent = line.contentStart - line.indentStart;
    if (!folded) {
      out.made(sep, sepAt, sepAt + 1);
      indentTail(line);
      out.run(text, line.contentStart, contentEnd);
      sep = '\n';
    } else if (indent > trimIndent || text.charCodeAt(line.contentStart) === CharCode.Tab) {
      if (sep === ' ') sep = '\n';
      else if (!prevMoreIndented && sep === '\n') sep = '\n\n';
      out.made(sep, sepAt, sepAt + 1);
      indentTail(line);
      out.run(text, line.contentStart, contentEnd);
      sep = '\n';
      prevMoreIndented = true;
    } else if (contentEnd === line.contentStart) {
      if (sep === '\n') out.made('\n', line.breakAt, line.breakAt + 1);
      else sep = '\n';
    } else {
      out.made(sep, sepAt, sepAt + 1);
      out.run(text, line.contentStart, contentEnd);
      sep = ' ';
      prevMoreIndented = false;
    }
    sepAt = line.breakAt;
  }
  if (chomp === '+') {
    for (let i = chompStart; i < lines.length; i++) {
      const line = lines[i]!;
      out.made('\n', sepAt, sepAt + 1);
      indentTail(line);
      sepAt = line.breakAt;
    }
    if (!out.value.endsWith('\n')) out.made('\n', sepAt, sepAt + 1);
  } else if (chomp !== '-') {
    out.made('\n', sepAt, sepAt + 1);
  }
  return out;
}

/** Lines of a block scalar's content as the `yaml` package splits them (on `\n` followed by spaces). */
function splitBlockLines(text: string, from: number, to: number): BlockLine[] {
  const lines: BlockLine[] = [];
  let lineStart = from;
  for (;;) {
    let contentStart = lineStart;
    while (contentStart < to && text.charCodeAt(contentStart) === CharCode.Space) contentStart++;
    const lf = text.indexOf('\n', contentStart);
    const lineEnd = lf < 0 || lf >= to ? to : lf;
    lines.push({ indentStart: lineStart, contentStart, contentEnd: lineEnd, breakAt: lineEnd });
    if (lineEnd >= to) return lines;
    lineStart = lineEnd + 1;
  }
}

/**
 * The indentation of the collection a block scalar header at `header` belongs to, as the parser
 * counts it: the column of the innermost `- ` item or `key:` on the header's line.
 */
function collectionIndent(text: string, header: number): number {
  const lineStart = text.lastIndexOf('\n', header - 1) + 1;
  let p = lineStart;
  while (text.charCodeAt(p) === CharCode.Space) p++;
  let collection = p;
  while (
    text.charCodeAt(p) === CharCode.Dash &&
    (text.charCodeAt(p + 1) === CharCode.Space || text.charCodeAt(p + 1) === CharCode.Tab)
  ) {
    collection = p;
    p += 2;
    while (text.charCodeAt(p) === CharCode.Space) p++;
  }
  if (p < header) collection = p;
  return collection - lineStart;
}
