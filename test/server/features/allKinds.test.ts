/**
 * The looked-up-only kinds in process (model/src/kinds.ts `view`): what the hover asks, its title
 * (the catalog's name beside the id where they differ), text and facts per kind, and the
 * diagnostics (unknown, deprecated with its replacement, no description checks) for what a
 * stand-in catalog answered. The spawned server's are test/server/allKinds.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../../model/src/protocol';
import { diagnosticsFor } from '../../../server/src/features/diagnostics';
import { hoverAt, hoverLookupAt } from '../../../server/src/features/hover';
import { resolvableItems } from '../../../server/src/resolution/resolve';
import { renderedActive } from '../../reliability/support/inert';
import { scanned } from './support/document';
import { fakeResolution, viewEntity, type CatalogTable } from './support/fakeResolution';

const USER = 'urn:li:corpuser:jdoe';
const PLAIN_USER = 'urn:li:corpuser:nameless';
const GROUP = 'urn:svc:corpGroup:data-eng';
const TAG = 'urn:li:tag:pii';
const TERM = 'urn:li:glossaryTerm:Classification.Sensitive';
const OLD_TERM = 'urn:li:glossaryTerm:Classification.Secret';
const NODE = 'urn:li:glossaryNode:Classification';
const DOMAIN = 'urn:li:domain:7f3c9a52-1b7e-4c1d-9d7a-2f8e5b6c4a10';
const CONTAINER = 'urn:li:container:25384e01fcde1063114925e9661766e7';
const FLOW = 'urn:li:dataFlow:(airflow,daily_etl,PROD)';
const JOB = `urn:li:dataJob:(${FLOW},load_users)`;
const CHART = 'urn:li:chart:(looker,chart_1)';
const DASHBOARD = 'urn:li:dashboard:(looker,dash_1)';
const PRODUCT = 'urn:li:dataProduct:revenue';
const PLATFORM = 'urn:li:dataPlatform:airflow';
const GHOST_TAG = 'urn:li:tag:ghost';

const CATALOG: CatalogTable = {
  answers: {
    [USER]: viewEntity('corpuser', USER, {
      username: 'jdoe',
      properties: { displayName: 'John Doe', fullName: null, title: 'Engineer', email: 'jdoe@example.com' },
      editableProperties: { displayName: null, title: 'Staff Engineer', email: null, teams: ['Growth', 'Data'] },
    }),
    [PLAIN_USER]: viewEntity('corpuser', PLAIN_USER, {
      username: 'nameless',
      properties: null,
      editableProperties: null,
    }),
    [GROUP]: viewEntity('corpGroup', GROUP, {
      name: 'data-eng',
      properties: { displayName: 'Data Engineering', description: 'Builds pipelines.', email: null },
      editableProperties: { description: 'Owns the warehouse.', email: 'de@example.com' },
    }),
    [TAG]: viewEntity('tag', TAG, { properties: { name: 'PII', description: 'Personal data.', colorHex: '#ff0000' } }),
    [TERM]: viewEntity('glossaryTerm', TERM, {
      properties: { name: 'Sensitive Data', description: 'Masked outside the warehouse.' },
      parentNodes: { nodes: [{ urn: NODE, properties: { name: 'Classification' } }] },
    }),
    [OLD_TERM]: viewEntity(
      'glossaryTerm',
      OLD_TERM,
      { properties: { name: 'Secret', description: 'Old.' }, parentNodes: { nodes: [] } },
      { deprecated: true, note: 'Merged into Sensitive Data.', replacement: { urn: TERM } },
    ),
    [NODE]: viewEntity('glossaryNode', NODE, { properties: { name: 'Classification', description: null } }),
    [DOMAIN]: viewEntity('domain', DOMAIN, { properties: { name: 'Marketing', description: null } }),
    [CONTAINER]: viewEntity('container', CONTAINER, {
      properties: { name: 'analytics', description: 'The analytics database.' },
      editableProperties: null,
      subTypes: { typeNames: ['Database'] },
      dataPlatformInstance: {
        platform: { urn: 'urn:li:dataPlatform:snowflake', name: 'snowflake', properties: { displayName: 'Snowflake' } },
      },
      parentContainers: { containers: [] },
    }),
    [FLOW]: viewEntity('dataFlow', FLOW, {
      orchestrator: 'airflow',
      flowId: 'daily_etl',
      cluster: 'PROD',
      properties: { name: 'daily_etl', description: null },
    }),
    [JOB]: viewEntity('dataJob', JOB, {
      jobId: 'load_users',
      dataFlow: { urn: FLOW, orchestrator: 'airflow', flowId: 'daily_etl', properties: { name: 'Daily ETL' } },
      properties: { name: 'Load users', description: 'Copies users.' },
      editableProperties: { description: 'Copies users nightly.' },
    }),
    [CHART]: viewEntity('chart', CHART, {
      tool: 'looker',
      chartId: 'chart_1',
      properties: { name: 'Revenue', description: null },
    }),
    [DASHBOARD]: viewEntity('dashboard', DASHBOARD, {
      tool: 'looker',
      dashboardId: 'dash_1',
      properties: { name: 'Overview', description: 'All of it.' },
    }),
    [PRODUCT]: viewEntity('dataProduct', PRODUCT, {
      properties: { name: 'Revenue reporting', description: null, numAssets: 3 },
      domain: { domain: { urn: DOMAIN, properties: { name: 'Marketing' } } },
    }),
    [PLATFORM]: viewEntity('dataPlatform', PLATFORM, {
      name: 'airflow',
      properties: { displayName: 'Airflow', type: 'OTHERS' },
    }),
  },
  suggestions: { [GHOST_TAG]: [TAG] },
};
const answers = fakeResolution(CATALOG).cached(DEFAULT_SETTINGS);

function hover(urn: string, at: string): string {
  const line = `x = "${urn}"\n`;
  const i = line.lastIndexOf(at) + 1;
  const s = scanned(`${line.slice(0, i)}‸${line.slice(i)}`, 'python');
  return hoverAt(s.scan, s.offset, DEFAULT_SETTINGS, answers)?.markdown ?? '';
}

describe('the looked-up-only kinds: what is asked', () => {
  test('each kind is asked as itself; a platform or flow nested in a URN is not looked up with the document', () => {
    const at = (marked: string) => {
      const s = scanned(marked, 'python');
      return hoverLookupAt(s.scan, s.offset);
    };
    assert.deepEqual(at(`x = "urn:li:tag:p‸ii"`), { urn: TAG, kind: 'tag' });
    assert.deepEqual(at(`x = "${JOB.replace('load_users', 'load_‸users')}"`), { urn: JOB, kind: 'dataJob' });
    // The flow inside the job's key is hovered as a flow.
    assert.deepEqual(at(`x = "${JOB.replace('daily_etl', 'daily_‸etl')}"`), { urn: FLOW, kind: 'dataFlow' });
    const s = scanned(`x = "${JOB}"\ny = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)"\n`, 'python');
    assert.deepEqual(
      resolvableItems([s.scan]).map((i) => i.kind),
      ['dataJob', 'dataset'],
    );
  });
});

describe('the looked-up-only kinds: hover text', () => {
  test('a user: the edited display name over the ingested one, the id beside it, title, email and teams', () => {
    const h = hover(USER, 'jdoe');
    assert.match(h, /^\*\*User\*\* John Doe · `jdoe`\n\n/);
    assert.match(h, /Title: Staff Engineer · Email: jdoe@example\.com · Teams: Growth, Data/);
  });

  test('a user without properties: the id alone, nothing made up', () => {
    assert.equal(hover(PLAIN_USER, 'nameless'), '**User** `nameless`');
  });

  test('a group in the svc namespace: its name, the edited description over the ingested one', () => {
    const h = hover(GROUP, 'data-eng');
    assert.match(h, /^\*\*Group\*\* Data Engineering · `data-eng`/);
    assert.match(h, /Owns the warehouse\./);
    assert.doesNotMatch(h, /Builds pipelines/);
    assert.match(h, /Email: de@example\.com/);
  });

  test('a tag, a term with its parent node, a node whose name is its id', () => {
    assert.match(hover(TAG, 'pii'), /^\*\*Tag\*\* PII · `pii`\n\nPersonal data\.\n\nColour: \\#ff0000$/);
    const term = hover(TERM, 'Sensitive');
    assert.match(term, /^\*\*Glossary term\*\* Sensitive Data · `Classification\.Sensitive`/);
    assert.match(term, /Masked outside the warehouse\.\n\nParent nodes: Classification/);
    assert.equal(hover(NODE, 'Classification'), '**Term group** `Classification`');
  });

  test('a GUID domain and a hashed container: the name, the id beside it; the container type and platform', () => {
    assert.equal(hover(DOMAIN, '7f3c'), '**Domain** Marketing · `7f3c9a52-1b7e-4c1d-9d7a-2f8e5b6c4a10`');
    const c = hover(CONTAINER, '2538');
    assert.match(c, /^\*\*Container\*\* analytics · `25384e01fcde1063114925e9661766e7`/);
    assert.match(c, /Type: Database · Platform: Snowflake/);
  });

  test('a flow named as its id shows the id alone; a job shows its flow and orchestrator', () => {
    const f = hover(FLOW, 'daily_etl');
    assert.match(f, /^\*\*Data flow\*\* `daily_etl`\n\nOrchestrator: airflow · Cluster: PROD$/);
    const j = hover(JOB, 'load_users');
    assert.match(j, /^\*\*Data job\*\* Load users · `load_users`/);
    assert.match(j, /Copies users nightly\./);
    assert.match(j, /Flow: Daily ETL · Orchestrator: airflow/);
  });

  test('a chart, a dashboard, a data product and a platform', () => {
    assert.equal(hover(CHART, 'chart_1'), '**Chart** Revenue · `chart_1`\n\nTool: looker');
    assert.match(hover(DASHBOARD, 'dash_1'), /^\*\*Dashboard\*\* Overview · `dash_1`\n\nAll of it\.\n\nTool: looker$/);
    assert.match(hover(PRODUCT, 'revenue'), /Domain: Marketing · Assets: 3/);
    assert.equal(hover(PLATFORM, 'airflow'), '**Data platform** Airflow · `airflow`\n\nType: OTHERS');
  });

  test("a list asked one page at a time counts beyond the page from its total: a dashboard's charts", () => {
    const BIG = 'urn:li:dashboard:(looker,big)';
    const page = Array.from({ length: 10 }, (_, i) => ({
      entity: { urn: `urn:li:chart:(looker,c${i})`, properties: { name: `Chart ${i}` } },
    }));
    const big = fakeResolution({
      answers: {
        [BIG]: viewEntity('dashboard', BIG, {
          tool: 'looker',
          dashboardId: 'big',
          properties: { name: 'Big', description: null },
          charts: { total: 40, relationships: page },
        }),
      },
    }).cached(DEFAULT_SETTINGS);
    const line = `x = "${BIG}"\n`;
    const s = scanned(`${line.slice(0, line.indexOf('big') + 1)}‸${line.slice(line.indexOf('big') + 1)}`, 'python');
    const h = hoverAt(s.scan, s.offset, DEFAULT_SETTINGS, big)?.markdown ?? '';
    assert.match(h, /Tool: looker · Charts: Chart 0, Chart 1, Chart 2, Chart 3, Chart 4 \+35$/);
  });

  test('a kind the catalog lacks: its parts and "Not in the catalog"', () => {
    const h = hover(GHOST_TAG, 'ghost');
    assert.match(h, /^\*\*Tag\*\* `ghost`/);
  });
});

describe('the looked-up-only kinds: diagnostics', () => {
  test('unknown with its near names, deprecated with its replacement, and no description checks', () => {
    const text = [`a = "${GHOST_TAG}"`, `b = "${OLD_TERM}"`, `c = "${FLOW}"`, `d = "${PLAIN_USER}"`, ''].join('\n');
    const s = scanned(text, 'python');
    const ds = diagnosticsFor(s.scan, answers, DEFAULT_SETTINGS.diagnostics, (urn) => CATALOG.suggestions?.[urn]);
    assert.deepEqual(
      ds.map((d) => [d.code, d.severity, d.message]),
      [
        ['unknown-urn', 'warning', 'Tag ghost is not in the catalog. Did you mean pii?'],
        [
          'deprecated-urn',
          'warning',
          'Glossary term Secret is deprecated: Merged into Sensitive Data. Use Classification.Sensitive instead.',
        ],
      ],
    );
    assert.deepEqual(ds[0]!.data, { code: 'unknown-urn', urn: GHOST_TAG, kind: 'other', suggestions: [TAG] });
    assert.deepEqual(ds[1]!.data, { code: 'deprecated-urn', urn: OLD_TERM, kind: 'other', replacement: TERM });
  });
});

describe('the looked-up-only kinds: catalog text stays text', () => {
  const HOSTILE_TAG = 'urn:li:tag:hostile';
  const HOSTILE_DOMAIN = 'urn:li:domain:0b5e1f7a-hostile';
  const hostile: CatalogTable = {
    answers: {
      [HOSTILE_TAG]: viewEntity('tag', HOSTILE_TAG, {
        properties: {
          name: '[quit](command:workbench.action.quit) <img src=x onerror=alert(1)>',
          description: '[docs][1]\n\n[1]: command:workbench.action.quit\n<a href="file:///etc/passwd">passwd</a>',
          colorHex: '[c](file:///etc/passwd)',
        },
      }),
      [HOSTILE_DOMAIN]: viewEntity('domain', HOSTILE_DOMAIN, {
        properties: { name: '**bold** `code` ](command:x)', description: null },
      }),
    },
  };
  const hostileAnswers = fakeResolution(hostile).cached(DEFAULT_SETTINGS);
  const hoverOf = (urn: string, at: string): string => {
    const line = `x = "${urn}"\n`;
    const i = line.lastIndexOf(at) + 1;
    const s = scanned(`${line.slice(0, i)}‸${line.slice(i)}`, 'python');
    return hoverAt(s.scan, s.offset, DEFAULT_SETTINGS, hostileAnswers)?.markdown ?? '';
  };

  test('a name, description or fact holding links, HTML or Markdown renders no live link and no HTML', () => {
    for (const [urn, at] of [
      [HOSTILE_TAG, 'hostile'],
      [HOSTILE_DOMAIN, 'hostile'],
    ] as const) {
      const md = hoverOf(urn, at);
      assert.notEqual(md, '', urn);
      assert.deepEqual(renderedActive(md), [], `${urn}:\n${md}`);
    }
    assert.match(hoverOf(HOSTILE_TAG, 'hostile'), /quit/, 'the name is shown, as text');
  });
});
