/**
 * Bad input for the server's pure services: URN texts (valid, mutated, assembled from pieces,
 * malformed on purpose), documents in every extractor's languages, YAML (well-formed and broken),
 * binary junk, hostile catalog text, and a fixed set of huge inputs (lines of a megabyte,
 * nesting ten thousand deep).
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import { REGISTRY_ENTITY_TYPES } from '../../../model/src/registry';
import { ARBITRARY_BY_KIND, editedUrnText, textOf, urnishText } from '../../model/urnArbitraries';

export const NAMESPACES: readonly string[] = ['li', 'svc'];

/** Language ids covering each extractor set: YAML, Python (text and builders), and text only. */
export const LANGUAGES: readonly string[] = [
  'yaml',
  'python',
  'sql',
  'markdown',
  'json',
  'plaintext',
  'typescript',
  'go',
  'shellscript',
  'toml',
];

const ns = fc.constantFrom(...NAMESPACES);
const word = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
const dotted = fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => ws.join('.'));
const ENVS = ['PROD', 'DEV', 'QA', 'STG'];
const env = fc.constantFrom(...ENVS);

type TupleKind = 'dataset' | 'mlFeature' | 'mlFeatureTable' | 'mlModel' | 'mlModelGroup';
const TUPLE_KINDS: readonly TupleKind[] = ['dataset', 'mlFeature', 'mlFeatureTable', 'mlModel', 'mlModelGroup'];

function validParts(kind: TupleKind, n: string, a: string, b: string, e: string): string[] {
  const platform = `urn:${n}:dataPlatform:${a}`;
  switch (kind) {
    case 'dataset':
    case 'mlModel':
    case 'mlModelGroup':
      return [platform, b, e];
    case 'mlFeature':
      return [a, b];
    case 'mlFeatureTable':
      return [platform, b];
  }
}

const tupleBase = fc.record({ n: ns, kind: fc.constantFrom(...TUPLE_KINDS), a: word, b: dotted, e: env });
const tuple = (n: string, kind: string, parts: string[]): string => `urn:${n}:${kind}:(${parts.join(',')})`;
/**
 * Entity types that are mistakes for a registry type (a custom type, one no registry knows and near
 * none, is a valid URN): the registry's names capitalised, or in the plural.
 */
const MISTAKEN_KINDS: readonly string[] = REGISTRY_ENTITY_TYPES.flatMap((k) => [
  k[0]!.toUpperCase() + k.slice(1),
  `${k}s`,
]);

/**
 * URNs that are malformed and written as one token (what a person means as one URN), each family a
 * mistake people make; the scanner must take each whole and report it.
 */
