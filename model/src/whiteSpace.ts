/**
 * White space as JavaScript's `\s` matches it, as a character-code test: the URN parser trims
 * and refuses by it, and the scanner ends an id at it, so both must agree on what is a space.
 */

/** The non-ASCII characters `\s` matches (U+00A0, U+1680, U+2000–U+200A, U+2028/9, U+202F, U+205F, U+3000, U+FEFF). */
export function isNonAsciiSpace(c: number): boolean {
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** What `\s` matches: space, tab, line feed, vertical tab, form feed, carriage return, and the non-ASCII spaces. */
export function isWhiteSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x80 && isNonAsciiSpace(c));
}
