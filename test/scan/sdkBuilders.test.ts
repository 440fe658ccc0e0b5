import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findPythonClassCalls } from '../../server/src/scan/pythonClasses';
import { builderPartRange } from '../../server/src/scan/builderCall';
import { scanDocument } from '../../server/src/scan';
import { diagnosticsFor } from '../../server/src/features/diagnostics';
import { DEFAULT_SETTINGS } from '../../model/src/protocol';
import { PY_SDK_ENTITIES } from '../../model/src/urnClasses';
import { covered, marked } from './markers';

const SDK_IMPORT = 'from datahub.sdk import Dataset, DataFlow, MLModel, MLModelGroup\n';

/** The marked calls are read as these URNs (ordered by start, outer before nested), with the call as range. */
function assertBuilds(source: string, expected: string[]): void {
  const { text, urns } = marked(source);
  const { occurrences } = findPythonClassCalls(text);
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
  }
}

/** The one occurrence's error range covers the marked text. */
function assertErrorAt(source: string, message: RegExp): void {
  const { text, errors } = marked(source);
  // A call read as another's argument is part of the outer URN (parent set): only the outer one is reported.
  const found = findPythonClassCalls(text).occurrences.filter((o) => o.errorRange && o.parent === undefined);
  assert.equal(found.length, 1);
  const o = found[0]!;
  assert.equal(o.parsed?.ok, false);
  assert.match(o.parsed && !o.parsed.ok ? o.parsed.error.message : '', message);
  assert.deepEqual(covered(text, o.errorRange!), covered(text, errors[0]!));
}

