/**
 * inertText: text from a file or the catalog, made inert for each place VS Code shows it. The
 * oracles (support/inert.ts) are VS Code's own recognisers: links as linkedText.ts finds them,
 * icons as iconLabels.ts does, active Markdown; and what a reader cannot see.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  inertText,
  markdownWords,
  MESSAGE_LIMIT,
  QUOTE_LIMIT,
  WORDS_READ_LIMIT,
  type TextPlace,
} from '../../model/src/inertText';
import { decodePart, parseUrn } from '../../model/src/urn';
import { activeMarkdown, invisibleCharacters, renderedIcons, renderedLinks } from '../reliability/support/inert';
import { HOSTILE_PIECES } from '../reliability/support/fuzzInputs';

const MB = 1 << 20;
/** The name of a dataset URN as messages quote it: `%28`, `%29`, `%2C` decoded. */
const nameOf = (urn: string): string => {
  const p = parseUrn(urn);
  assert.ok(p.ok && p.urn.kind === 'dataset', urn);
  return decodePart(p.urn.name);
};
const CRAFTED_URN =
  'urn:li:dataset:(urn:li:dataPlatform:hive,db.users[Open the docs]%28command:workbench.action.terminal.new?%7B%22config%22:%7B%7D%7D%29,PROD)';

/** Hostile inputs by name: each would render something, hide something or run long somewhere. */
const HOSTILE: Record<string, string> = {
  'a command link': '[x](command:workbench.action.terminal.new)',
  'a URN part with %28command…%29, as a message quotes it decoded': nameOf(CRAFTED_URN),
  'a web and a file link, and a link with a title':
    '[a](https://evil.example/x) [b](file:///etc/passwd) [c](command:x "t")',
  'a zero-width space between ] and (': '[x]\u200B(command:evil)',
  'a BOM, a word joiner and a soft hyphen between ] and (': '[x]\uFEFF\u2060\u00AD(command:evil)',
  'a bidi override and a left-to-right mark between ] and (': '[x]\u202E\u200E(command:evil)',
  'a line break and a NEL between ] and (': '[x]\n\u0085(command:evil)',
  'controls between ] and (': '[x]\u0000\u001b\u009b(command:evil)',
  'tag characters between ] and (': '[x]\u{E0041}\u{E007F}(command:evil)',
  'an icon': 'db.$(terminal)users $(sync~spin)',
  'an icon behind a zero-width space': '$\u200B(terminal)',
  'nested brackets': '[a [b] c](command:evil) [[x](command:y)](command:z) [a\nb](command:evil)',
  'lone surrogates': 'a\uD800b\uDC00c\uDBFF',
  'a megabyte': `[x](command:evil)${'A'.repeat(MB)}`,
  'a megabyte of zero-width spaces': '\u200B'.repeat(MB),
  'a megabyte of link syntax': '[x]('.repeat(MB / 4),
};

/** Every place, with the oracle of what must not survive there. */
const PLACES: Array<{ place: TextPlace; what: string; oneLine: boolean; check: (out: string) => string[] }> = [
  {
    place: 'notification',
    what: 'a notification message or progress title',
    oneLine: true,
    check: (o) => renderedLinks(o).map((l) => `link to ${l.href}`),
  },
  {
    place: 'quickInput',
    what: 'a quick pick item, input box title or prompt',
    oneLine: true,
    check: (o) => [...renderedLinks(o).map((l) => `link to ${l.href}`), ...renderedIcons(o).map((i) => `icon ${i}`)],
  },
  { place: 'markdown', what: 'hover Markdown', oneLine: true, check: (o) => activeMarkdown(o) },
  { place: 'plain', what: 'a diagnostic, the status, a log line', oneLine: true, check: () => [] },
  { place: 'lines', what: 'a description before Markdown', oneLine: false, check: () => [] },
];