export const malformedUrn: fc.Arbitrary<{ family: string; text: string }> = fc
  .oneof(
    fc.tuple(tupleBase, fc.array(dotted, { minLength: 1, maxLength: 5 })).map(([t, extra]) => {
      const parts = validParts(t.kind, t.n, t.a, t.b, t.e);
      const wrong = [parts[0]!, ...extra];
      if (wrong.length === parts.length) wrong.push('x');
      return { family: 'wrong number of parts', text: tuple(t.n, t.kind, wrong) };
    }),
    fc.tuple(tupleBase, fc.nat()).map(([t, i]) => {
      const parts = validParts(t.kind, t.n, t.a, t.b, t.e);
      parts[i % parts.length] = '';
      return { family: 'empty part', text: tuple(t.n, t.kind, parts) };
    }),
    fc
      .tuple(
        tupleBase.filter((t) => t.kind !== 'mlFeature'),
        fc.constantFrom('bare', 'user', 'otherNs', 'empty'),
      )
      .map(([t, how]) => {
        const parts = validParts(t.kind, t.n, t.a, t.b, t.e);
        const other = t.n === 'li' ? 'svc' : 'li';
        parts[0] =
          how === 'bare'
            ? t.a
            : how === 'user'
              ? `urn:${t.n}:corpuser:${t.a}`
              : how === 'otherNs'
                ? `urn:${other}:dataPlatform:${t.a}`
                : `urn:${t.n}:dataPlatform:`;
        return { family: 'bad platform', text: tuple(t.n, t.kind, parts) };
      }),
    fc
      .tuple(
        tupleBase.filter((t) => t.kind === 'dataset' || t.kind === 'mlModel' || t.kind === 'mlModelGroup'),
        fc.stringMatching(/^[A-Z]{1,4}[.\-+/@][A-Z]{1,4}$/),
      )
      .map(([t, badEnv]) => ({
        family: 'bad env',
        text: tuple(t.n, t.kind, validParts(t.kind, t.n, t.a, t.b, badEnv)),
      })),
    fc.tuple(tupleBase, word).map(([t, w]) => {
      const parts = validParts(t.kind, t.n, t.a, t.b, t.e);
      parts[1] = `${parts[1]}(${w})`;
      return { family: 'parenthesis in a name', text: tuple(t.n, t.kind, parts) };
    }),
    tupleBase.map((t) => ({
      family: 'never closed',
      text: tuple(t.n, t.kind, validParts(t.kind, t.n, t.a, t.b, t.e)).slice(0, -1),
    })),
    fc.tuple(tupleBase, fc.constantFrom(...MISTAKEN_KINDS), fc.boolean()).map(([t, kind, asTuple]) => ({
      family: 'unknown entity type',
      text: asTuple ? tuple(t.n, kind, validParts(t.kind, t.n, t.a, t.b, t.e)) : `urn:${t.n}:${kind}:${t.a}`,
    })),
    tupleBase.map((t) => ({
      family: "no ':' before '('",
      text: tuple(t.n, t.kind, validParts(t.kind, t.n, t.a, t.b, t.e)).replace(`:${t.kind}:(`, `:${t.kind}(`),
    })),
    fc.tuple(tupleBase, fc.boolean()).map(([t, leading]) => {
      const parts = validParts(t.kind, t.n, t.a, t.b, t.e);
      parts[1] = leading ? ` ${parts[1]}` : `${parts[1]} `;
      return { family: 'space at the end of a name', text: tuple(t.n, t.kind, parts) };
    }),
    fc
      .tuple(tupleBase, fc.constantFrom('\u241F', '\u0001', '\t', '\u007F', '\u0085', '\u009F', '\u001B'))
      .map(([t, ch]) => {
        const parts = validParts(t.kind, t.n, t.a, t.b, t.e);
        parts[1] = `${parts[1]}${ch}x`;
        return { family: 'reserved or control character in a name', text: tuple(t.n, t.kind, parts) };
      }),
    fc
      .tuple(ns, fc.constantFrom('corpuser', 'dataPlatform', 'tag'), word, word)
      .map(([n, kind, a, b]) => ({ family: "'(' in a one-part id", text: `urn:${n}:${kind}:${a}(${b}` })),
  )
  .filter((m) => !m.text.endsWith('.'));

/**
 * A syntactic notion of "one URN token", independent of the scanner: a recognised namespace, a
 * word as entity type, an id that is either a tuple whose first return to depth 0 is its last
 * character (or that is never closed), or a one-part id without the punctuation that ends tokens
 * in code; no quotes, whitespace, or template syntax anywhere (`*`, `…` and a `...` part included).
 */
export function isOneUrnToken(t: string): boolean {
  const m = /^urn:(?:li|svc):([A-Za-z][A-Za-z0-9]*):(.+)$/s.exec(t);
  if (!m) return false;
  if (/[\s"'`\\{}$<>*\u2026\u0000-\u001F\u007F-\u009F\u2028\u2029\uFEFF]|%(?![0-9A-Fa-f]{2})/.test(t)) return false;
  // `...` as a whole part is a placeholder (server/src/scan/text.ts).
  if (/[(,:]\.\.\.(?:[),]|$)/.test(t)) return false;
  const id = m[2]!;
  if (id.startsWith('(')) {
    let depth = 0;
    for (let i = 0; i < id.length; i++) {
      if (id[i] === '(') depth++;
      else if (id[i] === ')' && --depth === 0) return i === id.length - 1;
    }
    return true;
  }
  return !/[,;)\]}]/.test(id) && !/[.:]$/.test(id);
}

