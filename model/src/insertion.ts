/**
 * The one way text from the catalog (or from another file) is written into a document: a
 * function per destination that returns the characters to write so that the destination then
 * holds exactly the intended value, or refuses and says why. Callers offer no completion item,
 * quick fix or insertion for a refusal (they log the reason).
 *
 * A destination is where the text lands: inside a string literal of a programming language
 * (its literal syntax, its quote and prefix), a YAML scalar of a given style, Markdown prose, or
 * a place whose syntax is not known ("any": the cursor of Insert URN at Cursor). The rules are
 * deliberately narrow: the functions escape only where the escape is exact in every dialect
 * (YAML's and SQL's doubled single quote); everything else that could end or change a literal
 * (quotes, backslashes, line breaks, interpolation braces, Markdown syntax) is refused.
 *
 * Every value must also be visible as written: control and hidden characters, and whitespace other
 * than single interior spaces, are refused, so a completion label or a fix title that shows the
 * value shows all of it (no padding that pushes a payload out of sight).
 */
import { HIDDEN_CHARACTERS } from './inertText';
import { parseUrn, printUrn, type Urn } from './urn';

export type Destination =
  /**
   * The content of a string literal of the server's literal `syntax` (python, javascript, java, go,
   * c, rust, json, sql, prose, default): `quote` opens it, `prefix` stands before the quote (Python's `f`, `r`, `b` …).
   */
  | { place: 'string'; syntax: string; quote: string; prefix?: string }
  /**
   * A YAML scalar of this style (PLAIN, QUOTE_SINGLE, QUOTE_DOUBLE); `flow` when it stands inside
   * `[…]` or `{…}`; `number` when the place takes a number (a value of a structured property whose
   * type is number), which a plain scalar then holds as one.
   */
  | { place: 'yaml'; style: string; flow?: boolean; number?: boolean }
  /** Markdown prose (not a code span). */
  | { place: 'markdown' }
  /** Anywhere: the syntax at the cursor is not known. */
  | { place: 'any' };

export type Insertion = { ok: true; text: string } | { ok: false; reason: string };

/** A literal longer than this is refused (the scanners read at most 4,096 units as one URN). */
export const MAX_INSERTED = 4096;

