/**
 * Diagnostics, in process (server/src/features/diagnostics.ts): a scan and a stand-in catalog's
 * answers in, codes, ranges (marked `⟦…⟧`), severities, messages and data out — Python, YAML and
 * SQL, both namespace words. The spawned server's diagnostics are test/server/diagnostics.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../../model/src/protocol';
import { diagnosticsFor, type PlainDiagnostic } from '../../../server/src/features/diagnostics';
import { NEAR, SNOWFLAKE_USERS } from './support/nearMisses';
import { scanned } from './support/document';
import {
  dataset,
  failed,
  fakeResolution,
  mlFeature,
  mlFeatureTable,
  mlModel,
  mlModelGroup,
  type CatalogTable,
} from './support/fakeResolution';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const ORDERS_SVC = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,db.orders,PROD)';
const GHOST = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.ghost,PROD)';
const OLD = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users_old,PROD)';
const TABLE_URN = 'urn:svc:mlFeatureTable:(urn:svc:dataPlatform:feast,users_table)';
const AGE = 'urn:li:mlFeature:(users_table,age)';
const SIGNUP = 'urn:svc:mlFeature:(users_table,signup_days)';
const CHURN = 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn,PROD)';
const CHURN_GROUP = 'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn_models,PROD)';
const LTV_GROUP = 'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,ltv_models,PROD)';

const CATALOG: CatalogTable = {
  answers: {
    [USERS]: dataset(USERS, {
      description: 'One row per registered user.',
      columns: [
        { path: 'user_id', description: 'Primary key of the user.' },
        { path: 'email', description: 'Contact address.' },
        { path: 'age' },
        { path: 'amount', description: 'Order total in EUR.' },
      ],
    }),
    [ORDERS_SVC]: dataset(ORDERS_SVC, { columns: [] }),
    [OLD]: dataset(OLD, {
      description: 'Old users.',
      deprecation: {
        deprecated: true,
        note: 'Moved to v2',
        decommissionTime: Date.UTC(2026, 0, 1),
        replacement: { urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users_v2,PROD)' },
      },
    }),
    // The table lists its feature under the other namespace word: li and svc name one entity.
    [TABLE_URN]: mlFeatureTable(TABLE_URN, {
      description: 'Features of users.',
      features: [AGE.replace(':li:', ':svc:')],
    }),
    [SIGNUP]: mlFeature(SIGNUP, { description: 'Days since signup.' }),
    [CHURN]: mlModel(CHURN, { description: 'Predicts churn.', groups: [CHURN_GROUP] }),
    [CHURN_GROUP]: mlModelGroup(CHURN_GROUP, { description: 'Churn models.' }),
    [LTV_GROUP]: mlModelGroup(LTV_GROUP, { description: 'LTV models.' }),
  },
  suggestions: {
    [GHOST]: [USERS, 'urn:li:dataset:(urn:li:dataPlatform:hive,db.host,PROD)'],
    [NEAR.env]: [USERS],
    [NEAR.dev]: [USERS],
    [NEAR.platform]: [USERS, SNOWFLAKE_USERS],
    [NEAR.case]: [USERS],
    [NEAR.twoParts]: [USERS],
    [NEAR.table]: [AGE],
  },
};
const fake = fakeResolution(CATALOG);
const answers = fake.cached(DEFAULT_SETTINGS);

/** Each diagnostic as [code, severity, the text it covers, message], in the order given. */
const shown = (text: string, ds: readonly PlainDiagnostic[]): Array<[string, string, string, string]> =>
  ds.map((d) => [d.code, d.severity, text.slice(d.start, d.end), d.message]);