/** Mutated valid URNs that are still one token and no longer parse. */
export const mutatedUrn = editedUrnText.filter(isOneUrnToken);

/** Where a URN text stands in a document: the text, and the source range that holds it. */
export interface Embedded {
  languageId: string;
  text: string;
  start: number;
  end: number;
}

function around(languageId: string, before: string, source: string, after: string): Embedded {
  return { languageId, text: before + source + after, start: before.length, end: before.length + source.length };
}

/** A YAML double-quoted scalar for `t`, every control character escaped. */
export function yamlDoubleQuoted(t: string): string {
  return `"${t.replace(/["\\]/g, (c) => `\\${c}`).replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

function yamlPlainSafe(t: string): boolean {
  return !/: |\s#|[\u0000-\u001F\u007F-\u009F]|^\s|\s$/.test(t);
}

/** The URN text `t` (one token) in the documents people write it in. */
export function embeddings(t: string): Embedded[] {
  const out: Embedded[] = [
    around('python', 'dataset = "', t, '"\nprint(dataset)\n'),
    around('python', '# owner: ', t, '\n'),
    around('sql', "SELECT * FROM lineage WHERE urn = '", t, "';\n"),
    around('markdown', 'The feature lives at ', t, '\n\nMore text.\n'),
    around('json', '{"urn": "', t, '", "n": 1}\n'),
    around('typescript', 'const u = `', t, '`;\n'),
    around('yaml', 'datasets:\n  - urn: ', yamlDoubleQuoted(t), '\n    description: x\n'),
    around('yaml', '# see ', t, '\nkey: 1\n'),
  ];
  if (!t.includes("'")) out.push(around('yaml', "model:\n  urn: '", t, "'\n"));
  if (yamlPlainSafe(t)) {
    out.push(around('yaml', 'urn: ', t, '\n'));
    out.push(around('yaml', 'features:\n  - ', t, '\n  - other\n'));
  }
  return out;
}

/** Catalog text meant to be active somewhere, and controls. */
export const HOSTILE_PIECES: readonly string[] = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(2)>',
  '<a href="command:evil">x</a>',
  '<!-- hidden -->',
  '[run](command:workbench.action.terminal.new)',
  '[run]( command:evil "t")',
  '[a\nb](command:evil)',
  '[a [b] c](command:evil)',
  '[x]: command:evil',
  '> [y]: command:evil',
  '- [z]: command:evil',
  '[y]',
  '[z][y]',
  '<command:evil>',
  '<https://auto.example/>',
  '![pixel](https://tracker.example/p.png)',
  '![a [b]](https://tracker.example/q.png)',
  '[ok](https://example.com/doc)',
  '[mail](mailto:a@example.com)',
  '[file](file:///etc/passwd)',
  '[js](javascript:alert(1))',
  '[data](data:text/html,x)',
  '&lt;b&gt;',
  '&#60;script&#62;',
  '&amp;',
  '\u0000',
  '\u0007',
  '\u001b[31m',
  '\u0085',
  '\u009b',
  '\u202e',
  '\u2066',
  '\u200f',
  '\u200b',
  '\ufeff',
  '\u2060',
  '\u00ad',
  '\u180e',
  '\u{e0041}',
  ']\u200b(command:evil)',
  '\r\n',
  '\n',
  '\t',
  '`',
  '``',
  '|',
  '***',
  '# heading',
  '    indented',
  '\\',
  '$(x)',
  '{{x}}',
  '```\n',
  '~~~',
  '---',
  '=\n',
  '1. ',
  '* ',
  '+ ',
  '> ',
  '\ud800',
  '\udfff',
  '😀',
  'é',
  '\u241F',
  ')',
  '(',
  ',',
  '"',
  "'",
];

