import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { scanDocument } from '../../server/src/scan';
import { literalSyntaxFor } from '../../server/src/scan/languages';
import { mapRange } from '../../server/src/scan/sourceMap';
import { mapPart } from '../../server/src/features/diagnostics';
import type { UrnOccurrence } from '../../server/src/scan/types';
import { covered, marked, OPTS, topLevel } from './markers';

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';

/** Scan `source` (markers stripped) as `language`: the marked ranges are the top-level occurrences, with these URNs. */
function assertUrns(language: string, source: string, urns: string[]): UrnOccurrence[] {
  const { text, urns: ranges } = marked(source);
  const found = topLevel(scanDocument(text, language, OPTS));
  assert.deepEqual(
    found.map((o) => covered(text, o)),
    ranges.map((r) => covered(text, r)),
    `ranges in ${JSON.stringify(text)}`,
  );
  assert.deepEqual(
    found.map((o) => o.urn),
    urns,
  );
  return found;
}

/** Every unit of `o.urn` maps to document text that spells it (verbatim units) or to the escape that made it. */
function assertMapped(text: string, o: UrnOccurrence): void {
  for (let k = 0; k < o.urn.length; k++) {
    const r = o.map ? mapRange(o.map, k, k + 1, o.urn.length) : { start: o.start + k, end: o.start + k + 1 };
    assert.ok(r.start >= o.start && r.end <= o.end, `unit ${k} of ${o.urn} inside the occurrence`);
    const source = text.slice(r.start, r.end);
    if (source.length === 1) assert.equal(source, o.urn[k], `unit ${k} of ${o.urn}`);
  }
}

describe('whole literals: a URN that fills a string literal is taken whole, spaces included', () => {
  test('code, JSON and YAML: a user id with a space is one URN', () => {
    for (const [language, source] of [
      ['python', 'owner = "⟦urn:li:corpuser:john doe⟧"'],
      ['typescript', "const owner = '⟦urn:li:corpuser:john doe⟧';"],
      ['javascript', 'const owner = `⟦urn:li:corpuser:john doe⟧`;'],
      ['java', 'String owner = "⟦urn:li:corpuser:john doe⟧";'],
      ['go', 'owner := `⟦urn:li:corpuser:john doe⟧`'],
      ['json', '{"owner": "⟦urn:li:corpuser:john doe⟧"}'],
      ['sql', "SELECT * FROM owners WHERE urn = '⟦urn:li:corpuser:john doe⟧'"],
      ['markdown', 'Owned by `⟦urn:li:corpuser:john doe⟧`.'],
      ['yaml', 'owner: ⟦urn:li:corpuser:john doe⟧  # from LDAP\nother: "⟦urn:li:corpuser:ann lee⟧"\n'],
      ['some-new-language', 'owner = "⟦urn:li:corpuser:john doe⟧"'],
    ] as const) {
      const [o, ...rest] = assertUrns(language, source, [
        'urn:li:corpuser:john doe',
        ...(language === 'yaml' ? ['urn:li:corpuser:ann lee'] : []),
      ]);
      assert.equal(o?.parsed?.ok, true, language);
      for (const r of rest) assert.equal(r.parsed?.ok, true, language);
    }
  });

  test('the rule, exactly: text after a tuple is not part of it; a message that starts with an id is taken whole', () => {
    assertUrns('python', `log.info("⟦${DS}⟧ is gone, ask ⟦urn:li:corpuser:jdoe⟧")`, [DS, 'urn:li:corpuser:jdoe']);
    // Words after a simple id cannot be told from an id with spaces: documented, pinned.
    assertUrns('python', 'log.info("⟦urn:li:corpuser:jdoe is the owner⟧")', ['urn:li:corpuser:jdoe is the owner']);
  });

  test('the rule, exactly: prose punctuation, double spaces, a second URN, a line break: the id ends as in plain text', () => {
    assertUrns('python', 'x = "⟦urn:li:corpuser:jdoe⟧. Then ask ⟦urn:li:corpuser:ann⟧"', [
      'urn:li:corpuser:jdoe',
      'urn:li:corpuser:ann',
    ]);
    assertUrns('python', 'x = "⟦urn:li:corpuser:jdoe⟧: not found"', ['urn:li:corpuser:jdoe']);
    assertUrns('python', 'x = "⟦urn:li:corpuser:jdoe⟧,  later"', ['urn:li:corpuser:jdoe']);
    assertUrns('python', 'x = "⟦urn:li:corpuser:a⟧ ⟦urn:li:corpuser:b⟧"', ['urn:li:corpuser:a', 'urn:li:corpuser:b']);
    assertUrns('typescript', 'x = "⟦urn:li:corpuser:a⟧\\nsecond line"', ['urn:li:corpuser:a']);
    // Not after the opening quote: plain text rules.
    assertUrns('python', 'x = "owner: ⟦urn:li:corpuser:john⟧ doe"', ['urn:li:corpuser:john']);
    // A literal not closed on its line: plain text rules.
    assertUrns('typescript', 'x = "⟦urn:li:corpuser:john⟧ doe\ny = 1', ['urn:li:corpuser:john']);
  });

  test("an apostrophe between letters is part of an id (SQL's doubled quote decoded)", () => {
    const [o] = assertUrns('sql', "INSERT INTO owners VALUES ('⟦urn:li:corpuser:o''brien⟧')", [
      "urn:li:corpuser:o'brien",
    ]);
    assert.equal(o?.parsed?.ok, true);
  });
});