describe('diagnostics in Python', () => {
  test('malformed at its bad part, unknown, undocumented, deprecated with its replacement: ranges, severities, messages', () => {
    const s = scanned(
      [
        `bad = "urn:li:dataset:⟦(urn:li:dataPlatform:hive,db.users)⟧"`,
        `typo = "urn:li:⟦mlFeatur⟧:(users_table,age)"`,
        `ghost = "⟦${GHOST}⟧"`,
        `orders = "⟦${ORDERS_SVC}⟧"`,
        `old = "⟦${OLD}⟧"`,
        `users = "${USERS}"`,
        `tpl = f"urn:li:dataset:(urn:li:dataPlatform:{p},{name},PROD)"`,
        '',
      ].join('\n'),
      'python',
    );
    const ds = diagnosticsFor(s.scan, answers, DEFAULT_SETTINGS.diagnostics);
    assert.deepEqual(
      ds.map((d) => ({ start: d.start, end: d.end })),
      s.ranges.map((r) => ({ start: r.start, end: r.end })),
    );
    assert.deepEqual(shown(s.text, ds), [
      ['malformed-urn', 'error', s.ranges[0]!.text, 'Malformed URN: expected 3 parts (platform, name, env), found 2'],
      ['malformed-urn', 'error', 'mlFeatur', "Malformed URN: unknown entity type 'mlFeatur' (did you mean mlFeature?)"],
      ['unknown-urn', 'warning', GHOST, 'Dataset db.ghost is not in the catalog'],
      ['missing-description', 'information', ORDERS_SVC, 'Dataset db.orders has no description'],
      [
        'deprecated-urn',
        'warning',
        OLD,
        'Dataset db.users_old is deprecated (decommission 2026-01-01): Moved to v2. Use db.users_v2 instead.',
      ],
    ]);
    assert.deepEqual(ds[3]!.data, { code: 'missing-description', urn: ORDERS_SVC, kind: 'dataset' });
    assert.deepEqual(ds[4]!.data, {
      code: 'deprecated-urn',
      urn: OLD,
      kind: 'dataset',
      replacement: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users_v2,PROD)',
    });
  });

  test('did-you-mean: the near names in the message, their URNs in the data for the quick fixes', () => {
    const s = scanned(`ghost = "${GHOST}"\n`, 'python');
    const [d] = diagnosticsFor(s.scan, answers, DEFAULT_SETTINGS.diagnostics, (urn) => CATALOG.suggestions?.[urn]);
    assert.equal(d?.message, 'Dataset db.ghost is not in the catalog. Did you mean db.users or db.host?');
    assert.deepEqual(d?.data.suggestions, CATALOG.suggestions![GHOST]);
  });

  test('did-you-mean names what differs: the env, the platform, the case, several parts, the feature table', () => {
    const messageFor = (urn: string): string | undefined =>
      diagnosticsFor(
        scanned(`x = "${urn}"\n`, 'python').scan,
        answers,
        DEFAULT_SETTINGS.diagnostics,
        (u) => CATALOG.suggestions?.[u],
      ).find((d) => d.code === 'unknown-urn')?.message;
    assert.equal(messageFor(NEAR.env), 'Dataset db.users is not in the catalog. Did you mean env PROD?');
    assert.equal(messageFor(NEAR.dev), 'Dataset db.users is not in the catalog. Did you mean env PROD?');
    assert.equal(
      messageFor(NEAR.platform),
      'Dataset db.users is not in the catalog. Did you mean platform hive or platform snowflake?',
    );
    assert.equal(messageFor(NEAR.case), 'Dataset DB.USERS is not in the catalog. Did you mean db.users?');
    assert.equal(
      messageFor(NEAR.twoParts),
      'Dataset db.usres is not in the catalog. Did you mean db.users on platform hive in env PROD?',
    );
    assert.equal(
      messageFor(NEAR.table),
      'ML feature age is not in the catalog. Did you mean feature table users_table?',
    );
  });

  test('a builder call is checked like the URN it builds: the env diagnostic lands on its argument', () => {
    const s = scanned('x = make_dataset_urn("hive", "db.users", ⟦"PRDO"⟧)\n', 'python');
    const ds = diagnosticsFor(s.scan, answers, DEFAULT_SETTINGS.diagnostics);
    assert.deepEqual(shown(s.text, ds), [
      ['unknown-env', 'warning', '"PRDO"', "env 'PRDO' is not one of DataHub's environments (did you mean PROD?)"],
      // The catalog lacks the URN it builds: the whole call is flagged.
      [
        'unknown-urn',
        'warning',
        'make_dataset_urn("hive", "db.users", "PRDO")',
        'Dataset db.users is not in the catalog',
      ],
    ]);
    assert.deepEqual(ds[0]!.data, {
      code: 'unknown-env',
      urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PRDO)',
      kind: 'dataset',
      env: 'PRDO',
      suggestion: 'PROD',
    });
  });

  test('levels come from the settings: off drops a code; an unanswered or failed URN says nothing', () => {
    const s = scanned(`a = "${ORDERS_SVC}"\nb = "${GHOST}"\n`, 'python');
    const off = { ...DEFAULT_SETTINGS.diagnostics, missingDescription: 'off' as const, unknown: 'error' as const };
    assert.deepEqual(
      diagnosticsFor(s.scan, answers, off).map((d) => [d.code, d.severity]),
      [['unknown-urn', 'error']],
    );
    const unanswered = fakeResolution({ unlisted: 'unanswered' }).cached(DEFAULT_SETTINGS);
    assert.deepEqual(diagnosticsFor(s.scan, unanswered, DEFAULT_SETTINGS.diagnostics), []);
    const failing = fakeResolution({ answers: { [ORDERS_SVC]: failed('timed out', 'timeout'), [GHOST]: failed('x') } });
    assert.deepEqual(diagnosticsFor(s.scan, failing.cached(DEFAULT_SETTINGS), DEFAULT_SETTINGS.diagnostics), []);
  });
});

