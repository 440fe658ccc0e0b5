/**
 * The hover, in process (server/src/features/hover.ts): what is under the caret, and the Markdown
 * for what a stand-in catalog answered — per kind, per language, both namespace words. The
 * spawned server's hovers are test/server/hover.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_SETTINGS, type Settings } from '../../../model/src/protocol';
import type { ResolutionLookup } from '../../../server/src/catalogClient/client';
import { hoverAt, hoverLookupAt, type HoverEditor } from '../../../server/src/features/hover';
import type { EntityContext } from '../../../server/src/resolution/context';
import { scanned } from './support/document';
import { dataset, failed, fakeResolution, mlFeature, mlModel, type CatalogTable } from './support/fakeResolution';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const USERS_SVC = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,db.users,PROD)';
const AGE_SVC = 'urn:svc:mlFeature:(users_table,age)';
const CHURN = 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn,PROD)';
const GROUP = 'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn_models,PROD)';
const WITH_URL: Settings = { ...DEFAULT_SETTINGS, url: 'http://catalog.test' };

const users = dataset(USERS, {
  description: 'One row per registered user.',
  columns: [
    { path: 'user_id', description: 'Primary key of the user.', type: 'bigint' },
    { path: 'email', description: null, type: 'string' },
  ],
});
const TABLE: CatalogTable = {
  answers: {
    [USERS]: users,
    // The same entity under the other namespace word: the local catalog's spec mode answers both.
    [USERS_SVC]: dataset(USERS_SVC, { description: 'One row per registered user.', columns: null }),
    [AGE_SVC]: mlFeature(AGE_SVC, { description: 'Age in years.', dataType: 'CONTINUOUS', version: '2' }),
    [CHURN]: mlModel(CHURN, {
      description: 'Predicts churn.',
      type: 'classifier',
      version: '7',
      features: ['urn:li:mlFeature:(users_table,age)', 'urn:li:mlFeature:(users_table,signup_days)'],
      groups: [GROUP],
    }),
  },
};
const answers: ResolutionLookup = fakeResolution(TABLE).cached(DEFAULT_SETTINGS);

/** The hover's Markdown at the caret of `marked`, a document of `languageId`. */
function hoverText(
  marked: string,
  languageId: string,
  opts: { settings?: Settings; resolved?: ResolutionLookup; editor?: HoverEditor; context?: EntityContext } = {},
): string | undefined {
  const s = scanned(marked, languageId);
  return hoverAt(
    s.scan,
    s.offset,
    opts.settings ?? DEFAULT_SETTINGS,
    opts.resolved ?? answers,
    opts.editor,
    opts.context,
  )?.markdown;
}

describe('hover: what is asked', () => {
  test('the URN under the caret; a schemaField asks its dataset for the column; a template asks nothing; a user is looked up', () => {
    const at = (marked: string, languageId = 'python') => {
      const s = scanned(marked, languageId);
      return hoverLookupAt(s.scan, s.offset);
    };
    assert.deepEqual(at(`x = "${USERS.replace('db.users', 'db.us‸ers')}"`), { urn: USERS, kind: 'dataset' });
    assert.deepEqual(at(`- ${AGE_SVC.replace('age', 'a‸ge')}`, 'yaml'), { urn: AGE_SVC, kind: 'mlFeature' });
    assert.deepEqual(at(`x = "urn:li:schemaField:(${USERS},user‸_id)"`), {
      urn: USERS,
      kind: 'dataset',
      column: 'user_id',
    });
    assert.equal(at('x = f"urn:li:dataset:(urn:li:dataPlatform:{p},db.us‸ers,PROD)"'), undefined);
    assert.deepEqual(at('x = "urn:li:corpuser:jd‸oe"'), { urn: 'urn:li:corpuser:jdoe', kind: 'corpuser' });
    assert.equal(at('x = "no U‸RN here"'), undefined);
  });
});