const WELL_FORMED = /^(?:[^\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;

function assertInert(out: string, p: (typeof PLACES)[number], limit: number, input: string): void {
  const why = `${p.place}(${JSON.stringify(input.slice(0, 80))}) = ${JSON.stringify(out.slice(0, 200))}`;
  assert.deepEqual(p.check(out), [], why);
  assert.deepEqual(invisibleCharacters(out), [], why);
  assert.doesNotMatch(
    out,
    p.oneLine ? /[\u0000-\u001F\u007F-\u009F]/ : /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/,
    why,
  );
  assert.match(out, WELL_FORMED, why);
  // Markdown escapes at most double what is shown.
  assert.ok(
    out.length <= (p.place === 'markdown' ? 2 * limit : limit),
    `${why}: ${out.length} characters, over ${limit}`,
  );
}

describe('inertText', () => {
  for (const p of PLACES) {
    test(`${p.what} (${p.place}): every hostile input comes out inert, visible and bounded`, () => {
      for (const [name, input] of Object.entries(HOSTILE)) {
        for (const limit of [QUOTE_LIMIT, MESSAGE_LIMIT])
          assertInert(inertText(input, p.place, limit), p, limit, `${name}: ${input}`);
      }
    });
  }

  test('before: each hostile input is active where it is shown (the oracles see what VS Code sees)', () => {
    assert.deepEqual(renderedLinks(HOSTILE['a command link']!), [
      { label: 'x', href: 'command:workbench.action.terminal.new' },
    ]);
    assert.equal(
      renderedLinks(HOSTILE['a URN part with %28command…%29, as a message quotes it decoded']!)[0]?.label,
      'Open the docs',
    );
    assert.equal(renderedLinks(HOSTILE['a web and a file link, and a link with a title']!).length, 3);
    // Hidden between `]` and `(`: not a link as it stands, but one once the hidden characters are dropped.
    assert.deepEqual(renderedLinks(HOSTILE['a zero-width space between ] and (']!.replace(/\u200B/g, '')), [
      { label: 'x', href: 'command:evil' },
    ]);
    assert.deepEqual(renderedIcons(HOSTILE['an icon']!), ['terminal', 'sync~spin']);
    assert.deepEqual(
      renderedLinks(HOSTILE['nested brackets']!).map((l) => l.label),
      ['[x', 'a b'],
    );
  });

  test('the quoted URN keeps its words: the link is broken by a space, not removed', () => {
    const out = inertText(nameOf(CRAFTED_URN), 'notification');
    assert.equal(out, 'db.users[Open the docs] (command:workbench.action.terminal.new?%7B%22config%22:%7B%7D%7D)');
    assert.equal(inertText('db.$(terminal)', 'quickInput'), 'db.$ (terminal)');
    assert.equal(inertText('[x](command:y)', 'plain'), '[x](command:y)', 'a plain line renders nothing');
  });

  test('hidden characters are shown as escapes, so a look-alike name does not pass for the real one', () => {
    assert.equal(inertText('db.us\u200Bers', 'plain'), 'db.us\\u200Bers');
    assert.equal(inertText('a\u202Eb\uFEFFc\u{E0041}d\uD800', 'plain'), 'a\\u202Eb\\uFEFFc\\u{E0041}d\\uD800');
    assert.equal(inertText('[x]\u200B(command:evil)', 'notification'), '[x]\\u200B(command:evil)');
    assert.equal(
      inertText('emoji ❤️ 👍🏽 ok', 'plain'),
      'emoji ❤️ 👍🏽 ok',
      'emoji presentation selectors and modifiers are kept',
    );
  });

  test('whitespace is folded to one line; `lines` keeps the line breaks', () => {
    assert.equal(inertText('  a\n\tb\r\n c\u2028d\u0085e\u00A0\u3000f  ', 'plain'), 'a b c d e f');
    assert.equal(inertText('a\r\nb\rc\u2028d\u0085e\n\nf\tg', 'lines'), 'a\nb\nc\nd\ne\n\nf    g');
  });

  test('the cut keeps surrogate pairs whole and ends with an ellipsis within the limit', () => {
    const out = inertText(`${'a'.repeat(QUOTE_LIMIT - 2)}😀😀`, 'plain');
    assert.equal(out, `${'a'.repeat(QUOTE_LIMIT - 2)}…`);
    assert.equal(inertText('abcdef', 'plain', 4), 'abc…');
    assert.equal(inertText('abc', 'plain', 3), 'abc');
    // A text too long to read whole is cut even when folding leaves it short.
    assert.equal(inertText(`a${' '.repeat(MB)}b`, 'plain'), 'a…');
  });

  test('Markdown: the same core, then every construct escaped', () => {
    assert.equal(inertText('# [x](command:y) <b>\u200B', 'markdown'), '\\# \\[x\\](command:y) \\<b\\>\\\\u200B');
    assert.equal(inertText('1. item', 'markdown'), '1\\. item');
  });

  test('property: printable words, taken the short way, come out as the full rules make them', () => {
    // A leading space sends the same text through every rule (the space is trimmed): the two must agree.
    const word = fc.string({
      unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
      minLength: 1,
      maxLength: 12,
    });
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 5 }).map((ws) => ws.join(' ')),
        fc.integer({ min: 8, max: 80 }),
        (input, limit) => {
          for (const p of PLACES) {
            if (p.place === 'lines') continue;
            assert.equal(
              inertText(input, p.place, limit),
              inertText(` ${input}`, p.place, limit),
              `${p.place}: ${input}`,
            );
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('property: hostile pieces in any order stay inert in every place, and a second pass changes nothing', () => {
    const piece = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constantFrom(
          ...HOSTILE_PIECES,
          ...Object.values(HOSTILE).filter((h) => h.length < 1000),
          '\u200B',
          '\u2060',
          '\uFEFF',
          '\u180E',
          '\u00AD',
          ']',
          '(',
          '$',
        ),
      },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
    );
    let n = 0;
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 14 }).map((ps) => ps.join('')),
        fc.integer({ min: 1, max: 300 }),
        (input, limit) => {
          n++;
          for (const p of PLACES) {
            const out = inertText(input, p.place, limit);
            assertInert(out, p, limit, input);
            if (p.place !== 'markdown')
              assert.equal(inertText(out, p.place, limit), out, `${p.place} is idempotent on ${JSON.stringify(input)}`);
          }
        },
      ),
      { numRuns: 5000 },
    );
    console.log(`inertText inputs: ${n}`);
  });
});

