import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseUrn, printUrn, type Urn } from '../../model/src/urn';
import { findUrnsInText } from '../../server/src/scan/text';
import { scanDocument } from '../../server/src/scan';
import { OPTS, topLevel } from './markers';
import { mapRange } from '../../server/src/scan/sourceMap';

const word = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{0,11}$/);
/** A name part: dots, dashes, underscores, DataHub's encoded reserved characters; no trailing dot. */
const name = fc
  .array(fc.oneof(word, fc.constantFrom('%2C', '%28', '%29')), { minLength: 1, maxLength: 4 })
  .map((p) => p.join('.'));
const namespace = fc.constantFrom('li', 'svc');
const env = fc.constantFrom('PROD', 'DEV', 'QA', 'STG', 'NON_PROD');

const urnValue: fc.Arbitrary<Urn> = fc.oneof(
  fc.record({ kind: fc.constant('dataPlatform' as const), namespace, platform: word }),
  fc.record({ kind: fc.constant('corpuser' as const), namespace, user: name }),
  fc.record({ kind: fc.constant('dataset' as const), namespace, platform: word, name, env }),
  fc.record({ kind: fc.constant('mlFeature' as const), namespace, table: name, feature: name }),
  fc.record({ kind: fc.constant('mlFeatureTable' as const), namespace, platform: word, table: name }),
  fc.record({ kind: fc.constant('mlModel' as const), namespace, platform: word, name, env }),
  fc.record({ kind: fc.constant('mlModelGroup' as const), namespace, platform: word, name, env }),
);

/** Text around URNs: anything but ':' (so no new 'urn:' forms) and the concatenation operators. */
const junk = fc
  .string({ unit: fc.constantFrom(...'abnru xyz019_-.,;()[]{}<>"\'`\\/#=%$\n\t\r*é😀'.split('')), maxLength: 12 })
  .map((s) => s.replace(/:/g, ''));
/** What may stand right before a URN (not a letter, digit, '_', '-' or ':'). */
const before = fc.constantFrom(' ', '"', "'", '`', '(', '[', '\n', ',', '=', '<', '{', '\t', '# ');
/** What may end a URN written in text. */
const after = fc.constantFrom(' ', '"', "'", '`', ')', ']', '}', ',', ';', '\n', '>', '\t');