const QUOTES_AND_BACKSLASH = /["'`\\]/;
const LINE_OR_CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;
const NOT_SINGLE_SPACE = /[^\S ]|\s{2,}|^\s|\s$/;
const KNOWN_SYNTAX = new Set<string>(['python', 'javascript', 'java', 'go', 'c', 'rust', 'json', 'sql']);
/** Characters that cannot start a YAML plain scalar (YAML 1.2, 7.3.3: indicators). */
const YAML_INDICATOR_START = /^[-?:,[\]{}#&*!|>'"%@`]/;
/** Plain scalars that YAML 1.1 or 1.2 resolves to another type than a string: numbers, booleans, null (read widely). */
const YAML_NOT_A_STRING = /^(?:[-+.~\d]|(?:null|true|false|yes|no|on|off|y|n)$)/i;

/** A decimal number as YAML 1.1 and 1.2 both read it (no sign `+`, no exponent, no leading zero but a lone one). */
const YAML_DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

function refuse(reason: string): Insertion {
  return { ok: false, reason };
}

function describe(c: string): string {
  if (c === ' ') return 'a space';
  if (/^[\x21-\x7E]$/.test(c)) return `\`${c}\``;
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** What every destination refuses: nothing to write, too long, hidden or control characters, padding. */
function visibleProblem(value: string): string | undefined {
  if (value.length === 0) return 'it is empty';
  if (value.length > MAX_INSERTED) return `it is longer than ${MAX_INSERTED} characters`;
  const control = LINE_OR_CONTROL.exec(value);
  if (control) return `it holds the control or line-break character ${describe(control[0])}`;
  const hidden = value.match(HIDDEN_CHARACTERS);
  if (hidden) return `it holds the hidden character ${describe(hidden[0])}`;
  if (NOT_SINGLE_SPACE.test(value)) return 'it holds white space other than single spaces between words';
  return undefined;
}

/**
 * What to write inside a string literal so that its value is `value`: the value as it is, or
 * (SQL's single-quoted strings) with its quotes doubled. Refused: any quote or backslash (they
 * could close the literal or start an escape, and dialects read backslashes differently),
 * interpolation braces in Python's f- and t-strings and `${` in JavaScript's template literals,
 * and for a language whose literals are not known, braces and `$` too.
 */
function stringContent(value: string, d: Extract<Destination, { place: 'string' }>): Insertion {
  const sqlSingle = d.syntax === 'sql' && d.quote === "'";
  const quote = QUOTES_AND_BACKSLASH.exec(sqlSingle ? value.replace(/'/g, '') : value);
  if (quote) return refuse(`a ${describe(quote[0])} would end or change the ${d.syntax} string literal`);
  const prefix = (d.prefix ?? '').toLowerCase();
  if (d.syntax === 'python') {
    if (/[ft]/.test(prefix) && /[{}]/.test(value)) return refuse('a brace would be a field of the f-string');
    if (prefix.includes('b') && /[^\x00-\x7F]/.test(value)) return refuse('a bytes literal holds only ASCII');
  } else if (d.syntax === 'javascript' && d.quote === '`' && value.includes('${')) {
    return refuse('`${` would start an expression in the template literal');
  } else if (!KNOWN_SYNTAX.has(d.syntax)) {
    const brace = /[{}$]/.exec(value);
    if (brace) return refuse(`a ${describe(brace[0])} may be interpolation in a literal of unknown syntax`);
  }
  return { ok: true, text: sqlSingle ? value.replace(/'/g, "''") : value };
}

/**
 * A YAML scalar's content: single-quoted doubles its quotes, double-quoted and plain hold the
 * value as written. A plain scalar refuses what would end it or read as another node: `: `,
 * ` #`, a trailing `:`, an indicator at its start, and brackets and braces (commas too in a flow
 * collection).
 */
function yamlContent(value: string, d: Extract<Destination, { place: 'yaml' }>): Insertion {
  if (d.style === 'QUOTE_SINGLE') {
    const bad = /["`\\]/.exec(value);
    if (bad) return refuse(`a ${describe(bad[0])} is refused in a YAML scalar`);
    return { ok: true, text: value.replace(/'/g, "''") };
  }
  const quote = QUOTES_AND_BACKSLASH.exec(value);
  if (quote) return refuse(`a ${describe(quote[0])} would end or change the YAML scalar`);
  if (d.style === 'QUOTE_DOUBLE') return { ok: true, text: value };
  if (d.style !== 'PLAIN') return refuse(`a YAML ${d.style} scalar is not written here`);
  // A decimal number where a number is wanted: YAML reads it as that number.
  if (d.number === true && YAML_DECIMAL.test(value)) return { ok: true, text: value };
  if (YAML_INDICATOR_START.test(value)) return refuse(`a plain YAML scalar cannot start with ${describe(value[0]!)}`);
  if (YAML_NOT_A_STRING.test(value))
    return refuse('a plain YAML scalar of this form is read as a number, a boolean or null');
  if (/: | #|:$/.test(value)) return refuse('`: `, ` #` or a trailing `:` would end the plain YAML scalar');
  const bracket = (d.flow ? /[[\]{},]/ : /[[\]{}]/).exec(value);
  if (bracket) return refuse(`a ${describe(bracket[0])} would end the plain YAML scalar`);
  return { ok: true, text: value };
}

/**
 * Markdown prose, read back as the same text: no character that could start a link, an autolink,
 * HTML, an entity, a code span, emphasis, strikethrough or a table cell; an underscore only
 * inside a word (CommonMark never reads one there as emphasis).
 */
function markdownContent(value: string): Insertion {
  const bad = /[[\]<>`\\&|*~!]/.exec(value);
  if (bad) return refuse(`a ${describe(bad[0])} would be Markdown syntax`);
  if (/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/.test(value))
    return refuse('an underscore outside a word would be Markdown emphasis');
  return { ok: true, text: value };
}

/** Anywhere: nothing that could end or change a literal of any language, or render as a link or an icon. */
function anyContent(value: string): Insertion {
  const bad = /["'`\\{}<>]|\]\(|\$\(/.exec(value);
  if (bad) return refuse(`${describe(bad[0][0]!)} could end a literal or be markup where it lands`);
  return { ok: true, text: value };
}

/** What to write at `destination` so that it holds exactly `value`, or why nothing can be. */
export function insertionFor(value: string, destination: Destination): Insertion {
  const problem = visibleProblem(value);
  if (problem) return refuse(problem);
  switch (destination.place) {
    case 'string':
      return stringContent(value, destination);
    case 'yaml':
      return yamlContent(value, destination);
    case 'markdown':
      return markdownContent(value);
    case 'any':
      return anyContent(value);
  }
}

/**
 * A URN from the catalog, accepted only when it is a well-formed URN of one of `kinds` (any kind
 * when absent) written the way the parser prints it, with nothing hidden in it; the parse, or why not.
 */
export function acceptCatalogUrn(
  urn: unknown,
  kinds?: readonly Urn['kind'][],
): { ok: true; urn: Urn } | { ok: false; reason: string } {
  if (typeof urn !== 'string') return { ok: false, reason: 'it is not text' };
  const problem = visibleProblem(urn);
  if (problem) return { ok: false, reason: problem };
  const parsed = parseUrn(urn);
  if (!parsed.ok) return { ok: false, reason: `it is not a well-formed URN (${parsed.error.message})` };
  if (kinds && !kinds.includes(parsed.urn.kind))
    return { ok: false, reason: `it names a ${parsed.urn.kind}, not a ${kinds.join(' or ')}` };
  if (printUrn(parsed.urn) !== urn) return { ok: false, reason: 'it is not written as DataHub writes it' };
  return { ok: true, urn: parsed.urn };
}
