/**
 * Text edits to YAML that keep everything outside the edited value byte for byte: the
 * replacement keeps the scalar's style (a `|` block stays a block, quotes stay quotes) and
 * indentation, so comments and formatting around it are untouched.
 */
import { parseDocument } from 'yaml';
import type { YamlScalarRef } from '../scan/types';

/**
 * Characters a pull must not write raw: what YAML cannot hold unescaped (C0 controls but tab and
 * line feed, DEL, C1, U+FFFE/U+FFFF, lone surrogates), carriage returns and U+2028/U+2029 (a reader
 * would take them for line breaks), and the invisible format characters that reorder or hide text
 * (bidi controls, zero-width characters, soft hyphen, BOM). A value holding any of them is written
 * double-quoted with each of them as an escape, so it reads back exactly and shows in the editor.
 */
const MUST_ESCAPE_CHAR =
  '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2069\\ufeff\\ufff9-\\ufffb\\ufffe\\uffff]';
const LONE_SURROGATE = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
const MUST_ESCAPE = new RegExp(`${MUST_ESCAPE_CHAR}|${LONE_SURROGATE}`);
const ESCAPED_BY_US = new RegExp(MUST_ESCAPE_CHAR, 'g');

/** Whether `value` holds a character that a pull writes only as an escape. */
export function mustEscape(value: string): boolean {
  return MUST_ESCAPE.test(value);
}