describe('hover: the text per kind', () => {
  test('a Python dataset literal: title, description, a line per column with its type, and the page link', () => {
    const h = hoverText(`USERS = "${USERS.replace('db.users', 'db.‸users')}"\n`, 'python', {
      settings: WITH_URL,
      editor: { shown: [] },
    });
    assert.equal(
      h,
      [
        '**Dataset** `db.users` · hive · PROD',
        'One row per registered user.',
        '`user_id` bigint — Primary key of the user.  \n`email` string — _no description_',
        `[Open in catalog](http://catalog.test/dataset/${USERS})`,
      ].join('\n\n'),
    );
  });

  test('the hover range is the URN, or the YAML column name hovered beside its dataset', () => {
    const s = scanned(`datasets:\n  - urn: ⟦${USERS}⟧\n    columns:\n      - name: ⟦user‸_id⟧\n`, 'yaml');
    const column = hoverAt(s.scan, s.offset, DEFAULT_SETTINGS, answers, { shown: [] });
    assert.deepEqual(column?.range, { start: s.ranges[1]!.start, end: s.ranges[1]!.end });
    assert.equal(
      column?.markdown,
      '**Dataset** `db.users` · hive · PROD\n\nColumn `user_id` · type `bigint`\n\nPrimary key of the user.',
    );
    const onUrn = hoverAt(s.scan, s.ranges[0]!.start + 3, DEFAULT_SETTINGS, answers, { shown: [] });
    assert.deepEqual(onUrn?.range, { start: s.ranges[0]!.start, end: s.ranges[0]!.end });
  });

  test('urn:svc: in YAML: an ML feature with its data type and version', () => {
    assert.equal(
      hoverText(`features:\n  - ${AGE_SVC.replace('(users', '(us‸ers')}\n`, 'yaml', { editor: { shown: [] } }),
      '**ML feature** `age` · table `users_table`\n\nAge in years.\n\ndata type `CONTINUOUS` · version `2`',
    );
    assert.equal(
      hoverText(`x = "${USERS_SVC.replace('db.users', 'db.us‸ers')}"`, 'python', { editor: { shown: [] } }),
      '**Dataset** `db.users` · hive · PROD\n\nOne row per registered user.\n\n_No schema in the catalog._',
    );
  });

  test('an ML model: type and version, then its groups and features on one line', () => {
    assert.equal(
      hoverText(`model = "${CHURN.replace('churn', 'ch‸urn')}"`, 'python', { editor: { shown: [] } }),
      [
        '**ML model** `churn` · mlflow · PROD',
        'Predicts churn.',
        'type classifier · version `7`',
        'Groups: `churn_models` · Features (2): `age`, `signup_days`',
      ].join('\n\n'),
    );
  });

  test('a schemaField names a column of its dataset: its description and native type', () => {
    assert.equal(
      hoverText(`col = "urn:li:schemaField:(${USERS},user‸_id)"`, 'python', { editor: { shown: [] } }),
      '**Column** `user_id` · dataset `db.users` · hive · PROD\n\nPrimary key of the user.\n\ntype `bigint`',
    );
    assert.equal(
      hoverText(`col = "urn:li:schemaField:(${USERS},emial‸)"`, 'python', { editor: { shown: [] } }),
      "**Column** `emial` · dataset `db.users` · hive · PROD\n\nColumn `emial` is not in the catalog's schema of `db.users`. Did you mean `email`?",
    );
  });

  test('what else the catalog knows comes first; a deprecation with its replacement; the lineage counts link to the lineage view', () => {
    const context: EntityContext = {
      owners: ['jdoe', 'growth', 'data-eng', 'ml'],
      tags: ['pii'],
      terms: [],
      domain: 'growth',
      deprecation: { note: 'Moved.', replacement: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users_v2,PROD)' },
      upstream: 1,
      downstream: 3,
    };
    const h = hoverText(`x = "${USERS.replace('db.users', 'db.u‸sers')}"`, 'python', {
      editor: { shown: [], lineageLinks: true },
      context,
    });
    const lines = (h ?? '').split('\n\n');
    assert.equal(lines[0], '**Dataset** `db.users` · hive · PROD');
    assert.equal(lines[1], '⚠ **Deprecated**: Moved. Use `db.users_v2` instead.');
    assert.equal(lines[2], 'One row per registered user.');
    const arg = encodeURIComponent(JSON.stringify({ urn: USERS }))
      .replace(/\(/g, '%28')
      .replace(/\)/g, '%29');
    assert.equal(
      lines[3],
      `Owners jdoe, growth, data-eng +1 · Tags pii · Domain growth · [Lineage ↑1 ↓3](command:catalogLens.showLineage?${arg} "Show the lineage view")`,
    );
  });
});

