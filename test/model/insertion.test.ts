/**
 * The insertion rule, property-tested per destination with arbitrary catalog strings: whatever
 * `insertionFor` writes, the document around it still parses (by the language's own parser where
 * one is at hand: TypeScript's for JavaScript, JSON.parse, the `yaml` package, markdown-it; the
 * server's literal readers for Python, SQL, Java, Go, C and Rust) and the literal's value is
 * exactly the intended one — or the function refused.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import ts from 'typescript';
import YAML from 'yaml';
import { acceptCatalogUrn, insertionFor, type Destination } from '../../model/src/insertion';
import { literalSyntaxFor } from '../../server/src/scan/languages';
import { readStringLiteral } from '../../server/src/scan/pythonSyntax';
import { MappedText } from '../../server/src/scan/sourceMap';

const RUNS = 3000;
/** Characters that end, escape or interpolate literals, or are markup, beside ordinary ones. */
const HOSTILE = [
  ...`"'\`\\{}$[]<>()#:,;_*&|~!% =+-.@`,
  '\n',
  '\r',
  '\t',
  '\u2028',
  '\u200B',
  '\u202E',
  'a',
  'b',
  'Z',
  '0',
  'é',
  '😀',
];
const catalogText = fc.oneof(
  fc.string({ unit: fc.constantFrom(...HOSTILE), maxLength: 24 }),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ maxLength: 24 }),
);

/** For each accepted value: what `insertionFor` wrote, checked by `readBack`; counts what was accepted. */
function property(destination: Destination, readBack: (written: string, value: string) => void): number {
  let accepted = 0;
  fc.assert(
    fc.property(catalogText, (value) => {
      const r = insertionFor(value, destination);
      if (!r.ok) {
        assert.ok(r.reason.length > 0, 'a refusal says why');
        return;
      }
      accepted++;
      readBack(r.text, value);
    }),
    { numRuns: RUNS },
  );
  return accepted;
}

/** The value of the literal of `syntax` whose opening quote is at `quoteAt`, read by the server's reader. */
function serverLiteral(languageId: string, doc: string, quoteAt: number): { value: string; end: number } | undefined {
  const out = new MappedText();
  const piece = literalSyntaxFor(languageId).readPiece(doc, quoteAt, out);
  return piece && { value: out.value, end: piece.end };
}

