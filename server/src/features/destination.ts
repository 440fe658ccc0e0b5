/**
 * Where an insertion lands in a document, read from the characters before it: the string literal
 * whose opening quote stands right before (its language's literal syntax, quote and prefix), a
 * YAML scalar (its style from the quote before; in a flow collection when a bracket is open on
 * the line), Markdown prose, or, when none of these can be told, "any". The value itself is then
 * written by model/src/insertion.ts, the one function per destination.
 */
import type { Destination } from '../../../model/src/insertion';
import { literalSyntaxFor } from '../scan/languages';

/** The languages whose documents are YAML. */
export const YAML_LANGUAGES: ReadonlySet<string> = new Set(['yaml', 'github-actions-workflow', 'dockercompose']);

/** The destination of text written at `at` of `text`, a document of `languageId`. */
export function destinationAt(text: string, at: number, languageId: string): Destination {
  const before = at > 0 ? text[at - 1]! : '';
  if (YAML_LANGUAGES.has(languageId)) {
    if (before === '"') return { place: 'yaml', style: 'QUOTE_DOUBLE' };
    if (before === "'") return { place: 'yaml', style: 'QUOTE_SINGLE' };
    const lineStart = text.lastIndexOf('\n', at - 1) + 1;
    const line = text.slice(lineStart, at);
    const open = (line.match(/[[{]/g)?.length ?? 0) - (line.match(/[\]}]/g)?.length ?? 0);
    return { place: 'yaml', style: 'PLAIN', flow: open > 0 };
  }
  const syntax = literalSyntaxFor(languageId);
  if (before !== '' && syntax.opens(before.charCodeAt(0))) {
    const prefix =
      syntax.name === 'python' ? (/[A-Za-z]{0,3}$/.exec(text.slice(Math.max(0, at - 4), at - 1))?.[0] ?? '') : '';
    return { place: 'string', syntax: syntax.name, quote: before, prefix };
  }
  if (syntax.name === 'prose') return { place: 'markdown' };
  return { place: 'any' };
}
