import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findJavaUrnCalls } from '../../server/src/scan/java';
import { builderPartRange } from '../../server/src/scan/builderCall';
import { extractorsFor, scanDocument } from '../../server/src/scan';
import { findPythonClassCalls } from '../../server/src/scan/pythonClasses';
import { covered, marked } from './markers';

function assertBuilds(source: string, expected: string[]): void {
  const { text, urns } = marked(source);
  const { occurrences } = findJavaUrnCalls(text);
  assert.deepEqual(
    occurrences.map((o) => covered(text, o)),
    urns.map((r) => covered(text, r)),
  );
  assert.deepEqual(
    occurrences.map((o) => o.urn),
    expected,
  );
  for (const o of occurrences) {
    assert.equal(o.source, 'builder');
    assert.equal(o.parsed?.ok, true, o.urn);
    assert.match(o.builder ?? '', /^(new )?\w+(\.\w+)?$/);
  }
}

function assertErrorAt(source: string, message: RegExp): void {
  const { text, errors } = marked(source);
  const found = findJavaUrnCalls(text).occurrences.filter((o) => o.errorRange);
  assert.equal(found.length, 1);
  const o = found[0]!;
  assert.match(o.parsed && !o.parsed.ok ? o.parsed.error.message : '', message);
  assert.deepEqual(covered(text, o.errorRange!), covered(text, errors[0]!));
}

describe('Java URN constructors are read as the URNs they build', () => {
  test('java documents get the Java extractor beside the text one', () => {
    assert.deepEqual(extractorsFor('java'), ['text', 'java']);
  });

  test('each class, nested platform and flow constructors, FabricType constants', () => {
    assertBuilds(
      [
        'DatasetUrn orders = ⟦new DatasetUrn(⟦new DataPlatformUrn("snowflake")⟧, "sales.public.orders", FabricType.PROD)⟧;',
        'Urn owner = ⟦new CorpuserUrn("asmith")⟧;',
        'Urn team = ⟦new CorpGroupUrn("data-eng")⟧;',
        'Urn model = ⟦new MLModelUrn(⟦new DataPlatformUrn("sagemaker")⟧, "fraud-detector", FabricType.DEV)⟧;',
        'Urn group = ⟦new MlModelGroupUrn(⟦new DataPlatformUrn("sagemaker")⟧, "fraud", FabricType.PROD)⟧;',
        'Urn feature = ⟦new MLFeatureUrn("customer_features", "lifetime_value")⟧;',
        'Urn table = ⟦new MLFeatureTableUrn(⟦new DataPlatformUrn("feast")⟧, "customer_features")⟧;',
        'Urn job = ⟦new DataJobUrn(⟦new DataFlowUrn("airflow", "nightly_sales", "prod")⟧, "load")⟧;',
        'Urn tag = ⟦new TagUrn("pii")⟧;',
        'Urn term = ⟦new GlossaryTermUrn("Finance.Revenue")⟧;',
      ].join('\n'),
      [
        'urn:li:dataset:(urn:li:dataPlatform:snowflake,sales.public.orders,PROD)',
        'urn:li:dataPlatform:snowflake',
        'urn:li:corpuser:asmith',
        'urn:li:corpGroup:data-eng',
        'urn:li:mlModel:(urn:li:dataPlatform:sagemaker,fraud-detector,DEV)',
        'urn:li:dataPlatform:sagemaker',
        'urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,fraud,PROD)',
        'urn:li:dataPlatform:sagemaker',
        'urn:li:mlFeature:(customer_features,lifetime_value)',
        'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,customer_features)',
        'urn:li:dataPlatform:feast',
        'urn:li:dataJob:(urn:li:dataFlow:(airflow,nightly_sales,prod),load)',
        'urn:li:dataFlow:(airflow,nightly_sales,prod)',
        'urn:li:tag:pii',
        'urn:li:glossaryTerm:Finance.Revenue',
      ],
    );
  });

  test('qualified names, line breaks and comments between arguments, escapes, the name trimmed as DatasetUrn does', () => {
    assertBuilds(
      [
        'var a = ⟦new com.linkedin.common.urn.DatasetUrn(',
        '    ⟦new DataPlatformUrn("hive")⟧, // the warehouse',
        '    " web.sessions ",',
        '    /* env */ com.linkedin.common.FabricType.QA)⟧;',
        'var b = ⟦new CorpuserUrn("j\\u0064oe")⟧;',
        'var c = ⟦new CorpuserUrn("j\\157\\uuu0065")⟧;',
      ].join('\n'),
      [
        'urn:li:dataset:(urn:li:dataPlatform:hive,web.sessions,QA)',
        'urn:li:dataPlatform:hive',
        'urn:li:corpuser:jdoe',
        'urn:li:corpuser:joe',
      ],
    );
  });

  test('UrnUtils.toDatasetUrn upper-cases the fabric', () => {
    assertBuilds('DatasetUrn d = ⟦UrnUtils.toDatasetUrn("hive", "web.sessions", "dev")⟧;', [
      'urn:li:dataset:(urn:li:dataPlatform:hive,web.sessions,DEV)',
    ]);
  });

  test('errors point at the argument: a fabric UrnUtils does not know; a FabricType typo maps the env part', () => {
    assertErrorAt('d = UrnUtils.toDatasetUrn("hive", "t", ⟪"PRDO"⟫);', /IllegalArgumentException/);
    const text = 'd = new DatasetUrn(new DataPlatformUrn("hive"), "t", FabricType.PRDO);';
    const [o] = findJavaUrnCalls(text).occurrences;
    const env = o!.parsed!.ok ? o!.parsed!.parts.find((p) => p.role === 'env')! : undefined;
    const r = builderPartRange(o!, env!.start, env!.end)!;
    assert.equal(text.slice(r.start, r.end), 'FabricType.PRDO');
  });

  test("createFromString of another kind is an error; of its kind, or Urn.createFromString / UrnUtils.getUrn, the text extractor's", () => {
    assertErrorAt(
      'DatasetUrn d = DatasetUrn.createFromString(⟪"urn:li:corpuser:jdoe"⟫);',
      /corpuser URN.*dataset URNs only/,
    );
    const text = [
      'DatasetUrn d = DatasetUrn.createFromString("urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)");',
      'Urn u = Urn.createFromString("urn:li:corpuser:jdoe");',
      'Urn g = UrnUtils.getUrn("urn:li:tag:pii");',
    ].join('\n');
    assert.deepEqual(findJavaUrnCalls(text).occurrences, []);
    const scan = scanDocument(text, 'java', { namespaces: ['li'] });
    assert.deepEqual(
      scan.occurrences.filter((o) => o.parent === undefined).map((o) => [o.source, o.parsed?.ok]),
      [
        ['text', true],
        ['text', true],
        ['text', true],
      ],
    );
  });
});