export const hostileText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_PIECES) },
      { weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
    ),
    { maxLength: 10 },
  )
  .map((ps) => ps.join(''));

/** URN texts of every sort. */
export const anyUrnText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.oneof(...Object.values(ARBITRARY_BY_KIND)).map(textOf) },
  { weight: 2, arbitrary: editedUrnText },
  { weight: 2, arbitrary: urnishText },
  { weight: 2, arbitrary: malformedUrn.map((m) => m.text) },
);

/** URNs of the sample catalog's shapes (li and svc), so synthetic resolutions attach to them. */
export const SAMPLE_URNS: readonly string[] = [
  'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)',
  'urn:svc:dataset:(urn:svc:dataPlatform:hive,db.orders,PROD)',
  'urn:li:mlFeature:(users_table,age)',
  'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users_table)',
  'urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn-model-v3,PROD)',
  'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn-model,PROD)',
];

const urnForDocs = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...SAMPLE_URNS) },
  { weight: 3, arbitrary: anyUrnText },
);

const COLUMN_NAMES = ['user_id', 'age', 'email', 'amount', 'device.os', 'x'];

/**
 * Hostile text as a document holds it: the same pieces as the catalog's (controls, hidden
 * characters, link syntax). A crafted file is as untrusted as the catalog: diagnostics quote it.
 */
const docText = hostileText;
const columnName = fc.oneof(fc.constantFrom(...COLUMN_NAMES), docText);

/** One line of code or prose that may hold URNs, builder calls, templates or concatenations. */
const codeLine: fc.Arbitrary<string> = fc.oneof(
  urnForDocs.map((u) => `x = "${u}"`),
  urnForDocs.map((u) => `SELECT '${u}' AS urn; -- ${u}`),
  urnForDocs.map((u) => `See ${u}.`),
  fc
    .tuple(
      fc.constantFrom(
        'make_dataset_urn',
        'make_ml_feature_urn',
        'make_ml_model_urn',
        'make_user_urn',
        'make_data_platform_urn',
        'make_ml_model_group_urn',
        'make_ml_feature_table_urn',
        'make_nothing',
      ),
      fc.array(
        fc.oneof(
          docText.map((s) => JSON.stringify(s)),
          word.map((w) => `"${w}"`),
          fc.constantFrom('env="PROD"', 'x', '"a" "b"', "'''t'''", 'f"{x}"'),
        ),
        { maxLength: 4 },
      ),
    )
    .map(([f, args]) => `u = ${f}(${args.join(', ')})`),
  fc.constantFrom(
    'f"urn:li:dataset:(urn:li:dataPlatform:{p},{name},PROD)"',
    '"urn:li:dataset:(" + x + ")"',
    "'urn:li:mlFeature:(' || t || ')'",
    'urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)',
    'if u.startswith("urn:li:dataset:"):',
    'make_dataset_urn(',
    '# make_dataset_urn("a", "b")',
  ),
  docText,
  columnName.map((c) => `  - name: ${c}`),
);

function lines(ls: string[], sep: string): string {
  return ls.join(sep);
}

/** A document of random lines in a random language. */
export const codeDocument: fc.Arbitrary<{ languageId: string; text: string }> = fc.record({
  languageId: fc.constantFrom(...LANGUAGES),
  text: fc
    .tuple(fc.array(codeLine, { maxLength: 12 }), fc.constantFrom('\n', '\r\n', '\r'))
    .map(([ls, sep]) => lines(ls, sep)),
});