describe('diagnostics in YAML', () => {
  test('columns: undocumented, unknown (with a near name), described otherwise; a description the catalog lacks can be pushed', () => {
    const s = scanned(
      [
        'datasets:',
        `  - urn: ${USERS}`,
        '    columns:',
        '      - name: user_id',
        '        description: Primary key of the user.',
        '      - name: ⟦age⟧',
        '      - name: ⟦emial⟧',
        '      - name: amount',
        '        description: ⟦Order total in USD.⟧',
        `  - urn: "${ORDERS_SVC}"`,
        '    description: ⟦Orders placed by users.⟧',
        '',
      ].join('\n'),
      'yaml',
    );
    const ds = diagnosticsFor(s.scan, answers, DEFAULT_SETTINGS.diagnostics);
    assert.deepEqual(
      shown(s.text, ds).sort((a, b) => s.text.indexOf(a[2]) - s.text.indexOf(b[2])),
      [
        ['missing-column-description', 'information', 'age', "Column 'age' of db.users has no description"],
        [
          'unknown-column',
          'warning',
          'emial',
          "Column 'emial' is not in the catalog's schema of db.users (did you mean email?)",
        ],
        [
          'column-description-mismatch',
          'information',
          'Order total in USD.',
          "The catalog's description of column 'amount' differs from this one",
        ],
        [
          'description-mismatch',
          'information',
          'Orders placed by users.',
          'Dataset db.orders has no description in the catalog; this one can be pushed',
        ],
      ],
    );
    const mismatch = ds.find((d) => d.code === 'column-description-mismatch');
    assert.deepEqual(mismatch?.data, {
      code: 'column-description-mismatch',
      urn: USERS,
      kind: 'dataset',
      fieldPath: 'amount',
      yamlText: 'Order total in USD.',
      catalogText: 'Order total in EUR.',
    });
  });

  test('list members the catalog lacks, whichever namespace word spells them; li and svc name one member', () => {
    const s = scanned(
      [
        'feature_tables:',
        `  - urn: ${TABLE_URN}`,
        '    features:',
        `      - ${AGE}`,
        `      - ⟦${SIGNUP}⟧`,
        'models:',
        `  - urn: ${CHURN}`,
        `    groups: ["${CHURN_GROUP}", "⟦${LTV_GROUP}⟧"]`,
        '',
      ].join('\n'),
      'yaml',
    );
    const ds = diagnosticsFor(s.scan, answers, DEFAULT_SETTINGS.diagnostics).filter(
      (d) => d.code === 'missing-list-member',
    );
    assert.deepEqual(shown(s.text, ds), [
      ['missing-list-member', 'information', SIGNUP, "Not among the catalog's features of users_table"],
      ['missing-list-member', 'information', LTV_GROUP, "Not among the catalog's groups of churn"],
    ]);
    assert.deepEqual(ds[0]!.data, {
      code: 'missing-list-member',
      urn: SIGNUP,
      kind: 'mlFeature',
      owner: TABLE_URN,
      list: 'mlFeatures',
    });
  });

  test('many datasets and tables in one file: each description is held to its own dataset, each member to its own table', () => {
    // 300 datasets, each described in the file; the catalog describes the even ones as the file
    // does, the odd ones otherwise. Then two tables listing the same features: one has them all.
    const ds = (i: number): string => `urn:li:dataset:(urn:li:dataPlatform:hive,db.t${i},PROD)`;
    const feature = (i: number): string => `urn:li:mlFeature:(users_table,f${i})`;
    const FULL = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,full_table)';
    const HALF = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,half_table)';
    const answers: NonNullable<CatalogTable['answers']> = {};
    const table: CatalogTable = { answers };
    const lines = ['datasets:'];
    for (let i = 0; i < 300; i++) {
      answers[ds(i)] = dataset(ds(i), { description: i % 2 === 0 ? `Table ${i}.` : `Other ${i}.`, columns: [] });
      lines.push(`  - urn: ${ds(i)}`, `    description: Table ${i}.`);
    }
    const features = Array.from({ length: 200 }, (_, i) => feature(i));
    // Each feature is in the catalog (one it lacks is flagged unknown, not as a member).
    for (const f of features) answers[f] = mlFeature(f, { description: 'A feature.' });
    answers[FULL] = mlFeatureTable(FULL, {
      description: 'All.',
      features: features.map((f) => f.replace(':li:', ':svc:')),
    });
    answers[HALF] = mlFeatureTable(HALF, { description: 'Half.', features: features.filter((_, i) => i % 2 === 0) });
    lines.push('feature_tables:');
    for (const owner of [FULL, HALF])
      lines.push(`  - urn: ${owner}`, '    features:', ...features.map((f) => `      - ${f}`));
    const text = lines.join('\n') + '\n';
    const s = scanned(text, 'yaml');
    const got = diagnosticsFor(s.scan, fakeResolution(table).cached(DEFAULT_SETTINGS), DEFAULT_SETTINGS.diagnostics);
    const mismatches = got.filter((d) => d.code === 'description-mismatch');
    assert.deepEqual(
      mismatches.map((d) => [s.text.slice(d.start, d.end), (d.data as { urn: string }).urn]),
      Array.from({ length: 150 }, (_, k) => [`Table ${2 * k + 1}.`, ds(2 * k + 1)]),
    );
    const missing = got.filter((d) => d.code === 'missing-list-member');
    const halfStart = s.text.indexOf(HALF);
    assert.ok(missing.every((d) => d.start > halfStart && (d.data as { owner: string }).owner === HALF));
    assert.deepEqual(
      missing.map((d) => s.text.slice(d.start, d.end)),
      features.filter((_, i) => i % 2 === 1),
    );
  });

  test("a null among a catalog's members (against DataHub's schema) is passed over, not a failure", () => {
    const MODEL = 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,nulls,PROD)';
    const answers: NonNullable<CatalogTable['answers']> = {
      [MODEL]: mlModel(MODEL, { description: 'M.', features: [SIGNUP, null as unknown as string] }),
      [AGE]: mlFeature(AGE, { description: 'Age.' }),
      [SIGNUP]: mlFeature(SIGNUP, { description: 'Days since signup.' }),
    };
    const s = scanned(
      ['models:', `  - urn: ${MODEL}`, '    features:', `      - ${SIGNUP}`, `      - ⟦${AGE}⟧`, ''].join('\n'),
      'yaml',
    );
    const ds = diagnosticsFor(
      s.scan,
      fakeResolution({ answers }).cached(DEFAULT_SETTINGS),
      DEFAULT_SETTINGS.diagnostics,
    );
    assert.deepEqual(
      shown(
        s.text,
        ds.filter((d) => d.code === 'missing-list-member'),
      ),
      [['missing-list-member', 'information', AGE, "Not among the catalog's features of nulls"]],
    );
  });

  test('an unquoted URN cut by a flow collection comma: one error over the whole URN, to be quoted', () => {
    const s = scanned(`datasets: [⟦${USERS}⟧]\n`, 'yaml');
    const ds = diagnosticsFor(s.scan, answers, DEFAULT_SETTINGS.diagnostics);
    assert.deepEqual(shown(s.text, ds), [
      [
        'malformed-urn',
        'error',
        USERS,
        'Malformed URN: in a YAML flow collection a comma ends an unquoted value, so this URN is cut at its first comma: quote it',
      ],
    ]);
    assert.deepEqual(ds[0]!.data, { code: 'malformed-urn', urn: USERS, quote: true });
  });
});