describe('property: the text extractor finds exactly the URNs printed into random text', () => {
  test('for random printed URNs in random surroundings: exactly them, with exact ranges, all parsed', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(junk, before, urnValue, after), { maxLength: 6 }), junk, (pieces, tail) => {
        let text = '';
        const expected: Array<{ start: number; end: number; urn: string }> = [];
        for (const [lead, open, urn, close] of pieces) {
          text += lead + open;
          const printed = printUrn(urn);
          expected.push({ start: text.length, end: text.length + printed.length, urn: printed });
          text += printed + close;
        }
        text += tail;
        const found = findUrnsInText(text, OPTS);
        assert.deepEqual(
          topLevel(found).map((o) => ({ start: o.start, end: o.end, urn: o.urn })),
          expected,
        );
        for (const o of found) {
          assert.equal(o.parsed?.ok, true, `${o.urn} parses`);
          assert.deepEqual(o.parsed, parseUrn(o.urn), 'the remembered parse is the parse');
          assert.equal(o.template, false);
          if (o.parent !== undefined) {
            const outer = found[o.parent]!;
            assert.ok(outer.start < o.start && o.end < outer.end, 'a nested URN lies inside its parent');
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('property: random junk never throws, in any extractor', () => {
  const fragments = fc.constantFrom(
    'urn:',
    'li:',
    'svc:',
    'dataset:',
    'corpuser:',
    'dataPlatform:',
    'mlFeature:',
    '(',
    ')',
    ',',
    ' ',
    '"',
    "'",
    '`',
    '{',
    '}',
    '%s',
    '%(',
    '${',
    '<a>',
    '\n',
    '\r\n',
    '.',
    ':',
    '+',
    '||',
    '\\',
    '#',
    '- ',
    ': ',
    '[',
    ']',
    '|\n',
    '>\n',
    '---\n',
    '&a ',
    '*a',
    '!tag ',
    'make_dataset_urn(',
    'make_user_urn(',
    'builder.',
    'f"',
    'r"',
    '"""',
    '=',
    'x',
    '\t',
    '\u2028',
    '\uD800',
    '😀',
    '\\u0041',
    '\\x4',
    '\\u{1F600}',
    "''",
    '" "',
    '" + "',
    "' + x",
    '...',
    '…',
    '*',
    '$USER',
    '$1',
    '%2C',
    '%',
  );
  const soup = fc.oneof(
    fc.array(fc.oneof(fragments, fc.string({ maxLength: 3 })), { maxLength: 40 }).map((a) => a.join('')),
    fc.string({ unit: 'binary', maxLength: 60 }),
  );

  test('scanDocument on junk as yaml, python and plain text: no throw, ranges inside the text, parents before children', () => {
    fc.assert(
      fc.property(
        soup,
        fc.constantFrom('yaml', 'python', 'plaintext', 'json', 'sql', 'typescript', 'markdown', 'go'),
        (text, language) => {
          const result = scanDocument(text, language, OPTS);
          result.occurrences.forEach((o, i) => {
            assert.ok(o.start >= 0 && o.start <= o.end && o.end <= text.length, `range of ${JSON.stringify(o.urn)}`);
            if (o.map) {
              const whole = mapRange(o.map, 0, o.urn.length, o.urn.length);
              assert.ok(whole.start >= o.start && whole.end <= o.end, 'the map stays inside the occurrence');
            }
            if (o.parent !== undefined) assert.ok(o.parent < i && o.parent >= 0);
            if (o.errorRange)
              assert.ok(
                o.errorRange.start >= 0 && o.errorRange.end <= text.length && o.errorRange.start <= o.errorRange.end,
              );
            assert.equal(o.template || o.parsed !== undefined, true, 'a URN is parsed unless it is a template');
          });
          for (const c of result.columns) assert.ok(result.occurrences[c.dataset] && c.insertAt <= text.length);
          for (const d of result.descriptions) assert.ok(result.occurrences[d.owner] && d.insertAt <= text.length);
          for (const p of result.problems) assert.ok(p.start >= 0 && p.start <= p.end && p.end <= text.length);
        },
      ),
      { numRuns: 1500 },
    );
  });
});

describe('property: a URN literal is the same URN however the language spells it', () => {
  const printed = urnValue.map(printUrn);

  test('split into adjacent Python pieces at any points after `urn:` (across lines in parentheses, with `+`): one URN, exact range, no error', () => {
    fc.assert(
      fc.property(
        printed,
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.array(fc.constantFrom(' ', '\n    ', ' + ', '  # note\n    ', '\n    + '), { minLength: 4, maxLength: 4 }),
        (urn, cuts, joiners) => {
          const points = [...new Set(cuts.map((c) => 4 + (c % (urn.length - 3))))]
            .filter((p) => p < urn.length)
            .sort((a, b) => a - b);
          const pieces: string[] = [];
          let from = 0;
          for (const p of points) {
            pieces.push(urn.slice(from, p));
            from = p;
          }
          pieces.push(urn.slice(from));
          const lead = 'X = (\n    "';
          const body = pieces.map((p, i) => (i === 0 ? '' : `"${joiners[i % joiners.length]}"`) + p).join('');
          const text = `${lead}${body}"\n)\n`;
          const found = topLevel(scanDocument(text, 'python', OPTS));
          assert.equal(found.length, 1, text);
          const [o] = found;
          assert.equal(o!.urn, urn, text);
          assert.equal(o!.parsed?.ok, true, text);
          assert.equal(o!.start, lead.length);
          assert.equal(o!.end, text.length - 4);
          for (let k = 0; k < urn.length; k++) {
            const r = o!.map ? mapRange(o!.map, k, k + 1, urn.length) : { start: o!.start + k, end: o!.start + k + 1 };
            assert.equal(text.slice(r.start, r.end), urn[k], `unit ${k} maps to its own character`);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  test('JSON with any of its characters written as \\uXXXX: the same URN, each unit mapped to its escape', () => {
    fc.assert(
      fc.property(printed, fc.array(fc.boolean(), { maxLength: 200 }), (urn, escapeIt) => {
        let body = '';
        for (let k = 0; k < urn.length; k++) {
          body += escapeIt[k] && k > 3 ? `\\u${urn.charCodeAt(k).toString(16).padStart(4, '0')}` : urn[k]!;
        }
        const text = `{"urn": "${body}", "description": "a \\"quoted\\" word"}`;
        const [o, ...rest] = topLevel(scanDocument(text, 'json', OPTS));
        assert.equal(rest.length, 0);
        assert.equal(o?.urn, urn);
        assert.equal(o?.parsed?.ok, true);
        assert.equal(text.slice(o.start, o.end), body);
        for (let k = 0; k < urn.length; k++) {
          const r = o.map ? mapRange(o.map, k, k + 1, urn.length) : { start: o.start + k, end: o.start + k + 1 };
          const source = text.slice(r.start, r.end);
          assert.ok(source === urn[k] || JSON.parse(`"${source}"`) === urn[k], `unit ${k}`);
        }
      }),
      { numRuns: 300 },
    );
  });
});