const yamlEntry = fc.oneof(
  fc.record(
    {
      urn: urnForDocs,
      description: fc.option(docText, { nil: undefined }),
      columns: fc.array(fc.record({ name: columnName, description: fc.option(docText, { nil: undefined }) }), {
        maxLength: 3,
      }),
    },
    { requiredKeys: ['urn'] },
  ),
  fc.record(
    {
      urn: urnForDocs,
      features: fc.array(urnForDocs, { maxLength: 3 }),
      groups: fc.array(urnForDocs, { maxLength: 2 }),
    },
    { requiredKeys: ['urn'] },
  ),
  fc.record({
    fieldPath: columnName,
    urn: urnForDocs,
    fields: fc.array(fc.record({ fieldPath: columnName, description: docText }), { maxLength: 2 }),
  }),
  fc.dictionary(fc.oneof(word, urnForDocs), fc.oneof(urnForDocs, docText, fc.integer(), fc.constant(null)), {
    maxKeys: 3,
  }),
);

const yamlTree = fc.record(
  {
    datasets: fc.array(yamlEntry, { maxLength: 3 }),
    feature_tables: fc.array(yamlEntry, { maxLength: 2 }),
    models: fc.array(yamlEntry, { maxLength: 2 }),
  },
  { requiredKeys: [] },
);

const YAML_TOKENS = [
  ': ',
  '- ',
  '"',
  "'",
  '|',
  '|-',
  '>',
  '&a ',
  '*a',
  '!!str ',
  '!tag ',
  '---\n',
  '...\n',
  '{',
  '}',
  '[',
  ']',
  '#',
  '\t',
  '? ',
  '%YAML 1.2\n',
  '<<: *a',
  '\n',
  '  ',
  ',',
  'urn:li:',
  'description: ',
  'columns:\n',
];

type Edit = {
  kind: 'delete' | 'duplicate' | 'indent' | 'insert' | 'truncate';
  at: number;
  amount: number;
  token: string;
};
const edit: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom('delete', 'duplicate', 'indent', 'insert', 'truncate'),
  at: fc.nat(),
  amount: fc.integer({ min: -3, max: 3 }),
  token: fc.constantFrom(...YAML_TOKENS),
});

function applyEdit(text: string, e: Edit): string {
  const ls = text.split('\n');
  const i = e.at % Math.max(1, ls.length);
  switch (e.kind) {
    case 'delete':
      ls.splice(i, 1);
      return ls.join('\n');
    case 'duplicate':
      ls.splice(i, 0, ls[i] ?? '');
      return ls.join('\n');
    case 'indent':
      ls[i] = e.amount >= 0 ? ' '.repeat(e.amount) + (ls[i] ?? '') : (ls[i] ?? '').slice(-e.amount);
      return ls.join('\n');
    case 'insert': {
      const p = e.at % (text.length + 1);
      return text.slice(0, p) + e.token + text.slice(p);
    }
    case 'truncate':
      return text.slice(0, e.at % (text.length + 1));
  }
}

/** YAML: docs-as-code files written by the yaml package in random styles, then broken a little (or not). */
export const yamlDocument: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        yamlTree,
        fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'),
        fc.constantFrom('any', 'block', 'flow'),
        fc.integer({ min: 1, max: 4 }),
        fc.array(edit, { maxLength: 3 }),
      )
      .map(([tree, stringType, collectionStyle, indent, edits]) => {
        const text = stringify(tree, {
          defaultStringType: stringType as 'PLAIN',
          collectionStyle: collectionStyle as 'any',
          indent,
          lineWidth: 0,
        });
        return edits.reduce(applyEdit, text);
      }),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.oneof(fc.constantFrom(...YAML_TOKENS), urnForDocs, word, docText), { maxLength: 30 })
      .map((ts) => ts.join('')),
  },
);

/** Bytes that are no text at all, read as Latin-1 or UTF-8 (with replacement characters), or lone surrogates. */
export const binaryJunk: fc.Arbitrary<string> = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')),
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('utf8')),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc
    .array(fc.constantFrom('\ud800', '\udbff', '\udc00', '\u0000', '\uffff', '\ufeff', 'urn:li:', '(', ')'), {
      maxLength: 60,
    })
    .map((p) => p.join('')),
);

const MB = 1 << 20;

function repeatTo(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length));
}