describe('hover: a dataset shows as many columns as fit the box', () => {
  const FIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.five,PROD)';
  const WIDE = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.wide,PROD)';
  const column = (i: number) => ({
    path: `field_${i + 1}`,
    description: i % 4 === 3 ? null : `What field ${i + 1} records.`,
    type: i === 0 ? 'bigint' : 'string',
  });
  const table: CatalogTable = {
    answers: {
      [FIVE]: dataset(FIVE, { description: 'Five columns.', columns: Array.from({ length: 5 }, (_, i) => column(i)) }),
      [WIDE]: dataset(WIDE, {
        description: 'Thirty columns.',
        columns: Array.from({ length: 30 }, (_, i) => column(i)),
      }),
    },
  };
  const resolved = fakeResolution(table).cached(DEFAULT_SETTINGS);
  const context: EntityContext = {
    owners: ['jdoe', 'growth-analytics'],
    tags: ['pii'],
    terms: ['Profile'],
    domain: 'growth',
    upstream: 0,
    downstream: 2,
  };

  test('five columns with owners, tags and a lineage link (its target takes no room): all five, with their types', () => {
    const h = hoverText(`x = "${FIVE.replace('db.five', 'db.f‸ive')}"`, 'python', {
      resolved,
      editor: { shown: [], lineageLinks: true, linkTooltips: true },
      context,
    });
    const paragraphs = (h ?? '').split('\n\n');
    assert.equal(
      paragraphs[3],
      [
        '`field_1` bigint — What field 1 records.',
        '`field_2` string — What field 2 records.',
        '`field_3` string — What field 3 records.',
        '`field_4` string — _no description_',
        '`field_5` string — What field 5 records.',
      ].join('  \n'),
    );
    assert.equal(paragraphs.length, 4, h);
  });

  test('thirty columns: as many lines as the box holds, then how many more and how many undocumented, on a line of its own', () => {
    const h = hoverText(`x = "${WIDE.replace('db.wide', 'db.w‸ide')}"`, 'python', {
      resolved,
      editor: { shown: [], linkTooltips: true },
    });
    const paragraphs = (h ?? '').split('\n\n');
    assert.equal(paragraphs[0], '**Dataset** `db.wide` · hive · PROD');
    assert.equal(paragraphs[1], 'Thirty columns.');
    assert.equal(paragraphs[2]!.split('  \n').length, 6, paragraphs[2]);
    assert.equal(paragraphs[3], '_…and 24 more · 7 of the 30 columns have no description_');
    // With owners, tags and lineage above them, one line fewer.
    const withContext = hoverText(`x = "${WIDE.replace('db.wide', 'db.w‸ide')}"`, 'python', {
      resolved,
      editor: { shown: [], linkTooltips: true },
      context,
    });
    assert.match(withContext ?? '', /\n\n_…and 25 more · 7 of the 30 columns have no description_$/);
    // A diagnostic at the mouse (VS Code shows it above, with "View Problem · Quick Fix"): fewer again.
    const said = hoverText(`x = "${WIDE.replace('db.wide', 'db.w‸ide')}"`, 'python', {
      resolved,
      editor: {
        shown: [
          {
            start: 5,
            end: 5 + WIDE.length,
            severity: 'warning',
            message: 'Dataset db.wide is deprecated',
            code: 'deprecated-urn',
            data: { code: 'deprecated-urn' },
          },
        ],
        linkTooltips: true,
      },
    });
    assert.match(said ?? '', /\n\n_…and 26 more · 7 of the 30 columns have no description_$/);
  });
});

describe('hover: what the editor shows already is not said again', () => {
  const GHOST = "'urn:li:dataset:(urn:li:dataPlatform:hive,db.gh‸ost,PROD)'";

  test('SQL: a URN the catalog lacks — the unknown-urn diagnostic says it, else the hover does', () => {
    const sql = `SELECT * FROM lineage WHERE urn = ${GHOST};\n`;
    // Its own check of the document flags it: the diagnostic in the same box says "not in the catalog".
    assert.equal(
      hoverText(sql, 'sql'),
      '**Dataset** `db.ghost` · hive · PROD\n\nplatform: `hive` · name: `db.ghost` · env: `PROD`',
    );
    assert.equal(
      hoverText(sql, 'sql', { editor: { shown: [] } }),
      '**Dataset** `db.ghost` · hive · PROD\n\nplatform: `hive` · name: `db.ghost` · env: `PROD`\n\n_Not in the catalog._',
    );
    // No page link to an entity the catalog lacks.
    assert.doesNotMatch(hoverText(sql, 'sql', { settings: WITH_URL, editor: { shown: [] } }) ?? '', /Open in catalog/);
  });

  test('an editor that shows link tooltips gets no link of the hover over the URN', () => {
    const py = `x = "${USERS.replace('db.users', 'db.us‸ers')}"`;
    assert.match(hoverText(py, 'python', { settings: WITH_URL }) ?? '', /\[Open in catalog\]/);
    assert.doesNotMatch(
      hoverText(py, 'python', { settings: WITH_URL, editor: { linkTooltips: true } }) ?? '',
      /Open in catalog/,
    );
  });

  test('a malformed URN: its diagnostic is the hover; without it the hover says what is wrong', () => {
    const py = 'bad = "urn:li:dataset:(urn:li:dataPlatform:hive,db.us‸ers)"';
    assert.equal(hoverText(py, 'python'), undefined);
    assert.equal(
      hoverText(py, 'python', { editor: { shown: [] } }),
      '**Malformed URN**: expected 3 parts (platform, name, env), found 2\n\n`urn:li:dataset:(urn:li:dataPlatform:hive,db.users)`',
    );
  });

  test('a template is not looked up; a catalog that failed is named with what to do', () => {
    assert.equal(
      hoverText('x = f"urn:li:dataset:(urn:li:dataPlatform:{p},db.us‸ers,PROD)"', 'python'),
      '**Templated URN** `urn:li:dataset:(urn:li:dataPlatform:{p},db.users,PROD)`\n\nParts are filled in at run time, so it is not looked up.',
    );
    const unreachable = fakeResolution({ answers: { [USERS]: failed('connection refused') } }).cached(DEFAULT_SETTINGS);
    const h = hoverText(`x = "${USERS.replace('db.users', 'db.us‸ers')}"`, 'python', { resolved: unreachable }) ?? '';
    assert.match(
      h,
      /^\*\*Dataset\*\* `db\.users` · hive · PROD\n\nplatform: `hive` · name: `db\.users` · env: `PROD`\n\n⚠ connection refused — \S/,
    );
  });
});
