/** The literal syntax of each VS Code language id (see literals.ts); unknown languages get DEFAULT_SYNTAX. */
import { cLike, DEFAULT_SYNTAX, go, java, js, json, prose, rust, sql, type LiteralSyntax } from './literals';
import { pythonSyntax } from './pythonStrings';

const BY_LANGUAGE: Readonly<Record<string, LiteralSyntax>> = {
  python: pythonSyntax,
  javascript: js,
  typescript: js,
  javascriptreact: js,
  typescriptreact: js,
  vue: js,
  svelte: js,
  java,
  scala: java,
  kotlin: java,
  groovy: java,
  csharp: java,
  go,
  c: cLike,
  cpp: cLike,
  'objective-c': cLike,
  swift: rust,
  rust,
  json,
  jsonc: json,
  jsonl: json,
  json5: js,
  sql,
  'sql-bigquery': sql,
  snowflake_sql: sql,
  postgres: sql,
  mysql: sql,
  plsql: sql,
  markdown: prose,
  mdx: prose,
  plaintext: prose,
  restructuredtext: prose,
  asciidoc: prose,
};

/** The literal syntax of a VS Code language id; unknown languages get DEFAULT_SYNTAX. */
export function literalSyntaxFor(languageId: string): LiteralSyntax {
  return Object.prototype.hasOwnProperty.call(BY_LANGUAGE, languageId) ? BY_LANGUAGE[languageId]! : DEFAULT_SYNTAX;
}