describe('SDK v2 URN classes (datahub.metadata.urns) are read as the URNs they build', () => {
  test('every class, positional arguments', () => {
    assertBuilds(
      [
        'orders = ⟦DatasetUrn("snowflake", "sales.public.orders", "PROD")⟧',
        'pf = ⟦DataPlatformUrn("snowflake")⟧',
        'model = ⟦MlModelUrn("sagemaker", "fraud-detector", "DEV")⟧',
        'group = ⟦MlModelGroupUrn("sagemaker", "fraud")⟧',
        'feat = ⟦MlFeatureUrn("customer_features", "lifetime_value")⟧',
        'table = ⟦MlFeatureTableUrn("feast", "customer_features")⟧',
        'owner = ⟦CorpUserUrn("asmith")⟧',
        'team = ⟦CorpGroupUrn("data-eng")⟧',
        'tag = ⟦TagUrn("pii")⟧',
        'term = ⟦GlossaryTermUrn("Finance.Revenue")⟧',
        'flow = ⟦DataFlowUrn("airflow", "nightly_sales", "prod")⟧',
        'box = ⟦ContainerUrn("b6d1e2")⟧',
        'dom = ⟦DomainUrn("marketing")⟧',
        'chart = ⟦ChartUrn("looker", "look.42")⟧',
        'board = ⟦DashboardUrn("looker", "dash.7")⟧',
        'inst = ⟦DataPlatformInstanceUrn("snowflake", "eu_account")⟧',
      ].join('\n'),
      [
        'urn:li:dataset:(urn:li:dataPlatform:snowflake,sales.public.orders,PROD)',
        'urn:li:dataPlatform:snowflake',
        'urn:li:mlModel:(urn:li:dataPlatform:sagemaker,fraud-detector,DEV)',
        'urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,fraud,PROD)',
        'urn:li:mlFeature:(customer_features,lifetime_value)',
        'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,customer_features)',
        'urn:li:corpuser:asmith',
        'urn:li:corpGroup:data-eng',
        'urn:li:tag:pii',
        'urn:li:glossaryTerm:Finance.Revenue',
        'urn:li:dataFlow:(airflow,nightly_sales,prod)',
        'urn:li:container:b6d1e2',
        'urn:li:domain:marketing',
        'urn:li:chart:(looker,look.42)',
        'urn:li:dashboard:(looker,dash.7)',
        'urn:li:dataPlatformInstance:(urn:li:dataPlatform:snowflake,eu_account)',
      ],
    );
  });

  test('keyword arguments in any order; env defaults to PROD and is upper-cased; reserved characters encoded', () => {
    assertBuilds(
      [
        'a = ⟦DatasetUrn(name="sales.orders", platform="postgres")⟧',
        'b = ⟦DatasetUrn("postgres", "sales.orders", env="staging")⟧',
        'c = ⟦MlFeatureUrn(feature_namespace="users", name="age")⟧',
        'd = ⟦DatasetUrn("s3", "bucket/key,with(commas)")⟧',
        'e = ⟦DataPlatformUrn(platform_name="kafka")⟧',
      ].join('\n'),
      [
        'urn:li:dataset:(urn:li:dataPlatform:postgres,sales.orders,PROD)',
        'urn:li:dataset:(urn:li:dataPlatform:postgres,sales.orders,STAGING)',
        'urn:li:mlFeature:(users,age)',
        'urn:li:dataset:(urn:li:dataPlatform:s3,bucket/key%2Cwith%28commas%29,PROD)',
        'urn:li:dataPlatform:kafka',
      ],
    );
  });

  test('platform as a name, as a platform URN, or as a DataPlatformUrn call', () => {
    assertBuilds(
      [
        'a = ⟦DatasetUrn("kafka", "clicks")⟧',
        'b = ⟦DatasetUrn("urn:li:dataPlatform:kafka", "clicks")⟧',
        'c = ⟦DatasetUrn(⟦DataPlatformUrn("kafka")⟧, "clicks")⟧',
        'd = ⟦DataPlatformUrn("urn:li:dataPlatform:kafka")⟧',
      ].join('\n'),
      [
        'urn:li:dataset:(urn:li:dataPlatform:kafka,clicks,PROD)',
        'urn:li:dataset:(urn:li:dataPlatform:kafka,clicks,PROD)',
        'urn:li:dataset:(urn:li:dataPlatform:kafka,clicks,PROD)',
        'urn:li:dataPlatform:kafka',
        'urn:li:dataPlatform:kafka',
      ],
    );
  });

  test('nested calls: a schema field of a DatasetUrn(…) call or of a literal, a job of a DataFlowUrn(…)', () => {
    assertBuilds(
      [
        'f = ⟦SchemaFieldUrn(⟦DatasetUrn("hive", "web.sessions")⟧, "user_id")⟧',
        'g = ⟦SchemaFieldUrn("urn:li:dataset:(urn:li:dataPlatform:hive,web.sessions,PROD)", field_path="ts")⟧',
        'j = ⟦DataJobUrn(⟦DataFlowUrn("airflow", "etl", "PROD")⟧, "load_sessions")⟧',
        // Qualified: the range starts at the class name, as for builder.make_…(…).
        'k = urns.⟦SchemaFieldUrn(urns.⟦DatasetUrn("hive", "t")⟧, "c")⟧',
      ].join('\n'),
      [
        'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,web.sessions,PROD),user_id)',
        'urn:li:dataset:(urn:li:dataPlatform:hive,web.sessions,PROD)',
        'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,web.sessions,PROD),ts)',
        'urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,PROD),load_sessions)',
        'urn:li:dataFlow:(airflow,etl,PROD)',
        'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD),c)',
        'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)',
      ],
    );
  });

  test('class methods: create_from_ids (platform_instance prefixes the name), create_from_id', () => {
    assertBuilds(
      [
        'a = ⟦DatasetUrn.create_from_ids(platform_id="mysql", table_name="shop.carts", env="PROD", platform_instance="eu_replica")⟧',
        'b = ⟦DatasetUrn.create_from_ids("mysql", "shop.carts", "dev")⟧',
        'c = ⟦DatasetUrn.create_from_ids("mysql", "shop.carts", "PROD", None)⟧',
        'd = ⟦DataFlowUrn.create_from_ids(orchestrator="dagster", flow_id="ingest", env="prod", platform_instance="cluster2")⟧',
        'e = ⟦DataJobUrn.create_from_ids(data_flow_urn="urn:li:dataFlow:(dagster,ingest,prod)", job_id="op1")⟧',
        'f = ⟦CorpUserUrn.create_from_id("asmith")⟧',
      ].join('\n'),
      [
        'urn:li:dataset:(urn:li:dataPlatform:mysql,eu_replica.shop.carts,PROD)',
        'urn:li:dataset:(urn:li:dataPlatform:mysql,shop.carts,DEV)',
        'urn:li:dataset:(urn:li:dataPlatform:mysql,shop.carts,PROD)',
        'urn:li:dataFlow:(dagster,cluster2.ingest,prod)',
        'urn:li:dataJob:(urn:li:dataFlow:(dagster,ingest,prod),op1)',
        'urn:li:corpuser:asmith',
      ],
    );
  });

  test('an env typo: the unknown-env part maps to the env argument', () => {
    const text = 'x = DatasetUrn("hive", "db.users", env="PRDO")';
    const [o] = findPythonClassCalls(text).occurrences;
    assert.equal(o?.parsed?.ok, true);
    const parts = o.parsed.ok ? o.parsed.parts : [];
    const env = parts.find((p) => p.role === 'env')!;
    const r = builderPartRange(o, env.start, env.end)!;
    assert.equal(text.slice(r.start, r.end), '"PRDO"');
  });

  test('a malformed result: the error range is on the argument that caused it, also inside a nested call', () => {
    assertErrorAt('x = DatasetUrn("hive", ⟪"  padded "⟫)', /whitespace/);
    assertErrorAt('x = SchemaFieldUrn(DatasetUrn("hive", ⟪" t"⟫), "c")', /whitespace/);
    const [outer, inner] = findPythonClassCalls('x = SchemaFieldUrn(DatasetUrn("hive", "t"), "c")').occurrences;
    assert.equal(outer!.parsed?.ok && outer!.parsed.urn.kind, 'schemaField');
    assert.equal(inner!.parent, 0, 'the nested DatasetUrn(…) is part of the schemaField');
  });
});

