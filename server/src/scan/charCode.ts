/**
 * The character codes the scanners compare `charCodeAt` results with, named after the character
 * (the shape of VS Code's and yaml-language-server's `CharCode`). A `const enum`: tsc and esbuild
 * write the number itself at every use, so a scanner's hot loop reads no object.
 */
export const enum CharCode {
  /** `\t` */
  Tab = 9,
  /** `\n` */
  LineFeed = 10,
  /** `\f` */
  FormFeed = 12,
  /** `\r` */
  CarriageReturn = 13,
  Space = 32,
  /** `!` */
  ExclamationMark = 33,
  /** `"` */
  DoubleQuote = 34,
  /** `#` */
  Hash = 35,
  /** `$` */
  DollarSign = 36,
  /** `%` */
  PercentSign = 37,
  /** `'` */
  SingleQuote = 39,
  /** `(` */
  OpenParen = 40,
  /** `)` */
  CloseParen = 41,
  /** `*` */
  Asterisk = 42,
  /** `+` */
  Plus = 43,
  /** `,` */
  Comma = 44,
  /** `-` */
  Dash = 45,
  /** `.` */
  Period = 46,
  /** `/` */
  Slash = 47,
  Digit0 = 48,
  Digit9 = 57,
  /** `:` */
  Colon = 58,
  /** `;` */
  Semicolon = 59,
  /** `<` */
  LessThan = 60,
  /** `=` */
  Equals = 61,
  /** `>` */
  GreaterThan = 62,
  /** `?` */
  QuestionMark = 63,
  A = 65,
  F = 70,
  Z = 90,
  /** `[` */
  OpenSquareBracket = 91,
  /** `\` */
  Backslash = 92,
  /** `]` */
  CloseSquareBracket = 93,
  /** `^` */
  Caret = 94,
  /** `_` */
  Underline = 95,
  /** `` ` `` */
  BackTick = 96,
  a = 97,
  b = 98,
  d = 100,
  f = 102,
  i = 105,
  m = 109,
  r = 114,
  s = 115,
  t = 116,
  u = 117,
  z = 122,
  /** `{` */
  OpenCurlyBrace = 123,
  /** `|` */
  Pipe = 124,
  /** `}` */
  CloseCurlyBrace = 125,
  /** DEL, the last ASCII code: a control character. */
  Delete = 127,
  /** `…` (U+2026), a placeholder in prose and docs. */
  Ellipsis = 0x2026,
  /** U+2028 LINE SEPARATOR */
  LineSeparator = 0x2028,
  /** U+2029 PARAGRAPH SEPARATOR */
  ParagraphSeparator = 0x2029,
}
