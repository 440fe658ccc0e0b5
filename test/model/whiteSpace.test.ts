import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { isNonAsciiSpace, isWhiteSpace } from '../../model/src/whiteSpace';

// The URN parser and the scanner both ask these; they must say what `\s` says, for every UTF-16 unit.
test('isWhiteSpace agrees with \\s on every UTF-16 code unit', () => {
  const wrong: string[] = [];
  for (let c = 0; c <= 0xffff; c++) {
    if (isWhiteSpace(c) !== /\s/.test(String.fromCharCode(c))) wrong.push(`U+${c.toString(16).padStart(4, '0')}`);
  }
  assert.deepEqual(wrong, []);
});

test('isNonAsciiSpace is \\s above ASCII and nothing below it', () => {
  for (let c = 0; c <= 0xffff; c++) {
    const expected = c >= 0x80 && /\s/.test(String.fromCharCode(c));
    assert.equal(isNonAsciiSpace(c), expected, `U+${c.toString(16).padStart(4, '0')}`);
  }
});