describe('X.from_string: DataHub refuses a URN of another kind', () => {
  test('a URN of the class kind (or Urn.from_string) is left to the text extractor, and still scans', () => {
    const text = [
      'a = DatasetUrn.from_string("urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)")',
      'b = Urn.from_string("urn:li:corpuser:jdoe")',
      'c = Urn.create_from_string("urn:li:tag:pii")',
    ].join('\n');
    assert.deepEqual(findPythonClassCalls(text).occurrences, []);
    const scan = scanDocument(text, 'python', { namespaces: ['li'] });
    assert.deepEqual(
      scan.occurrences.filter((o) => o.parent === undefined).map((o) => [o.source, o.parsed?.ok]),
      [
        ['text', true],
        ['text', true],
        ['text', true],
      ],
    );
  });

  test('another kind, or not a URN: an error on the literal, and the text occurrence gives way', () => {
    assertErrorAt('u = DatasetUrn.from_string(⟪"urn:li:corpuser:jdoe"⟫)', /corpuser URN.*dataset URNs only/);
    assertErrorAt('u = CorpUserUrn.create_from_string(⟪"jdoe"⟫)', /starting with 'urn:li:'/);
    const text = 'u = DatasetUrn.from_string("urn:li:corpuser:jdoe")';
    const scan = scanDocument(text, 'python', { namespaces: ['li'] });
    assert.deepEqual(
      scan.occurrences.map((o) => [o.source, o.parsed?.ok]),
      [['builder', false]],
    );
  });
});

describe('datahub.sdk entities are read as the URN they make', () => {
  test('Dataset, MLModel, MLModelGroup, DataFlow with their identity keywords; other keywords take any value', () => {
    assertBuilds(
      SDK_IMPORT +
        [
          'ds = ⟦Dataset(platform="bigquery", name="proj.sales.orders", description=describe(t), schema=[("id", "int")])⟧',
          'ds2 = ⟦Dataset(platform="bigquery", name="sales.orders", platform_instance="proj-eu", env="qa")⟧',
          'mm = ⟦MLModel(id="fraud-v2", platform="mlflow", name="Fraud v2", platform_instance="west")⟧',
          'mm2 = ⟦MLModel("fraud-v3", "mlflow", env="DEV")⟧',
          'mg = ⟦MLModelGroup(id="fraud", platform="mlflow")⟧',
          'df = ⟦DataFlow(platform="airflow", name="daily_orders", platform_instance="prod-cluster", env="PROD")⟧',
        ].join('\n'),
      [
        'urn:li:dataset:(urn:li:dataPlatform:bigquery,proj.sales.orders,PROD)',
        'urn:li:dataset:(urn:li:dataPlatform:bigquery,proj-eu.sales.orders,QA)',
        // MLModel's platform_instance is not part of its URN; name= is a display name.
        'urn:li:mlModel:(urn:li:dataPlatform:mlflow,fraud-v2,PROD)',
        'urn:li:mlModel:(urn:li:dataPlatform:mlflow,fraud-v3,DEV)',
        'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,fraud,PROD)',
        'urn:li:dataFlow:(airflow,prod-cluster.daily_orders,PROD)',
      ],
    );
  });

  test('import forms that count: import datahub…, from datahub.sdk.dataset import …', () => {
    assertBuilds('import datahub.sdk as sdk\nd = sdk.⟦Dataset(platform="hive", name="t")⟧', [
      'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)',
    ]);
    assertBuilds('from datahub.sdk.dataset import Dataset\nd = ⟦Dataset(name="t", platform="hive")⟧', [
      'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)',
    ]);
  });

  test('look-alikes: Dataset( of other libraries gives nothing', () => {
    const others = [
      'from datasets import Dataset\nds = Dataset.from_dict({"text": ["a"]})\nd2 = Dataset(arrow_table, info=info)',
      'from torch.utils.data import Dataset\nclass Clicks(Dataset):\n    pass\nd = Dataset(platform="hive", name="t")',
      'import pandas as pd\nd = Dataset(platform="hive", name="t")  # no datahub import',
      'from mylib import datahub_helpers\nd = Dataset(platform="hive", name="t")',
    ];
    for (const text of others) assert.deepEqual(findPythonClassCalls(text).occurrences, [], text);
    // With DataHub imported, a positional Dataset(…) is not DataHub's (its parameters are keyword-only).
    assert.deepEqual(
      findPythonClassCalls(SDK_IMPORT + 'd = Dataset("hive", "t")\ne = Dataset(data, split="train")').occurrences,
      [],
    );
  });
});