describe('Java calls that are not read', () => {
  test('variables, concatenation, text blocks, null, wrong types or arity, comments and strings give nothing', () => {
    const text = [
      'DatasetUrn a = new DatasetUrn(platform, "t", FabricType.PROD);',
      'DatasetUrn b = new DatasetUrn(new DataPlatformUrn("hive"), "db." + table, FabricType.PROD);',
      'DatasetUrn c = new DatasetUrn(new DataPlatformUrn("hive"), """',
      '    db.t""", FabricType.PROD);',
      'CorpuserUrn d = new CorpuserUrn(null);',
      'DatasetUrn e = new DatasetUrn(new DataPlatformUrn("hive"), "t", "PROD");',
      'DatasetUrn f = new DatasetUrn("urn:li:dataPlatform:hive", "t", FabricType.PROD);',
      'TagUrn g = new TagUrn("a", "b");',
      'DatasetUrn h = new DatasetUrn(new DataPlatformUrn("hive"), "t", env);',
      '// new CorpuserUrn("in-a-comment")',
      '/* new CorpuserUrn("in-a-block-comment") */',
      'String s = "new CorpuserUrn(\\"in-a-string\\")";',
      'MyTagUrn m = new MyTagUrn("x");',
      'public DatasetUrn(DataPlatformUrn platform, String name, FabricType origin) {}',
      'var z = new CorpuserUrn("unfinished',
    ].join('\n');
    // The outer calls are not read; the DataPlatformUrn calls inside them (b, c, e, h) are, on their own.
    assert.deepEqual(
      findJavaUrnCalls(text).occurrences.map((o) => o.urn),
      new Array(4).fill('urn:li:dataPlatform:hive'),
    );
  });
});

describe('unfinished and deeply nested calls (typing, junk)', () => {
  test('calls nested beyond the bound, or never closed, give no error and no duplicate; a closed call after them is read', () => {
    const deepPy = 'DatasetUrn('.repeat(20000) + '\nx = TagUrn("pii")\n';
    assert.deepEqual(
      findPythonClassCalls(deepPy).occurrences.map((o) => o.urn),
      ['urn:li:tag:pii'],
    );
    const deepJava = 'new DataJobUrn(new DataFlowUrn('.repeat(20000) + '\nvar x = new TagUrn("pii");\n';
    assert.deepEqual(
      findJavaUrnCalls(deepJava).occurrences.map((o) => o.urn),
      ['urn:li:tag:pii'],
    );
    // An unclosed outer call: the closed call inside it is read once, as its own.
    assert.deepEqual(
      findPythonClassCalls('x = SchemaFieldUrn(DatasetUrn("hive", "t"), "c"').occurrences.map((o) => o.urn),
      ['urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)'],
    );
    assert.deepEqual(
      findJavaUrnCalls('x = new DataJobUrn(new DataFlowUrn("a", "b", "c"), "j"').occurrences.map((o) => o.urn),
      ['urn:li:dataFlow:(a,b,c)'],
    );
    // Nested ten deep: past the nesting bound the argument counts as computed.
    const nested = 'SchemaFieldUrn('.repeat(10) + 'DatasetUrn("hive", "t")' + ', "c")'.repeat(10);
    assert.ok(findPythonClassCalls(nested).occurrences.length < 11);
  });
});
