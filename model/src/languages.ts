/**
 * The languages Catalog Lens reads, one row per VS Code language id:
 *
 * - `extensions`: the file extensions Check Workspace, the workspace index (and its file watcher)
 *   and the command line read as this language (a language without one is read only when open);
 * - `extractors`: how its documents are scanned (server/src/scan/index.ts runs them; `text` alone
 *   when the row names none);
 * - `syntax`: how its string literals are read, by name (server/src/scan/languages.ts holds the
 *   readers; `default` when the row names none);
 * - `on`: scanned by default (`catalogLens.languages`' default and the extension's
 *   `onLanguage:` activation events, which test/model/languages.test.ts holds to this table).
 *
 * A language id no row names is scanned as text with the default literal syntax when the user
 * turns it on. A new language is a new row here.
 */

/** The scanners a language's documents go through. */
export type ExtractorName = 'text' | 'yaml' | 'pythonBuilders' | 'pythonClasses' | 'java';

/** The ways of reading string literals (each a `LiteralSyntax` of server/src/scan/, by its `name`). */
export type LiteralSyntaxName =
  'default' | 'python' | 'javascript' | 'java' | 'go' | 'c' | 'rust' | 'json' | 'sql' | 'prose';

export interface Language {
  /** VS Code's language id. */
  readonly id: string;
  readonly extensions: readonly string[];
  readonly extractors: readonly ExtractorName[];
  readonly syntax: LiteralSyntaxName;
  /** Scanned by default. */
  readonly on: boolean;
}

type Row = Partial<Omit<Language, 'id'>> & { readonly id: string };

/** Scanned by default, in the order `catalogLens.languages` lists them; then the others read when turned on. */
const ROWS: readonly Row[] = [
  {
    id: 'python',
    on: true,
    extensions: ['.py'],
    extractors: ['text', 'pythonBuilders', 'pythonClasses'],
    syntax: 'python',
  },
  { id: 'yaml', on: true, extensions: ['.yml', '.yaml'], extractors: ['yaml'] },
  { id: 'sql', on: true, extensions: ['.sql'], syntax: 'sql' },
  { id: 'json', on: true, extensions: ['.json'], syntax: 'json' },
  { id: 'markdown', on: true, extensions: ['.md'], syntax: 'prose' },
  { id: 'plaintext', on: true, extensions: ['.txt'], syntax: 'prose' },
  { id: 'typescript', on: true, extensions: ['.ts'], syntax: 'javascript' },
  { id: 'javascript', on: true, extensions: ['.js'], syntax: 'javascript' },
  { id: 'typescriptreact', on: true, extensions: ['.tsx'], syntax: 'javascript' },
  { id: 'javascriptreact', on: true, extensions: ['.jsx'], syntax: 'javascript' },
  { id: 'java', on: true, extensions: ['.java'], extractors: ['text', 'java'], syntax: 'java' },
  { id: 'scala', on: true, extensions: ['.scala'], syntax: 'java' },
  { id: 'go', on: true, extensions: ['.go'], syntax: 'go' },
  { id: 'shellscript', on: true, extensions: ['.sh'] },
  { id: 'toml', on: true, extensions: ['.toml'] },
  // YAML dialects with their own language ids in popular extensions.
  { id: 'github-actions-workflow', extractors: ['yaml'] },
  { id: 'dockercompose', extractors: ['yaml'] },
  { id: 'vue', syntax: 'javascript' },
  { id: 'svelte', syntax: 'javascript' },
  { id: 'json5', syntax: 'javascript' },
  { id: 'kotlin', syntax: 'java' },
  { id: 'groovy', syntax: 'java' },
  { id: 'csharp', syntax: 'java' },
  { id: 'c', syntax: 'c' },
  { id: 'cpp', syntax: 'c' },
  { id: 'objective-c', syntax: 'c' },
  { id: 'swift', syntax: 'rust' },
  { id: 'rust', syntax: 'rust' },
  // Not on by default: editor settings files are jsonc, and the server (and its trace) should not read them.
  { id: 'jsonc', syntax: 'json' },
  { id: 'jsonl', syntax: 'json' },
  { id: 'sql-bigquery', syntax: 'sql' },
  { id: 'snowflake_sql', syntax: 'sql' },
  { id: 'postgres', syntax: 'sql' },
  { id: 'mysql', syntax: 'sql' },
  { id: 'plsql', syntax: 'sql' },
  { id: 'mdx', syntax: 'prose' },
  { id: 'restructuredtext', syntax: 'prose' },
  { id: 'asciidoc', syntax: 'prose' },
];

const TEXT_ONLY: readonly ExtractorName[] = ['text'];

/** Every language a row names, with the defaults filled in. */
export const LANGUAGES: readonly Language[] = ROWS.map((r) => ({
  id: r.id,
  extensions: r.extensions ?? [],
  extractors: r.extractors ?? TEXT_ONLY,
  syntax: r.syntax ?? 'default',
  on: r.on ?? false,
}));

const BY_ID: ReadonlyMap<string, Language> = new Map(LANGUAGES.map((l) => [l.id, l]));

/** The language ids scanned by default (`catalogLens.languages`' default), in the table's order. */
export const DEFAULT_LANGUAGES: readonly string[] = LANGUAGES.filter((l) => l.on).map((l) => l.id);

/** File extension (lower case, with its dot) → the language its files are read as. */
export const LANGUAGE_BY_EXTENSION: Readonly<Record<string, string>> = Object.fromEntries(
  LANGUAGES.flatMap((l) => l.extensions.map((e) => [e, l.id])),
);

/** The row of a language id; undefined for one no row names (a Map lookup: `constructor` is no language). */
export function languageOf(id: string): Language | undefined {
  return BY_ID.get(id);
}

/** The extractors a language's documents go through: `text` alone for a language no row names. */
export function extractorsOf(id: string): readonly ExtractorName[] {
  return BY_ID.get(id)?.extractors ?? TEXT_ONLY;
}

/** The name of a language's literal syntax: `default` for a language no row names. */
export function literalSyntaxNameOf(id: string): LiteralSyntaxName {
  return BY_ID.get(id)?.syntax ?? 'default';
}