describe('markdownWords', () => {
  test('emphasis, code and strike-through marks go; the words stay, snake_case names whole', () => {
    assert.equal(
      markdownWords('**Amounts** in _EUR_, see `user_id` and ~~old~~ *new*'),
      'Amounts in EUR, see user_id and old new',
    );
    assert.equal(markdownWords('the snake_case_name and __init__ stay'), 'the snake_case_name and init stay');
  });

  test('an escaped mark is the character itself, never the start of emphasis or code', () => {
    assert.equal(
      markdownWords('a \\*starred\\* name, a \\`tick\\` and \\_under\\_'),
      'a *starred* name, a `tick` and _under_',
    );
    assert.equal(markdownWords('cost \\| price \\\\'), 'cost | price \\');
  });

  test('block marks, fences, rules and tables: their words on one line', () => {
    const md = [
      '# Orders',
      '',
      '> One row per order.',
      '- first item',
      '2. second item',
      '* [x] done',
      '---',
      '```sql',
      'select 1',
      '```',
      '| col | type |',
      '| --- | :---: |',
      '| id | int |',
    ].join('\n');
    assert.equal(markdownWords(md), 'Orders One row per order. first item second item done select 1 col type id int');
  });

  test('a link or image is its label, an autolink its address, HTML tags and comments nothing', () => {
    assert.equal(
      markdownWords(
        'See [the docs](https://x.example/a "t"), ![a chart](c.png), [ref][1], <https://y.example> <b>bold</b><!-- hidden -->',
      ),
      'See the docs, a chart, ref, https://y.example bold',
    );
    assert.equal(markdownWords('1 \\* 2 &amp; 3 &lt; 4'), '1 * 2 & 3 < 4');
  });

  test('plain text is unchanged, and a long text is read only so far', () => {
    assert.equal(markdownWords('Users who signed up, by day (UTC).'), 'Users who signed up, by day (UTC).');
    assert.ok(markdownWords('**a** '.repeat(100_000)).length <= WORDS_READ_LIMIT);
  });

  test('what a search row shows: the words, then inert for a quick pick', () => {
    const row = inertText(
      markdownWords('**Totals**: [click](command:workbench.action.terminal.new) $(alert)'),
      'quickInput',
      200,
    );
    assert.equal(row, 'Totals: click $ (alert)');
  });
});