describe('whole literals: escapes are decoded and mapped back to the source', () => {
  test('a JSON MCP payload: an escaped quote in a description next to a URN, a \\u escape and \\/ in URNs', () => {
    const source = [
      '{"entityUrn": "⟦urn:li:dataset:(urn:li:dataPlatform:hive,db.\\u0075sers,PROD)⟧",',
      ' "aspect": {"description": "Users, see \\"the ⟦urn:li:corpuser:jdoe⟧\\" note"},',
      ' "owner": "⟦urn:li:corpuser:a\\/b⟧"}',
    ].join('\n');
    const [ds, , owner] = assertUrns('json', source, [DS, 'urn:li:corpuser:jdoe', 'urn:li:corpuser:a/b']);
    const { text } = marked(source);
    assertMapped(text, ds!);
    assertMapped(text, owner!);
    // The nested platform is its own occurrence, in the source, with its parent.
    const all = scanDocument(text, 'json', OPTS).occurrences;
    const platform = all.find((o) => o.urn === 'urn:li:dataPlatform:hive')!;
    assert.equal(covered(text, platform), 'urn:li:dataPlatform:hive');
    assert.equal(all[platform.parent!]?.urn, ds?.urn);
  });

  test('JavaScript \\x, \\u{…} and Java \\uXXXX; Python \\x and raw strings', () => {
    assertUrns('javascript', 'const u = "⟦urn:li:corpuser:j\\x64o\\u{65}⟧";', ['urn:li:corpuser:jdoe']);
    assertUrns('java', 'String u = "⟦urn:li:corpuser:j\\u0064oe⟧";', ['urn:li:corpuser:jdoe']);
    // Java's own escapes, read the same by the text scanner and the Java builder reader: octal, \uuuu, \s.
    assertUrns('java', 'String u = "⟦urn:li:corpuser:j\\157e\\uuu0020d\\soe⟧";', ['urn:li:corpuser:joe d oe']);
    assertUrns(
      'python',
      "u = \"⟦urn:li:corpuser:j\\x64oe⟧\"\nv = b\"⟦urn:li:corpuser:ann⟧\"\nw = '''⟦urn:li:corpuser:triple⟧'''",
      ['urn:li:corpuser:jdoe', 'urn:li:corpuser:ann', 'urn:li:corpuser:triple'],
    );
    assertUrns('python', 'pattern = r"⟦urn:li:corpuser:a\\x64⟧"', ['urn:li:corpuser:a\\x64']);
  });

  test('the error range of a malformed URN lands on the escape that made the culprit', () => {
    // \u002C is a ',' in a user id: malformed at the escape.
    const { text, errors } = marked('{"owner": "urn:li:corpuser:a⟪\\u002C⟫b"}');
    const [o] = topLevel(scanDocument(text, 'json', OPTS));
    assert.equal(o?.urn, 'urn:li:corpuser:a,b');
    assert.equal(o?.parsed?.ok, false);
    assert.deepEqual({ start: o?.errorRange?.start, end: o?.errorRange?.end }, errors[0]);
  });

  test('partRange (diagnostics) maps a part through escapes: the env of a dataset', () => {
    const { text } = marked('{"urn": "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,\\u0050ROD)"}');
    const [o] = topLevel(scanDocument(text, 'json', OPTS));
    assert.ok(o?.parsed?.ok);
    const env = o.parsed.parts.find((p) => p.role === 'env')!;
    const r = mapPart(o, env.start, env.end);
    assert.equal(text.slice(r.start, r.end), '\\u0050ROD');
  });
});

