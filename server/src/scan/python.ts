/**
 * The Python builder extractor: `make_dataset_urn("hive", "db.users", "PROD")` and the other
 * builders of DataHub's `mce_builder`, read as the URN they build when every argument is a
 * string literal.
 */
import { PYTHON_BUILDERS, type BuilderSpec } from '../../../model/src/builders';
import { BUILDER_NAMESPACE, builderOccurrence, type BuilderScan } from './builderCall';
import {
  afterCallEnd,
  CommentFinder,
  isIdentifierChar,
  isIdentifierStart,
  MAX_CALL_LENGTH,
  readConcatenatedLiteral,
  readStringLiteral,
  skipTrivia,
  type StringLiteral,
} from './pythonSyntax';
import { CharCode } from './charCode';

export type { BuilderScan } from './builderCall';

export function findBuilderCalls(text: string): BuilderScan {
  const result: BuilderScan = { occurrences: [], calls: [] };
  let i = indexOfMake(text, 0);
  if (i < 0) return result;
  const comments = new CommentFinder(text);
  while (i >= 0) {
    i = readCallAt(text, i, result, comments);
    i = indexOfMake(text, i);
  }
  return result;
}

/**
 * `text.indexOf('make_', from)`, searched by its tail `ke_`: V8 finds a short needle by its first
 * character, and `k` is rarer in code than `m`, so far fewer places are compared.
 */
function indexOfMake(text: string, from: number): number {
  for (let i = text.indexOf('ke_', from + 2); i >= 0; i = text.indexOf('ke_', i + 1)) {
    if (text.charCodeAt(i - 1) === CharCode.a && text.charCodeAt(i - 2) === CharCode.m) return i - 2;
  }
  return -1;
}

/** Read the call whose name starts at `start`; returns where to search next. */
function readCallAt(text: string, start: number, result: BuilderScan, comments: CommentFinder): number {
  if (start > 0 && isIdentifierChar(text.charCodeAt(start - 1))) return start + 5;
  let nameEnd = start + 5;
  while (nameEnd < text.length && isIdentifierChar(text.charCodeAt(nameEnd))) nameEnd++;
  const name = text.slice(start, nameEnd);
  const spec = Object.prototype.hasOwnProperty.call(PYTHON_BUILDERS, name) ? PYTHON_BUILDERS[name] : undefined;
  if (!spec) return nameEnd;
  let open = nameEnd;
  while (text.charCodeAt(open) === CharCode.Space || text.charCodeAt(open) === CharCode.Tab) open++;
  if (text.charCodeAt(open) !== CharCode.OpenParen || comments.inComment(start)) return nameEnd;

  const args = readLiteralArguments(text, open);
  const end = args ? args.end : afterCallEnd(text, open);
  if (end < 0) return nameEnd;
  result.calls.push({ start, end });
  const values = args && argumentValues(spec, args);
  if (values) {
    const urn = spec.build(
      BUILDER_NAMESPACE,
      values.map((v) => (typeof v === 'string' ? v : v.value)),
    );
    result.occurrences.push(builderOccurrence(name, urn, values, start, end));
  }
  return end;
}

interface LiteralArguments {
  positional: StringLiteral[];
  keyword: Map<string, StringLiteral>;
  end: number;
}

/** The arguments when every one is a string literal (adjacent literals concatenated); else undefined. */
function readLiteralArguments(text: string, open: number): LiteralArguments | undefined {
  const limit = Math.min(text.length, open + MAX_CALL_LENGTH);
  const positional: StringLiteral[] = [];
  const keyword = new Map<string, StringLiteral>();
  let p = skipTrivia(text, open + 1, limit);
  while (text.charCodeAt(p) !== CharCode.CloseParen) {
    if (p >= limit) return undefined;
    let keywordName: string | undefined;
    if (isIdentifierStart(text.charCodeAt(p)) && !readStringLiteral(text, p, limit)) {
      let q = p;
      while (q < limit && isIdentifierChar(text.charCodeAt(q))) q++;
      const eq = skipTrivia(text, q, limit);
      if (text.charCodeAt(eq) !== CharCode.Equals || text.charCodeAt(eq + 1) === CharCode.Equals) return undefined;
      keywordName = text.slice(p, q);
      p = skipTrivia(text, eq + 1, limit);
    }
    const literal = readConcatenatedLiteral(text, p, limit);
    if (!literal || literal.computed) return undefined;
    if (keywordName !== undefined) {
      if (keyword.has(keywordName)) return undefined;
      keyword.set(keywordName, literal);
    } else {
      if (keyword.size > 0) return undefined;
      positional.push(literal);
    }
    p = skipTrivia(text, literal.end, limit);
    if (text.charCodeAt(p) === CharCode.Comma) p = skipTrivia(text, p + 1, limit);
    else if (text.charCodeAt(p) !== CharCode.CloseParen) return undefined;
  }
  return { positional, keyword, end: p + 1 };
}

/** Arguments in parameter order, defaults applied; undefined when the call does not fit the builder. */
function argumentValues(spec: BuilderSpec, args: LiteralArguments): Array<StringLiteral | string> | undefined {
  if (args.positional.length > spec.params.length) return undefined;
  const values: Array<StringLiteral | string> = [...args.positional];
  for (const [name, literal] of args.keyword) {
    const index = spec.params.indexOf(name);
    if (index < 0 || index < args.positional.length) return undefined;
    values[index] = literal;
  }
  for (let i = 0; i < spec.params.length; i++) {
    if (values[i] !== undefined) continue;
    const fallback = spec.defaults?.[spec.params[i]!];
    if (fallback !== undefined) values[i] = fallback;
    else if (i < spec.required) return undefined;
  }
  // Optional parameters without a default must not leave holes before given ones.
  for (let i = 0; i < values.length; i++) if (values[i] === undefined) return undefined;
  return values;
}
