/**
 * A URN starting a tuple's id (a dataset's platform) is found by the scan of the tuple's inside; it
 * must be what the same text gives where it starts no tuple (a guard for any walk that reads the
 * nested URN on the tuple's way instead of walking it again).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { findUrnsInText } from '../../server/src/scan/text';
import { clearParseCache } from '../../server/src/scan/parseCache';

const OPTS = { namespaces: ['li', 'svc'] };
/** Characters of a nested URN's type and id: plain ones, the ends of an id, templates, escapes, non-ASCII. */
const unit = fc.constantFrom(
  ...'aZ09_-.:%2C$USER{x}()\\."\' \n\té…ŌΩ😀<>'.split(''),
  'dataPlatform',
  'hive',
  ':',
  '%s',
  '...',
);
const nested = fc
  .tuple(fc.constantFrom('urn:li:', 'urn:svc:', 'urn:xx:', 'urn:li'), fc.array(unit, { maxLength: 12 }))
  .map(([head, units]) => head + units.join(''));

describe('a URN nested at the start of a tuple', () => {
  test('the nested occurrence is the one found where the same text starts no tuple', () => {
    fc.assert(
      fc.property(
        nested,
        fc.constantFrom(',db.t,PROD)', ')', ',x', '\n', '" + y'),
        fc.boolean(),
        (inner, rest, cold) => {
          if (cold) clearParseCache();
          const outer = 'urn:li:dataset:(';
          const found = findUrnsInText(`${outer}${inner}${rest}`, OPTS);
          // The same text after a `(` that opens no tuple: `x (urn:…`.
          const lead = 'x (';
          const alone = findUrnsInText(`${lead}${inner}${rest}`, OPTS);
          const child = found.find((o) => o.parent === 0 && o.start === outer.length);
          const own = alone.find((o) => o.start === lead.length);
          const view = (o: (typeof found)[number] | undefined, base: number) =>
            o && { start: o.start - base, end: o.end - base, urn: o.urn, parsed: o.parsed, template: o.template };
          // Cut short by the tuple's end (a `)` in the id, the tuple cut at a line break) the two may differ in length only.
          if (child && own && child.end === found[0]!.end && own.end !== child.end - outer.length + lead.length) return;
          assert.deepEqual(view(child, outer.length), view(own, lead.length), JSON.stringify(inner + rest));
        },
      ),
      // The counterexamples found once by chance: a trailing space or tab before a concatenation.
      {
        numRuns: 3000,
        examples: [
          ['urn:li:a(\t', '" + y', false],
          ['urn:li:a( ', '" + y', true],
        ],
      },
    );
  });
});