/** Inputs of a megabyte per line and nesting ten thousand deep; each is run in every extractor's language. */
export function hugeInputs(): Array<{ name: string; text: string }> {
  const deep = 10_000;
  let junk = '';
  let seed = 7;
  for (let i = 0; i < MB; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    junk += String.fromCharCode(seed % 0x3000);
  }
  return [
    { name: 'a megabyte line of nested unclosed tuples', text: `x = "${repeatTo('urn:li:dataset:(', MB)}"\n` },
    { name: 'a megabyte line of ${ after a one-part id', text: `urn:li:corpuser:${repeatTo('${', MB)}\n` },
    { name: 'a megabyte line of { inside a tuple', text: `x = "urn:li:dataset:(${repeatTo('{', MB)}"\n` },
    { name: 'a megabyte line of unclosed builder calls', text: repeatTo('make_dataset_urn(', MB) },
    { name: 'a megabyte line of closed builder calls', text: repeatTo('make_dataset_urn(x) ', MB) },
    { name: 'a megabyte line of builder calls with literals', text: repeatTo('make_dataset_urn("hive", "t") ', MB) },
    {
      name: 'a megabyte line of valid URNs',
      text: repeatTo('urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD) ', MB),
    },
    { name: 'a megabyte line of one-part URNs', text: repeatTo('urn:li:corpuser:jdoe ', MB) },
    {
      name: 'one URN with a megabyte name',
      text: `x = "urn:li:dataset:(urn:li:dataPlatform:hive,${'a'.repeat(MB)},PROD)"\n`,
    },
    {
      name: 'one malformed URN of a megabyte',
      text: `x = "urn:li:dataset:(urn:li:dataPlatform:hive,${'a'.repeat(MB)})"\n`,
    },
    { name: 'a megabyte of (', text: '('.repeat(MB) },
    { name: 'a megabyte of urn:li:', text: repeatTo('urn:li:', MB) },
    { name: 'a megabyte of junk', text: junk },
    { name: 'a megabyte YAML scalar', text: `description: ${repeatTo('urn:li:corpuser:x word ', MB)}\n` },
    {
      name: 'a megabyte YAML double-quoted scalar with escapes',
      text: `urn: "${repeatTo('\\u0000urn:li:corpuser:x\\n', MB)}"\n`,
    },
    {
      name: 'a URN with parentheses nested ten thousand deep',
      text: `x = "urn:li:dataset:(${'('.repeat(deep)}${')'.repeat(deep)})"\n`,
    },
    {
      name: 'ten thousand unclosed parentheses in a URN',
      text: `x = "urn:li:dataset:(urn:li:dataPlatform:hive,${'('.repeat(deep)}"\n`,
    },
    { name: 'URNs nested ten thousand deep', text: `${'urn:li:schemaField:('.repeat(deep)}x${')'.repeat(deep)}\n` },
    {
      name: 'YAML flow sequences nested ten thousand deep',
      text: `a: ${'['.repeat(deep)}urn:li:corpuser:x${']'.repeat(deep)}\n`,
    },
    {
      name: 'YAML flow mappings nested ten thousand deep',
      text: `a: ${'{a: '.repeat(deep)}urn:li:corpuser:x${'}'.repeat(deep)}\n`,
    },
    { name: 'YAML sequences nested ten thousand deep on one line', text: `${'- '.repeat(deep)}urn:li:corpuser:x\n` },
    {
      name: 'builder calls nested ten thousand deep',
      text: `${'make_dataset_urn('.repeat(deep)}${')'.repeat(deep)}\n`,
    },
    {
      name: 'two thousand lines of docs-as-code YAML',
      text: `datasets:\n${Array.from({ length: 2000 }, (_, i) => `  - urn: urn:li:dataset:(urn:li:dataPlatform:hive,t${i},PROD)\n    description: d${i}\n`).join('')}`,
    },
  ];
}

/** The extractor sets: each huge input goes through each. */
export const EXTRACTOR_LANGUAGES: readonly string[] = ['yaml', 'python', 'plaintext'];