/** `value` as a YAML double-quoted scalar: JSON's escapes (valid YAML), plus \uXXXX for every character of MUST_ESCAPE. */
export function doubleQuoted(value: string): string {
  // JSON.stringify already escapes quotes, backslashes, C0 controls and lone surrogates.
  return JSON.stringify(value).replace(ESCAPED_BY_US, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The new source text for `node`, holding `value`, written in the node's own style where that
 * style reads back to exactly `value` (checked by parsing it), else double-quoted.
 */
export function renderScalarLike(node: YamlScalarRef, value: string, source: string): string {
  if (node.start !== node.end) return renderOver(node, value, source);
  // An empty value (`description:` with nothing after the colon): a space after the colon, and one
  // before a comment that follows, so the text stays the key's value and the comment a comment.
  const lead = /[ \t]/.test(source.charAt(node.start - 1)) ? '' : ' ';
  const rendered = renderOver(node, value, source);
  const trail = source.charAt(node.end) === '#' && !rendered.endsWith('\n') ? ' ' : '';
  return lead + rendered + trail;
}

function renderOver(node: YamlScalarRef, value: string, source: string): string {
  const original = source.slice(node.start, node.end);
  // A block scalar's range runs to the end of its last line; keep whatever ended the original.
  const tail = (node.style === 'BLOCK_LITERAL' || node.style === 'BLOCK_FOLDED') && /\n$/.test(original) ? '\n' : '';
  if (mustEscape(value)) return doubleQuoted(value) + tail;
  // In a flow collection a block scalar cannot stand: a text of several lines is written quoted there.
  if (node.flow && value.includes('\n')) return doubleQuoted(value);
  const styled = renderInStyle(node, value, source, original);
  // A block scalar in place of a one-line value would take in what follows it on the line (a comment).
  const lineEnd = source.indexOf('\n', node.end);
  const rest = source.slice(node.end, lineEnd < 0 ? source.length : lineEnd);
  if (tail === '' && styled.includes('\n') && rest.trim() !== '') return doubleQuoted(value);
  return readsBackAs(styled, value, node.flow === true) ? styled : doubleQuoted(value) + tail;
}

/**
 * Whether `rendered`, as the value of a key, reads back as `value`. A block scalar cannot hold
 * every text as written (leading spaces on its first line, several trailing line breaks, folding):
 * those fall back to double quotes. The block's indentation is deeper than its key's in the file
 * as here, so what holds here holds there.
 */
function readsBackAs(rendered: string, value: string, inFlow = false): boolean {
  const doc = parseDocument(inFlow ? `k: {v: ${rendered}}` : `k: ${rendered}`);
  if (doc.errors.length > 0) return false;
  const k = (doc.toJS() as { k?: unknown } | null)?.k;
  return (inFlow ? (k as { v?: unknown } | null | undefined)?.v : k) === value;
}

function renderInStyle(node: YamlScalarRef, value: string, source: string, original: string): string {
  const keyIndent = lineIndent(source, node.start);
  const multiLine = value.includes('\n');
  if (node.style === 'BLOCK_LITERAL' || node.style === 'BLOCK_FOLDED' || multiLine) {
    const header = node.style === 'BLOCK_FOLDED' && !multiLine ? '>' : '|';
    return blockScalar(header, value, blockIndent(original) ?? `${keyIndent}  `) + (/\n$/.test(original) ? '\n' : '');
  }
  if (node.style === 'QUOTE_SINGLE') return `'${value.replace(/'/g, "''")}'`;
  if (node.style === 'QUOTE_DOUBLE' || !isSafePlain(value, node.flow === true)) return doubleQuoted(value);
  return value;
}

/** Where and how a pull inserts a description (see YamlInsertStyle in scan/types). */
export interface InsertionPoint {
  insertAt: number;
  indent: string;
  insertStyle?: 'line' | 'flow' | 'value';
  needsLineBreak?: boolean;
  /** For 'value': the end of a `~`/`null` the text replaces (the edit runs from insertAt to here). */
  replaceEnd?: number;
  /** The key a 'line' insertion writes (absent: `description`). */
  key?: string;
}

/**
 * The text a pull inserts at `at.insertAt` for `value`: a `description:` line indented like its
 * siblings (a `|` block for several lines), `, description: …` inside a flow mapping, or the
 * value itself after `name:` in the map form of columns. Always text that reads back to `value`.
 */
export function renderInsertion(at: InsertionPoint, value: string, source: string): string {
  const style = at.insertStyle ?? 'line';
  if (style === 'flow') {
    const open = /\{\s*$/.test(source.slice(Math.max(0, at.insertAt - 200), at.insertAt));
    return `${open ? '' : ', '}description: ${inlineScalar(value, true)}`;
  }
  if (style === 'value') {
    const afterColon = source.charCodeAt(at.insertAt - 1) === 58; // ':'
    const flow = /^\s*[,}]/.test(source.slice(at.replaceEnd ?? at.insertAt, (at.replaceEnd ?? at.insertAt) + 200));
    return `${afterColon ? ' ' : ''}${inlineScalar(value, flow)}`;
  }
  const lead = at.needsLineBreak ? '\n' : '';
  const key = at.key ?? 'description';
  if (!mustEscape(value) && value.includes('\n')) {
    const block = blockScalar('|', value, `${at.indent}  `);
    if (readsBackAs(block, value)) return `${lead}${at.indent}${key}: ${block}\n`;
  }
  return `${lead}${at.indent}${key}: ${inlineScalar(value, false)}\n`;
}

/** `value` on one line: plain where that reads back exactly, else double-quoted. */
function inlineScalar(value: string, inFlow: boolean): string {
  return !mustEscape(value) && isSafePlain(value, inFlow) && readsBackAs(value, value, inFlow)
    ? value
    : doubleQuoted(value);
}

/** `value` as a block scalar with `header` (`|` or `>`), its lines at `indent`; strip chomping unless it ends in a line break. */
function blockScalar(header: '|' | '>', value: string, indent: string): string {
  const body = value
    .replace(/\n+$/, '')
    .split('\n')
    .map((l) => (l === '' ? '' : indent + l))
    .join('\n');
  return `${header}${value.endsWith('\n') ? '' : '-'}\n${body}`;
}

function lineIndent(source: string, offset: number): string {
  const lineStart = source.lastIndexOf('\n', offset - 1) + 1;
  const m = /^[ \t]*(?:- )?/.exec(source.slice(lineStart, offset));
  return ' '.repeat(m ? m[0].length : 0);
}

/** The indentation of a block scalar's first content line. */
function blockIndent(original: string): string | undefined {
  const m = /^[|>][^\n]*\n((?:[ \t]*\n)*)([ ]+)\S/.exec(original);
  return m ? m[2] : undefined;
}

/** Whether `value` reads back the same as a plain scalar. */
export function isSafePlain(value: string, inFlow = false): boolean {
  if (value === '' || value !== value.trim()) return false;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(value)) return false;
  // Inside a flow collection (`{name: x, description: …}`) a flow indicator anywhere ends the scalar.
  if (inFlow && /[,[\]{}]/.test(value)) return false;
  if (/: |\s#|[\u0000-\u001f]/.test(value) || value.endsWith(':')) return false;
  if (/^(true|false|yes|no|on|off|null|~|[-+]?\d[\d_.eE+-]*|\.inf|\.nan)$/i.test(value)) return false;
  return true;
}