describe('Python as black and ruff write it: joined literals are one URN', () => {
  const file = marked(
    [
      'from datahub.emitter.mce_builder import make_dataset_urn',
      '',
      'USERS = (',
      '    "⟦urn:li:dataset:(urn:li:dataPlatform:hive,"',
      '    "db.users,PROD)⟧"',
      ')',
      'ORDERS = (',
      '    "⟦urn:li:dataset:(urn:li:dataPlatform:hive,"  # the warehouse',
      '    # the table',
      '    "db.orders,PROD)⟧"',
      ')',
      'SPLIT = "⟦urn:li:dataset:(" + "urn:li:dataPlatform:hive,db.users,PROD)⟧"',
      'emit(',
      '    "⟦urn:li:dataset:(urn:li:dataPlatform:kafka,"',
      "    r'events.clicks,PROD)⟧',",
      '    other,',
      ')',
    ].join('\n'),
  );

  test('adjacent pieces in parentheses, comments between, `+` between literals, prefixed pieces', () => {
    const found = topLevel(scanDocument(file.text, 'python', OPTS));
    assert.deepEqual(
      found.map((o) => covered(file.text, o)),
      file.urns.map((r) => covered(file.text, r)),
    );
    assert.deepEqual(
      found.map((o) => o.urn),
      [
        DS,
        'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)',
        DS,
        'urn:li:dataset:(urn:li:dataPlatform:kafka,events.clicks,PROD)',
      ],
    );
    for (const o of found) {
      assert.equal(o.parsed?.ok, true, `${o.urn}: no unbalanced parenthesis`);
      assert.equal(o.errorRange, undefined);
      assertMapped(file.text, o);
    }
  });

  test("each piece's characters map to its own literal: the name part lands in the second piece", () => {
    const [users] = topLevel(scanDocument(file.text, 'python', OPTS));
    assert.ok(users?.parsed?.ok);
    const name = users.parsed.parts.find((p) => p.role === 'name')!;
    const r = mapPart(users, name.start, name.end);
    assert.equal(file.text.slice(r.start, r.end), 'db.users');
    assert.equal(file.text.lastIndexOf('\n', r.start), file.text.indexOf('\n    "db.users'), 'on the second line');
  });

  test('the nested platform is reported in the first piece, with its parent', () => {
    const all = scanDocument(file.text, 'python', OPTS).occurrences;
    const platforms = all.filter((o) => o.parent !== undefined);
    assert.equal(platforms.length, 4);
    for (const p of platforms) assert.match(covered(file.text, p), /^urn:li:dataPlatform:(hive|kafka)$/);
  });

  test('an error in a joined URN lands in the piece that holds it', () => {
    const { text, errors } = marked(
      'X = (\n    "urn:li:dataset:(urn:li:dataPlatform:hive,"\n    "db.users,⟪PRDO⟫)"\n)',
    );
    const [o] = topLevel(scanDocument(text, 'python', OPTS));
    assert.equal(o?.urn, 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PRDO)');
    // PRDO is an unknown env, not a parse error: the part maps into the second piece.
    assert.ok(o?.parsed?.ok);
    const env = o.parsed.parts.find((p) => p.role === 'env')!;
    assert.deepEqual(mapPart(o, env.start, env.end), errors[0]);
    const broken = marked('X = (\n    "urn:li:dataset:("\n    "urn:li:⟪dataPlatfrm⟫:hive,db.users,PROD)"\n)');
    const [b] = topLevel(scanDocument(broken.text, 'python', OPTS));
    assert.equal(b?.parsed?.ok, false);
    assert.deepEqual(
      { start: b?.errorRange?.start, end: b?.errorRange?.end },
      broken.errors[0],
      'the error is in the second piece',
    );
  });

  test('templates stay templates: a non-literal operand, an f-string piece, % and .format', () => {
    for (const source of [
      'u = "⟦urn:li:dataset:(⟧" + name + ",PROD)"',
      'u = ("⟦urn:li:dataset:(" "urn:li:dataPlatform:hive,⟧" + name + ",PROD)")',
      'u = (\n    "⟦urn:li:dataset:(urn:li:dataPlatform:hive,"\n    f"{name},PROD)⟧"\n)',
      'u = (\n    "⟦urn:li:dataset:(urn:li:dataPlatform:%s,"\n    "%s,PROD)⟧" % (platform, name)\n)',
      'u = (\n    "⟦urn:li:dataset:(urn:li:dataPlatform:{},"\n    "{},PROD)⟧".format(platform, name)\n)',
    ]) {
      const { text, urns } = marked(source);
      const [o] = topLevel(scanDocument(text, 'python', OPTS));
      assert.equal(o && covered(text, o), covered(text, urns[0]!), source);
      assert.equal(o?.template, true, source);
      assert.equal(o?.errorRange, undefined, source);
    }
  });

  test('a closed tuple followed by `+ x` is the URN it is; a simple id followed by `+ x` a template (as in plain text)', () => {
    const [ds] = assertUrns('python', `label = "⟦${DS}⟧" + suffix`, [DS]);
    assert.equal(ds?.template, false);
    assert.equal(ds?.parsed?.ok, true);
    const [user] = assertUrns('typescript', 'const u = "⟦urn:li:corpuser:jdoe⟧" + domain;', ['urn:li:corpuser:jdoe']);
    assert.equal(user?.template, true);
  });

  test('what Python does not join is not joined: separate statements, a second URN, commas', () => {
    assertUrns('python', 'OWNER = "⟦urn:li:corpuser:jdoe⟧"\n"""The owner of everything."""', ['urn:li:corpuser:jdoe']);
    assertUrns('python', 'OWNERS = [\n    "⟦urn:li:corpuser:a⟧"  # a missing comma\n    "⟦urn:li:corpuser:b⟧",\n]', [
      'urn:li:corpuser:a',
      'urn:li:corpuser:b',
    ]);
    assertUrns('python', 'x = ("⟦urn:li:corpuser:a⟧", "⟦urn:li:corpuser:b⟧")', [
      'urn:li:corpuser:a',
      'urn:li:corpuser:b',
    ]);
  });

  test('`+` between literals in TypeScript and Java too (trailing and leading +, comments)', () => {
    assertUrns(
      'typescript',
      'const u =\n  "⟦urn:li:dataset:(urn:li:dataPlatform:hive," + // platform\n  "db.users,PROD)⟧";',
      [DS],
    );
    assertUrns('java', 'String u = "⟦urn:li:dataset:(urn:li:dataPlatform:hive,"\n    + "db.users,PROD)⟧";', [DS]);
    const [t] = assertUrns('java', 'String u = "⟦urn:li:dataset:(urn:li:dataPlatform:hive,⟧" + table + ",PROD)";', [
      'urn:li:dataset:(urn:li:dataPlatform:hive,',
    ]);
    assert.equal(t?.template, true);
    // JSON and SQL join nothing.
    assert.equal(literalSyntaxFor('json').joins, undefined);
    assert.equal(literalSyntaxFor('sql').joins, undefined);
  });
});