describe('Python URN class calls that are not read', () => {
  test('computed arguments, wrong arity or keywords, definitions, imports, comments and strings give nothing', () => {
    const text =
      SDK_IMPORT +
      [
        'from datahub.metadata.urns import DatasetUrn, TagUrn',
        'a = DatasetUrn(platform, "db.users")',
        'b = DatasetUrn("hive", f"db.{table}")',
        'c = DatasetUrn("hive", "db." + suffix)',
        'd = TagUrn(*names)',
        'e = DatasetUrn("hive")',
        'f = DatasetUrn("hive", "t", "PROD", "extra")',
        'g = DatasetUrn("hive", "t", colour="red")',
        'h = Dataset(platform=p, name="t")',
        'i = DatasetUrn.create_from_ids("hive", "t")',
        'class MyDatasetUrn(DatasetUrn):',
        '    pass',
        '# DatasetUrn("hive", "in.a.comment")',
        "s = \"DatasetUrn('hive', 'in.a.string')\"",
        'doc = """',
        'Example: TagUrn("in-a-docstring")',
        '"""',
        'x = MyTagUrn("not.datahub")',
        'y = DatasetUrn("hive", "db.us',
      ].join('\n');
    assert.deepEqual(
      findPythonClassCalls(text).occurrences.map((o) => o.urn),
      [],
    );
  });
});

describe('diagnostics of built URNs point at the argument', () => {
  test('an unknown env: the warning covers the env argument (make_*, URN class, SDK entity, Java); a default env has none', () => {
    const cases: Array<[string, string, string]> = [
      ['python', 'x = make_dataset_urn("hive", "db.users", "PRDO")', '"PRDO"'],
      ['python', 'x = DatasetUrn("hive", "db.users", env="PRDO")', '"PRDO"'],
      ['python', 'x = SchemaFieldUrn(DatasetUrn("hive", "db.users", "prdo"), "c")', '"prdo"'],
      ['python', `${SDK_IMPORT}x = Dataset(platform="hive", name="db.users", env="PRDO")`, '"PRDO"'],
      ['java', 'var x = new DatasetUrn(new DataPlatformUrn("hive"), "db.users", FabricType.PRDO);', 'FabricType.PRDO'],
    ];
    for (const [language, text, expected] of cases) {
      const scan = scanDocument(text, language, { namespaces: ['li'] });
      const envWarnings = diagnosticsFor(scan, () => undefined, DEFAULT_SETTINGS.diagnostics).filter(
        (d) => d.code === 'unknown-env',
      );
      assert.deepEqual(
        envWarnings.map((d) => text.slice(d.start, d.end)),
        [expected],
        text,
      );
    }
  });

  test('a malformed built URN: the error covers the culprit argument', () => {
    const text = 'x = DatasetUrn("hive", " padded")';
    const [d] = diagnosticsFor(
      scanDocument(text, 'python', { namespaces: ['li'] }),
      () => undefined,
      DEFAULT_SETTINGS.diagnostics,
    );
    assert.equal(d?.code, 'malformed-urn');
    assert.equal(text.slice(d.start, d.end), '" padded"');
  });
});

describe('SDK entities: every name of PY_SDK_ENTITIES is looked for', () => {
  test("each entity's call is read in a file that imports datahub", () => {
    for (const [name, spec] of Object.entries(PY_SDK_ENTITIES)) {
      const args = spec.params
        .slice(0, spec.required)
        .map((param) => `${param}="a"`)
        .join(', ');
      const text = `import datahub\nx = ${name}(${args})`;
      const { occurrences } = findPythonClassCalls(text);
      assert.deepEqual(
        occurrences.map((o) => [o.start, o.end]),
        [[text.indexOf(name), text.length]],
        text,
      );
      assert.equal(occurrences[0]!.parsed?.ok, true, text);
    }
  });

  test('a name that only ends with an entity name is no call; the entity after it is, at its offsets', () => {
    const text = 'DataDataset(platform="a", name="b")\nd = Dataset(platform="hive", name="t")\nimport datahub';
    const { occurrences } = findPythonClassCalls(text);
    const call = 'Dataset(platform="hive", name="t")';
    assert.deepEqual(
      occurrences.map((o) => [o.urn, o.start, o.end]),
      [['urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)', text.indexOf(call), text.indexOf(call) + call.length]],
    );
  });
});
