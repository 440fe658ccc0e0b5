/**
 * The looked-up-only kinds (model/src/kinds.ts `view`: users, groups, tags, glossary terms and
 * nodes, domains, containers, flows, jobs, charts, dashboards, data products, platforms) through
 * the real server process against the real local catalog with the sample data, in both modes:
 * each hovers with the catalog's name beside its id, a never-written one is an `unknown-urn`
 * Warning, a deprecated one names its replacement with a quick fix, and a typo gets near names
 * of its own kind.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { SAMPLE } from '../../catalog/src/sample';
import { applyEdits } from '../support/textEdits';
import { hoverText, positionOf } from '../support/lspClient';
import { COMPAT_MODES, useSampleServer } from '../support/fixture';

const textOf = (m: Diagnostic['message']): string => (typeof m === 'string' ? m : m.value);

/** Each kind's sample URN, a word to hover on, and what its hover says (title, then lines). */
const HOVERS: Array<{ kind: string; urn: string; at: string; expect: RegExp[] }> = [
  {
    kind: 'corpuser',
    urn: SAMPLE.people.alice,
    at: 'asmith',
    expect: [
      /^\*\*User\*\* Alice Smith · `asmith`/,
      /Title: Data Engineer · Email: asmith@example\.com · Teams: Data Platform/,
    ],
  },
  {
    kind: 'corpGroup',
    urn: SAMPLE.people.group,
    at: 'data-platform',
    expect: [
      /^\*\*Group\*\* Data Platform · `data-platform`/,
      /Runs the warehouse and the pipelines that feed it\./,
      /Email: data-platform@example\.com/,
    ],
  },
  {
    kind: 'tag',
    urn: SAMPLE.tags.gdpr,
    at: 'gdpr',
    expect: [/^\*\*Tag\*\* GDPR · `gdpr`/, /Personal data of EU residents\./, /Colour: \\?#d4380d/],
  },
  {
    kind: 'glossaryTerm',
    urn: SAMPLE.glossary.sensitive,
    at: 'Sensitive',
    expect: [
      /^\*\*Glossary term\*\* Sensitive Data · `Classification\.Sensitive`/,
      /Data that must be masked outside the warehouse\./,
      /Parent nodes: Classification/,
    ],
  },
  {
    kind: 'glossaryNode',
    urn: SAMPLE.glossary.node,
    at: 'Classification',
    expect: [/^\*\*Term group\*\* `Classification`/, /How sensitive a piece of data is\./],
  },
  {
    kind: 'domain',
    urn: SAMPLE.domain,
    at: '7f3c9a52',
    expect: [
      /^\*\*Domain\*\* Marketing · `7f3c9a52-1b7e-4c1d-9d7a-2f8e5b6c4a10`/,
      /Campaigns, attribution and revenue reporting\./,
    ],
  },
  {
    kind: 'container',
    urn: SAMPLE.container,
    at: '25384e01',
    expect: [
      /^\*\*Container\*\* analytics · `25384e01fcde1063114925e9661766e7`/,
      /The analytics database\./,
      /Type: Database · Platform: snowflake/,
      /Owners Alice Smith/,
    ],
  },
  {
    kind: 'dataFlow',
    urn: SAMPLE.flow,
    at: 'daily_revenue',
    expect: [
      /^\*\*Data flow\*\* Daily revenue · `daily_revenue`/,
      /Loads the revenue table every night\./,
      /Orchestrator: airflow · Cluster: PROD/,
      /Owners Data Platform/,
    ],
  },
  {
    kind: 'dataJob',
    urn: SAMPLE.jobs.load,
    at: 'load_revenue',
    expect: [
      /^\*\*Data job\*\* Load revenue · `load_revenue`/,
      /Sums the day of orders into revenue\./,
      /Flow: Daily revenue · Orchestrator: airflow/,
    ],
  },
  {
    kind: 'chart',
    urn: SAMPLE.chart,
    at: 'revenue_by_day',
    expect: [/^\*\*Chart\*\* Revenue by day · `revenue_by_day`/, /Daily revenue, last 90 days\./, /Tool: looker/],
  },
  {
    kind: 'dashboard',
    urn: SAMPLE.dashboard,
    at: 'revenue_overview',
    expect: [
      /^\*\*Dashboard\*\* Revenue overview · `revenue_overview`/,
      /Revenue for the marketing team\./,
      /Tool: looker/,
    ],
  },
  {
    kind: 'dataProduct',
    urn: SAMPLE.dataProduct,
    at: 'revenue-reporting',
    expect: [
      /^\*\*Data product\*\* Revenue reporting · `revenue-reporting`/,
      /The revenue table and the dashboard on it\./,
      /Domain: Marketing · Assets: 2/,
    ],
  },
  {
    kind: 'dataPlatform',
    urn: SAMPLE.platforms.airflow,
    at: 'airflow',
    expect: [/^\*\*Data platform\*\* Airflow · `airflow`/, /Type: OTHERS/],
  },
  {
    kind: 'mlPrimaryKey',
    urn: SAMPLE.primaryKey,
    at: 'user_id',
    expect: [/^\*\*Primary key\*\* `user_id`/, /The id of a user\./, /Feature table: users\\_table · Type: ORDINAL/],
  },
  {
    kind: 'query',
    urn: SAMPLE.query,
    at: 'revenue-by-day',
    expect: [
      /^\*\*Query\*\* Revenue by day · `revenue-by-day`/,
      /Statement: SELECT day, sum\(amount\) FROM db\.orders GROUP BY day/,
    ],
  },
];

/** A never-written URN of each kind, and how its Warning names it. */
const GHOSTS: Array<[string, string]> = [
  ['urn:li:corpuser:nobody', 'User nobody'],
  ['urn:li:corpGroup:nobody', 'Group nobody'],
  ['urn:li:tag:nothing', 'Tag nothing'],
  ['urn:li:glossaryTerm:Nope.Nothing', 'Glossary term Nope.Nothing'],
  ['urn:li:glossaryNode:Nowhere', 'Term group Nowhere'],
  ['urn:li:domain:00000000-0000-0000-0000-000000000000', 'Domain 00000000-0000-0000-0000-000000000000'],
  ['urn:li:container:ffffffffffffffffffffffffffffffff', 'Container ffffffffffffffffffffffffffffffff'],
  ['urn:li:dataFlow:(airflow,no_flow,PROD)', 'Data flow no_flow'],
  ['urn:li:dataJob:(urn:li:dataFlow:(airflow,no_flow,PROD),no_job)', 'Data job no_job'],
  ['urn:li:chart:(looker,no_chart)', 'Chart no_chart'],
  ['urn:li:dashboard:(looker,no_dashboard)', 'Dashboard no_dashboard'],
  ['urn:li:dataProduct:no-product', 'Data product no-product'],
  ['urn:li:dataPlatform:noplatform', 'Data platform noplatform'],
  ['urn:li:mlPrimaryKey:(users_table,no_key)', 'Primary key no_key'],
  ['urn:li:query:no-query', 'Query no-query'],
];

for (const compat of COMPAT_MODES)
  describe(`every looked-up kind (${compat} catalog)`, () => {
    const env = useSampleServer({}, compat);

    test('each kind hovers with the catalog name beside its id, its text and what else the catalog knows', async () => {
      const text = HOVERS.map((h, i) => `K${i} = "${h.urn}"`).join('\n') + '\n';
      const uri = 'file:///w/kinds.py';
      await env.lsp.open(uri, 'python', text);
      for (const h of HOVERS) {
        const line = text.split('\n').findIndex((l) => l.includes(`"${h.urn}"`));
        const lineText = text.split('\n')[line]!;
        const hover = hoverText(await env.lsp.hover(uri, { line, character: lineText.lastIndexOf(h.at) + 1 }));
        for (const re of h.expect) assert.match(hover, re, `${h.kind}: ${hover}`);
        assert.doesNotMatch(hover, /Not in the catalog/, h.kind);
      }
      // Nothing here is unknown: every sample URN of these kinds exists.
      const ds = await env.lsp.diagnostics(uri, () => true);
      assert.deepEqual(
        ds.filter((d) => d.code === 'unknown-urn').map((d) => textOf(d.message)),
        [],
      );
    });

    test("the platform in a dataset's key hovers as the platform the catalog holds (no display name: its id)", async () => {
      const text = 'x = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)"\n';
      await env.lsp.open('file:///w/nested.py', 'python', text);
      const h = hoverText(await env.lsp.hover('file:///w/nested.py', positionOf(text, 'hive', 1)));
      assert.match(h, /^\*\*Data platform\*\* `hive`\n\nType: FILE\\_SYSTEM/);
      assert.doesNotMatch(h, /Not in the catalog/);
    });

    test('a never-written URN of each kind is an unknown-urn Warning naming its kind', async () => {
      const text = GHOSTS.map(([urn], i) => `G${i} = "${urn}"`).join('\n') + '\n';
      const uri = 'file:///w/ghosts.py';
      await env.lsp.open(uri, 'python', text);
      const ds = await env.lsp.diagnostics(
        uri,
        (all) => all.filter((d) => d.code === 'unknown-urn').length === GHOSTS.length,
      );
      for (const [urn, label] of GHOSTS) {
        const d = ds.find((x) => x.code === 'unknown-urn' && (x.data as { urn?: string }).urn === urn);
        assert.ok(d, `${urn} is unknown`);
        assert.equal(d.severity, 2);
        assert.ok(textOf(d.message).startsWith(`${label} is not in the catalog`), textOf(d.message));
      }
    });

    for (const [name, urn, message, replaced] of [
      [
        'a glossary term',
        SAMPLE.glossary.secret,
        'Glossary term Secret is deprecated: Merged into Sensitive Data. Use Classification.Sensitive instead.',
        SAMPLE.glossary.sensitive,
      ],
      [
        'a data job',
        SAMPLE.jobs.loadV1,
        'Data job Load revenue (v1) is deprecated: Use load_revenue. Use load_revenue instead.',
        SAMPLE.jobs.load,
      ],
    ] as const)
      test(`a deprecated ${name.replace(/^an? /, '')}: the Warning names its replacement and the quick fix writes it`, async () => {
        const uri = `file:///w/deprecated-${name.replace(/\W/g, '')}.py`;
        const text = `x = "${urn}"\n`;
        await env.lsp.open(uri, 'python', text);
        const ds = await env.lsp.diagnostics(uri, (all) => all.some((d) => d.code === 'deprecated-urn'));
        const d = ds.find((x) => x.code === 'deprecated-urn')!;
        assert.equal(textOf(d.message), message);
        assert.equal(d.severity, 2);
        const fixes = (await env.lsp.codeActions(uri, d.range, [d])).filter((a) => a.title.startsWith('Replace with'));
        assert.equal(fixes.length, 1, JSON.stringify(fixes.map((f) => f.title)));
        assert.equal(applyEdits(text, fixes[0]!.edit!.changes![uri]!), `x = "${replaced}"\n`);
        // The hover says it once more only where no diagnostic does: here the Warning says it.
        const hover = hoverText(await env.lsp.hover(uri, positionOf(text, urn.slice(-6))));
        assert.match(hover, /^\*\*(Glossary term|Data job)\*\*/);
      });

    test('a tag typo: "Did you mean gdpr?" from a search filtered to tags, and the fix writes it', async () => {
      const uri = 'file:///w/tag-typo.py';
      const text = 'x = "urn:li:tag:gdrp"\n';
      await env.lsp.open(uri, 'python', text);
      const ds = await env.lsp.diagnostics(uri, (all) =>
        all.some((d) => d.code === 'unknown-urn' && /Did you mean/.test(textOf(d.message))),
      );
      const d = ds.find((x) => x.code === 'unknown-urn')!;
      assert.equal(textOf(d.message), 'Tag gdrp is not in the catalog. Did you mean gdpr?');
      const fixes = (await env.lsp.codeActions(uri, d.range, [d])).filter((a) => a.title.startsWith('Replace with'));
      assert.ok(fixes.length >= 1, JSON.stringify(fixes.map((f) => f.title)));
      assert.equal(applyEdits(text, fixes[0]!.edit!.changes![uri]!), 'x = "urn:li:tag:gdpr"\n');
    });
  });