describe('diagnostics in SQL', () => {
  test('single-quoted URNs: an env DataHub does not know, a custom entity type, one the catalog lacks', () => {
    const s = scanned(
      [
        `SELECT * FROM t WHERE urn = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,db.orders,⟦prod⟧)'`,
        `   OR urn = 'urn:li:⟦myThing⟧:abc'`,
        `   OR urn = '⟦${GHOST}⟧';`,
        '',
      ].join('\n'),
      'sql',
    );
    const ds = diagnosticsFor(s.scan, answers, DEFAULT_SETTINGS.diagnostics);
    assert.deepEqual(shown(s.text, ds), [
      ['unknown-env', 'warning', 'prod', "env 'prod' is not one of DataHub's environments (did you mean PROD?)"],
      // The catalog lacks the URN as written (its env spelled so): said too, over the whole URN.
      [
        'unknown-urn',
        'warning',
        'urn:svc:dataset:(urn:svc:dataPlatform:hive,db.orders,prod)',
        'Dataset db.orders is not in the catalog',
      ],
      [
        'unregistered-entity-type',
        'information',
        'myThing',
        "'myThing' is not an entity type DataHub knows; a custom type's URNs are not checked",
      ],
      ['unknown-urn', 'warning', GHOST, 'Dataset db.ghost is not in the catalog'],
    ]);
  });
});
