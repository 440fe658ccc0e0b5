/**
 * Text edits to YAML that keep everything outside the edited value byte for byte: the
 * replacement keeps the scalar's style (a `|` block stays a block, quotes stay quotes) and
 * indentation, so comments and formatting around it are untouched.
 */
import type { YamlScalarRef } from '../scan/types';

/** The new source text for `node`, holding `value`, written in the node's own style where it can be. */
export function renderScalarLike(node: YamlScalarRef, value: string, source: string): string {
  const keyIndent = lineIndent(source, node.start);
  const original = source.slice(node.start, node.end);
  const multiLine = value.includes('\n');
  if (node.style === 'BLOCK_LITERAL' || node.style === 'BLOCK_FOLDED' || multiLine) {
    const header = node.style === 'BLOCK_FOLDED' && !multiLine ? '>' : '|';
    const indent = blockIndent(original) ?? `${keyIndent}  `;
    const body = value.replace(/\n+$/, '').split('\n').map((l) => (l === '' ? '' : indent + l)).join('\n');
    const chomp = value.endsWith('\n') ? '' : '-';
    // A block scalar's range runs to the end of its last line; keep whatever ended the original.
    const tail = /\n$/.test(original) ? '\n' : '';
    return `${header}${chomp}\n${body}${tail}`;
  }
  if (node.style === 'QUOTE_SINGLE') return `'${value.replace(/'/g, "''")}'`;
  if (node.style === 'QUOTE_DOUBLE' || !isSafePlain(value)) return JSON.stringify(value);
  return value;
}

/** A `description:` entry to insert at `insertAt`, indented like its siblings. */
export function renderInsertedDescription(value: string, indent: string): string {
  if (value.includes('\n')) {
    const body = value.replace(/\n+$/, '').split('\n').map((l) => (l === '' ? '' : `${indent}  ${l}`)).join('\n');
    return `${indent}description: |${value.endsWith('\n') ? '' : '-'}\n${body}\n`;
  }
  return `${indent}description: ${isSafePlain(value) ? value : JSON.stringify(value)}\n`;
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
export function isSafePlain(value: string): boolean {
  if (value === '' || value !== value.trim()) return false;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(value)) return false;
  if (/: |\s#|[\u0000-\u001f]/.test(value) || value.endsWith(':')) return false;
  if (/^(true|false|yes|no|on|off|null|~|[-+]?\d[\d_.eE+-]*|\.inf|\.nan)$/i.test(value)) return false;
  return true;
}