describe('placeholders and patterns are templates, real names with $ and % are not', () => {
  function assertTemplates(language: string, source: string, expected: boolean[]): void {
    const { text, urns } = marked(source);
    const found = topLevel(scanDocument(text, language, OPTS));
    assert.deepEqual(
      found.map((o) => covered(text, o)),
      urns.map((r) => covered(text, r)),
      source,
    );
    assert.deepEqual(
      found.map((o) => o.template),
      expected,
      source,
    );
    for (const o of found) {
      if (o.template) assert.equal(o.errorRange, undefined, `${o.urn} is never malformed`);
      else assert.equal(o.parsed?.ok, true, `${o.urn} parses`);
    }
  }

  test('ellipses in docs: (...), (…), a ... part; a trailing ... in prose is a full stop', () => {
    assertTemplates(
      'markdown',
      'Datasets look like `⟦urn:li:dataset:(...)⟧` (or ⟦urn:li:dataset:(…)⟧, ⟦urn:li:dataset:(urn:li:dataPlatform:hive,...,PROD)⟧).',
      [true, true, true],
    );
    assertTemplates('markdown', 'Ask ⟦urn:li:corpuser:j.doe⟧...', [false]);
  });

  test('SQL LIKE wildcards; percent-encoding stays a URN', () => {
    assertTemplates(
      'sql',
      "SELECT urn FROM t WHERE urn LIKE '⟦urn:li:dataset:%⟧' OR urn LIKE '⟦urn:li:dataset:(urn:li:dataPlatform:hive,%users%⟧'",
      [true, true],
    );
    assertTemplates('sql', "SELECT '⟦urn:li:dataset:(urn:li:dataPlatform:hive,db.a%2Cb,PROD)⟧'", [false]);
  });

  test('regexes and globs', () => {
    assertTemplates('python', 'if re.match(r"^⟦urn:li:.*:.*⟧", u) or re.match(r"⟦urn:li:dataset:\\(.*\\)⟧", u):', [
      true,
      true,
    ]);
    assertTemplates(
      'python',
      'ALLOW = ["⟦urn:li:dataset:*⟧", "⟦urn:li:dataset:(urn:li:dataPlatform:hive,db.*,PROD)⟧"]',
      [true, true],
    );
    assertTemplates('typescript', "const re = new RegExp('^⟦urn:li:corpuser:.+$⟧');", [true]);
  });

  test('a `*` in a URN that is a whole string value is part of its name: DataHub names a dataset `feast.*`', () => {
    // The shape of DataHub's metadata-ingestion/examples/mce_files/bootstrap_mce.json (Apache-2.0),
    // where an MLFeatureProperties' sources name this dataset 26 times.
    const feast = 'urn:li:dataset:(urn:li:dataPlatform:file,feast.*,PROD)';
    const bootstrap = [
      '{',
      '  "com.linkedin.pegasus2avro.ml.metadata.MLFeatureProperties": {',
      '    "dataType": "SEQUENCE",',
      '    "sources": [',
      `      "⟦${feast}⟧"`,
      '    ]',
      '  }',
      '}',
    ].join('\n');
    assertTemplates('json', bootstrap, [false]);
    const found = topLevel(scanDocument(marked(bootstrap).text, 'json', OPTS));
    assert.equal(found[0]!.urn, feast);
    assert.equal(
      found[0]!.parsed?.ok && found[0]!.parsed.urn.kind === 'dataset' && found[0]!.parsed.urn.name,
      'feast.*',
    );
    // The same whole value in Python and YAML (quoted or plain).
    assertTemplates('python', `sources = ["⟦${feast}⟧"]`, [false]);
    assertTemplates('yaml', `sources:\n  - "⟦${feast}⟧"\n  - ⟦${feast}⟧\n`, [false, false]);
    // A `*` is a pattern where the text around it says so: inside a larger string, in prose, a part
    // that is a wildcard alone, the entity type, or another `*` on the line (a list of patterns).
    assertTemplates('json', `{"q": "sources like ⟦${feast}⟧ here"}`, [true]);
    assertTemplates('markdown', `Sources such as \`⟦${feast}⟧\` or ⟦${feast}⟧.`, [true, true]);
    assertTemplates('json', '{"a": "⟦urn:li:dataset:*⟧", "b": "⟦urn:li:dataset:(urn:li:dataPlatform:hive,.*,PROD)⟧"}', [
      true,
      true,
    ]);
    assertTemplates('python', 'x = "⟦urn:li:*:feast⟧"', [true]);
    assertTemplates('json', `["⟦${feast}⟧", "⟦urn:li:dataset:(urn:li:dataPlatform:file,feast.**,PROD)⟧"]`, [
      true,
      true,
    ]);
  });

  test('$VAR: upper case anywhere, or a name starting a part', () => {
    assertTemplates(
      'shellscript',
      'datahub get --urn "⟦urn:li:corpuser:$USER⟧"\necho ⟦urn:li:dataset:(urn:li:dataPlatform:hive,db_$ENV.users,PROD)⟧',
      [true, true],
    );
    assertTemplates('scala', 'val u = s"⟦urn:li:dataset:($platform,$name,PROD)⟧"', [true]);
  });

  test('real names with $: BigQuery partition decorators, Iceberg/Trino metadata tables', () => {
    assertTemplates(
      'plaintext',
      [
        '⟦urn:li:dataset:(urn:li:dataPlatform:bigquery,proj.ds.events$20240101,PROD)⟧',
        '⟦urn:li:dataset:(urn:li:dataPlatform:trino,iceberg.sales.orders$snapshots,PROD)⟧',
        '⟦urn:li:dataset:(urn:li:dataPlatform:bigquery,proj.ds.events$__UNPARTITIONED__,PROD)⟧',
      ].join('\n'),
      [false, false, false],
    );
  });
});
