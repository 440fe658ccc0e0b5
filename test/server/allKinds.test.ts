/**
 * The looked-up-only kinds (model/src/kinds.ts `view`: users, groups, tags, glossary terms and
 * nodes, domains, containers, flows, jobs, charts, dashboards, data products, platforms and every
 * kind after them) through the real server process against the real local catalog with the sample
 * data and test/support/moreKinds.ts, in both modes:
 * each hovers with the catalog's name beside its id, a never-written one is an `unknown-urn`
 * Warning, a deprecated one names its replacement with a quick fix, and a typo gets near names
 * of its own kind.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { SAMPLE } from '../../catalog/src/sample';
import { applyEdits } from '../support/textEdits';
import { hoverText, positionOf } from '../support/lspClient';
import { COMPAT_MODES, useSampleServer } from '../support/fixture';
import { MORE, writeMoreKinds } from '../support/moreKinds';

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
      /Email: data-platform@example\.com · Members: 2/,
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
      /In: Business/,
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
      /Flow: Daily revenue · Orchestrator: airflow · Inputs: db\.orders · Outputs: analytics\.public\.revenue/,
    ],
  },
  {
    kind: 'chart',
    urn: SAMPLE.chart,
    at: 'revenue_by_day',
    expect: [
      /^\*\*Chart\*\* Revenue by day · `revenue_by_day`/,
      /Daily revenue, last 90 days\./,
      /Tool: looker · Inputs: analytics\.public\.revenue/,
    ],
  },
  {
    kind: 'dashboard',
    urn: SAMPLE.dashboard,
    at: 'revenue_overview',
    expect: [
      /^\*\*Dashboard\*\* Revenue overview · `revenue_overview`/,
      /Revenue for the marketing team\./,
      /Tool: looker · Charts: Revenue by day/,
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
  {
    kind: 'dataPlatformInstance',
    urn: MORE.platformInstance,
    at: 'eu_prod',
    expect: [
      /^\*\*Platform instance\*\* Snowflake EU · `eu_prod`/,
      /The EU production account\./,
      /Platform: snowflake/,
    ],
  },
  {
    kind: 'dataProcessInstance',
    urn: MORE.run,
    at: '5e9f0b7d',
    expect: [
      /^\*\*Run\*\* load\\_revenue 2025-01-01 · `5e9f0b7d3c2a41e8a6b4c1d2e3f40516`/,
      /Last state: FAILURE · Of: Load revenue/,
    ],
  },
  {
    kind: 'structuredProperty',
    urn: SAMPLE.structuredProperty,
    at: 'retentionTime',
    expect: [
      /^\*\*Structured property\*\* Retention time · `io\.acryl\.privacy\.retentionTime`/,
      /How many days the data is kept\./,
      /Type: NUMBER · Cardinality: SINGLE · Allowed values: 30, 90, 365/,
    ],
  },
  {
    kind: 'assertion',
    urn: SAMPLE.assertion,
    at: '4c6a0a2f',
    expect: [
      /^\*\*Assertion\*\* Revenue is never negative · `4c6a0a2f9d1e4b7c8e3f5a6b7c8d9e0f`/,
      /Type: DATASET · Last result: SUCCESS/,
    ],
  },
  {
    kind: 'incident',
    urn: MORE.incident,
    at: '8d1c7f4e',
    expect: [
      /^\*\*Incident\*\* Revenue is a day late · `8d1c7f4e-2b3a-4c5d-9e6f-0a1b2c3d4e5f`/,
      /The nightly load did not run\./,
      /Type: FRESHNESS · Status: ACTIVE · Stage: INVESTIGATION · Priority: HIGH/,
    ],
  },
  {
    kind: 'notebook',
    urn: MORE.notebook,
    at: '773',
    expect: [/^\*\*Notebook\*\* Revenue deep dive · `773`/, /Where the revenue comes from\./, /Tool: querybook/],
  },
  {
    kind: 'ownershipType',
    urn: SAMPLE.ownershipType,
    at: 'steward',
    expect: [/^\*\*Ownership type\*\* Data Steward · `steward`/, /Answers for the meaning and quality of the data\./],
  },
  {
    kind: 'application',
    urn: MORE.application,
    at: 'revenue-app',
    expect: [/^\*\*Application\*\* Revenue app · `revenue-app`/, /The service that books revenue\./, /Assets: 1/],
  },
  {
    kind: 'form',
    urn: MORE.form,
    at: 'quarterly',
    expect: [
      /^\*\*Form\*\* Quarterly certification · `quarterly-certification`/,
      /Owners confirm the description\./,
      /Type: VERIFICATION/,
    ],
  },
  {
    kind: 'businessAttribute',
    urn: MORE.businessAttribute,
    at: 'customer_email',
    expect: [
      /^\*\*Business attribute\*\* Customer email · `customer_email`/,
      /An email address of a customer\./,
      /Type: STRING/,
    ],
  },
  {
    kind: 'dataContract',
    urn: MORE.dataContract,
    at: 'revenue-contract',
    // A data contract has no name: its id, its state and the dataset it is about.
    expect: [/^\*\*Data contract\*\* `revenue-contract`/, /State: ACTIVE · Dataset: urn:li:dataset:/],
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
  ['urn:li:dataPlatformInstance:(urn:li:dataPlatform:snowflake,no_instance)', 'Platform instance no_instance'],
  ['urn:li:dataProcessInstance:no-run', 'Run no-run'],
  ['urn:li:structuredProperty:io.acryl.nothing', 'Structured property io.acryl.nothing'],
  ['urn:li:assertion:no-assertion', 'Assertion no-assertion'],
  ['urn:li:incident:no-incident', 'Incident no-incident'],
  ['urn:li:notebook:(querybook,no_notebook)', 'Notebook no_notebook'],
  ['urn:li:ownershipType:no-type', 'Ownership type no-type'],
  ['urn:li:application:no-app', 'Application no-app'],
  ['urn:li:form:no-form', 'Form no-form'],
  ['urn:li:businessAttribute:no_attribute', 'Business attribute no_attribute'],
  ['urn:li:dataContract:no-contract', 'Data contract no-contract'],
];

for (const compat of COMPAT_MODES)
  describe(`every looked-up kind (${compat} catalog)`, () => {
    const env = useSampleServer({}, compat);
    before(() => writeMoreKinds(env.catalog.url));

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
      [
        'a platform instance',
        MORE.oldPlatformInstance,
        'Platform instance Snowflake EU (legacy) is deprecated: Moved to eu_prod. Use eu_prod instead.',
        MORE.platformInstance,
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
        assert.match(hover, /^\*\*(Glossary term|Data job|Platform instance)\*\*/);
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

    for (const [typo, message, fixed] of [
      [
        'urn:li:ownershipType:stewrd',
        'Ownership type stewrd is not in the catalog. Did you mean steward?',
        SAMPLE.ownershipType,
      ],
      [
        'urn:li:structuredProperty:io.acryl.privacy.retentionTme',
        'Structured property io.acryl.privacy.retentionTme is not in the catalog. Did you mean io.acryl.privacy.retentionTime?',
        SAMPLE.structuredProperty,
      ],
      [
        'urn:li:businessAttribute:customer_emial',
        'Business attribute customer_emial is not in the catalog. Did you mean customer_email?',
        MORE.businessAttribute,
      ],
      [
        'urn:li:application:revenue-ap',
        'Application revenue-ap is not in the catalog. Did you mean revenue-app?',
        MORE.application,
      ],
    ] as const)
      test(`a typo of a newer kind (${typo.split(':')[2]}): did-you-mean from a search filtered to its kind, and the fix writes it`, async () => {
        const uri = `file:///w/typo-${typo.split(':')[2]}.py`;
        const text = `x = "${typo}"\n`;
        await env.lsp.open(uri, 'python', text);
        const ds = await env.lsp.diagnostics(uri, (all) =>
          all.some((d) => d.code === 'unknown-urn' && /Did you mean/.test(textOf(d.message))),
        );
        const d = ds.find((x) => x.code === 'unknown-urn')!;
        assert.equal(textOf(d.message), message);
        const fixes = (await env.lsp.codeActions(uri, d.range, [d])).filter((a) => a.title.startsWith('Replace with'));
        assert.ok(fixes.length >= 1, JSON.stringify(fixes.map((f) => f.title)));
        assert.equal(applyEdits(text, fixes[0]!.edit!.changes![uri]!), `x = "${fixed}"\n`);
      });
  });