describe('insertionFor: the literal holds exactly the value, or it refuses', () => {
  for (const quote of ['"', "'", '`']) {
    test(`JavaScript/TypeScript ${quote}…${quote}: TypeScript's parser reads one literal with the value`, () => {
      const accepted = property({ place: 'string', syntax: 'javascript', quote }, (written, value) => {
        const source = `const x = ${quote}${written}${quote};\n`;
        const out = ts.transpileModule(source, { reportDiagnostics: true, compilerOptions: {} });
        assert.deepEqual(out.diagnostics ?? [], [], source);
        const file = ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest);
        assert.equal(file.statements.length, 1, source);
        const decl = (file.statements[0] as ts.VariableStatement).declarationList.declarations[0]!;
        const init = decl.initializer!;
        assert.ok(ts.isStringLiteral(init) || ts.isNoSubstitutionTemplateLiteral(init), source);
        assert.equal(init.text, value);
      });
      assert.ok(accepted > 100, `accepted ${accepted}`);
    });
  }

  for (const [quote, prefix] of [
    ['"', ''],
    ["'", ''],
    ['"', 'f'],
    ["'", 'r'],
    ['"', 'rb'],
    ['"""', ''],
  ] as const) {
    test(`Python ${prefix}${quote}…${quote}: the server's reader reads one literal with the value`, () => {
      property({ place: 'string', syntax: 'python', quote: quote[0]!, prefix }, (written, value) => {
        const source = `x = ${prefix}${quote}${written}${quote}\n`;
        const literal = readStringLiteral(source, 4);
        assert.ok(literal, source);
        assert.equal(literal.value, value);
        assert.equal(literal.end, source.length - 1, `the literal ends at its own closing quote: ${source}`);
        if (prefix.includes('f')) assert.doesNotMatch(written, /[{}]/, 'no field in the f-string');
      });
    });
  }

  test('JSON "…": JSON.parse reads the value', () => {
    property({ place: 'string', syntax: 'json', quote: '"' }, (written, value) => {
      assert.equal((JSON.parse(`{"k": "${written}"}`) as { k: string }).k, value);
    });
  });

  for (const [languageId, syntax, quote] of [
    ['sql', 'sql', "'"],
    ['java', 'java', '"'],
    ['go', 'go', '"'],
    ['go', 'go', '`'],
    ['c', 'c', '"'],
    ['rust', 'rust', '"'],
  ] as const) {
    test(`${languageId} ${quote}…${quote}: the server's reader reads one literal with the value`, () => {
      const accepted = property({ place: 'string', syntax, quote }, (written, value) => {
        const source = `x = ${quote}${written}${quote};`;
        const literal = serverLiteral(languageId, source, 4);
        assert.ok(literal, source);
        assert.equal(literal.value, value);
        assert.equal(literal.end, source.length - 1, source);
      });
      assert.ok(accepted > 100, `accepted ${accepted}`);
    });
  }

  test("SQL doubles a single quote: the probe's replacement stays inside its string", () => {
    const r = insertionFor("db.users_v2'; DROP TABLE audit_log; --", { place: 'string', syntax: 'sql', quote: "'" });
    assert.deepEqual(r, { ok: true, text: "db.users_v2''; DROP TABLE audit_log; --" });
  });

  for (const [style, wrap] of [
    ['PLAIN', (w: string) => `k: ${w}\n`],
    ['QUOTE_DOUBLE', (w: string) => `k: "${w}"\n`],
    ['QUOTE_SINGLE', (w: string) => `k: '${w}'\n`],
  ] as const) {
    test(`YAML ${style}: the yaml package reads one mapping with the value`, () => {
      const accepted = property({ place: 'yaml', style }, (written, value) => {
        const doc = YAML.parseDocument(wrap(written));
        assert.deepEqual(doc.errors, [], wrap(written));
        assert.deepEqual(doc.toJS(), { k: value }, wrap(written));
      });
      assert.ok(accepted > 100, `accepted ${accepted}`);
    });
  }

  test('YAML PLAIN in a flow sequence: still one item with the value', () => {
    property({ place: 'yaml', style: 'PLAIN', flow: true }, (written, value) => {
      const doc = YAML.parseDocument(`k: [${written}]\n`);
      assert.deepEqual(doc.errors, []);
      assert.deepEqual(doc.toJS(), { k: [value] });
    });
  });

  test('YAML PLAIN where a number is wanted: a decimal number is written as it is and read as that number', () => {
    const d: Destination = { place: 'yaml', style: 'PLAIN', number: true };
    for (const n of ['30', '-2', '0', '3.25']) {
      const w = insertionFor(n, d);
      assert.ok(w.ok);
      assert.equal(YAML.parse(`k: ${w.text}\n`).k, Number(n));
    }
    // Anything else is refused as in any plain scalar: octal-looking, signed, exponent, booleans.
    for (const v of ['030', '+3', '1e3', 'yes', '0x1f']) assert.equal(insertionFor(v, d).ok, false, v);
    // Where no number is wanted, a number-looking value is refused (it would not stay a string).
    assert.equal(insertionFor('30', { place: 'yaml', style: 'PLAIN' }).ok, false);
  });

  test('Markdown prose: markdown-it renders exactly the value, with no tag', () => {
    const md = new MarkdownIt();
    const unescape = (html: string): string =>
      html
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#x27;|&#39;/g, "'")
        .replace(/&amp;/g, '&');
    property({ place: 'markdown' }, (written, value) => {
      const html = md.renderInline(`see ${written} here`);
      assert.doesNotMatch(html, /<[a-z]/i, html);
      assert.equal(unescape(html), `see ${value} here`);
    });
  });

  test('anywhere: no quote, backslash, brace, angle bracket, link or icon syntax, line break', () => {
    property({ place: 'any' }, (written, value) => {
      assert.equal(written, value);
      assert.doesNotMatch(written, /["'`\\{}<>\n\r]|\]\(|\$\(/);
    });
  });

  test('the refusals of the probe: padding, quotes, line breaks, hidden characters', () => {
    const py = { place: 'string', syntax: 'python', quote: '"' } as const;
    for (const value of [
      `db.users_v2${' '.repeat(150)}"); __import__("os").system("id"); ("`,
      'db.users_v2"); x',
      'db.users\nimport os',
      'db.us\u200Bers',
      ' db.users',
      'db.users ',
      'a  b',
      '',
    ])
      assert.equal(insertionFor(value, py).ok, false, JSON.stringify(value));
    assert.deepEqual(insertionFor('db.users %28old%29', py), { ok: true, text: 'db.users %28old%29' });
  });
});

describe('acceptCatalogUrn: well-formed, of the expected kind, as DataHub writes it', () => {
  const users = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
  test('accepts a dataset as a dataset, refuses it as a feature', () => {
    assert.equal(acceptCatalogUrn(users, ['dataset']).ok, true);
    assert.equal(acceptCatalogUrn(users, ['mlFeature']).ok, false);
  });
  test('refuses a multi-line URN, text that is no URN, and what is not text', () => {
    assert.equal(acceptCatalogUrn(`${users}"\nimport os; os.system("id")\nX = "`).ok, false);
    assert.equal(acceptCatalogUrn('"; __import__("os").system("id")#').ok, false);
    assert.equal(acceptCatalogUrn(42).ok, false);
    assert.equal(acceptCatalogUrn(undefined).ok, false);
  });
});
