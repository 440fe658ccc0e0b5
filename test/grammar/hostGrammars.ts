/**
 * Stand-ins for VS Code's language grammars (not published on npm): only the rules that make
 * the scopes the injection selects — strings, comments, YAML scalars — named as VS Code's own
 * grammars name them, plus identifiers so that code outside strings has a scope of its own.
 */
type RawRule = Record<string, unknown>;

const identifier = (lang: string): RawRule => ({ match: '[A-Za-z_][A-Za-z0-9_]*', name: `variable.other.${lang}` });
const quoted = (quote: string, kind: 'double' | 'single', lang: string): RawRule => ({
  begin: quote,
  end: quote,
  name: `string.quoted.${kind}.${lang}`,
  patterns: [{ match: '\\\\.', name: `constant.character.escape.${lang}` }],
});
const lineComment = (start: string, name: string): RawRule => ({ begin: start, end: '$', name });

export const HOST_GRAMMARS: Record<string, { scopeName: string; patterns: RawRule[] }> = {
  'source.python': {
    scopeName: 'source.python',
    patterns: [
      lineComment('#', 'comment.line.number-sign.python'),
      { begin: '[rRfF]?"""', end: '"""', name: 'string.quoted.docstring.multi.python' },
      quoted('"', 'double', 'python'),
      quoted("'", 'single', 'python'),
      identifier('python'),
    ],
  },
  'source.yaml': {
    scopeName: 'source.yaml',
    patterns: [
      lineComment('(?:^|(?<=\\s))#', 'comment.line.number-sign.yaml'),
      {
        match: '^(\\s*)(?:(-)\\s+)?([A-Za-z_][\\w.-]*)(:)(?=\\s|$)',
        captures: {
          2: { name: 'punctuation.definition.block.sequence.item.yaml' },
          3: { name: 'entity.name.tag.yaml' },
          4: { name: 'punctuation.separator.key-value.mapping.yaml' },
        },
      },
      quoted('"', 'double', 'yaml'),
      quoted("'", 'single', 'yaml'),
      { match: '^\\s*(-)(?=\\s)', captures: { 1: { name: 'punctuation.definition.block.sequence.item.yaml' } } },
      { begin: '(?=[^\\s#"\'-])', end: '(?=\\s+#|\\s*$)', name: 'string.unquoted.plain.out.yaml' },
    ],
  },
  'source.sql': {
    scopeName: 'source.sql',
    patterns: [
      lineComment('--', 'comment.line.double-dash.sql'),
      { begin: '/\\*', end: '\\*/', name: 'comment.block.sql' },
      quoted("'", 'single', 'sql'),
      { match: '\\b(?i:select|from|where|join|on)\\b', name: 'keyword.other.DML.sql' },
      identifier('sql'),
    ],
  },
  'source.json': {
    scopeName: 'source.json',
    patterns: [
      { match: '[{}\\[\\],:]', name: 'punctuation.separator.json' },
      {
        begin: '"',
        end: '"',
        name: 'string.quoted.double.json',
        patterns: [{ match: '\\\\.', name: 'constant.character.escape.json' }],
      },
    ],
  },
  'text.html.markdown': {
    scopeName: 'text.html.markdown',
    patterns: [
      { begin: '`', end: '`', name: 'markup.inline.raw.string.markdown' },
      { match: '^#+\\s.*$', name: 'markup.heading.markdown' },
    ],
  },
};
