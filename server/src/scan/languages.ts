/**
 * The literal syntax of each VS Code language id (see literals.ts): the languages table
 * (model/src/languages.ts) names one per language; the readers are here, by that name. Unknown
 * languages get DEFAULT_SYNTAX.
 */
import { literalSyntaxNameOf, type LiteralSyntaxName } from '../../../model/src/languages';
import { cLike, DEFAULT_SYNTAX, go, java, js, json, prose, rust, sql, type LiteralSyntax } from './literals';
import { pythonSyntax } from './pythonStrings';

/** Each literal syntax by its name (the `name` each one carries). */
export const SYNTAX_BY_NAME: Readonly<Record<LiteralSyntaxName, LiteralSyntax>> = {
  default: DEFAULT_SYNTAX,
  python: pythonSyntax,
  javascript: js,
  java,
  go,
  c: cLike,
  rust,
  json,
  sql,
  prose,
};

/** The literal syntax of a VS Code language id; unknown languages get DEFAULT_SYNTAX. */
export function literalSyntaxFor(languageId: string): LiteralSyntax {
  return SYNTAX_BY_NAME[literalSyntaxNameOf(languageId)];
}
