/**
 * Completion of real names, through the real server process against the real
 * local catalog's search (sample data), both modes: inside URN literals (after the platform, after
 * the feature table), builder calls' arguments, URN classes, SDK v2 constructors, Java's URN
 * classes and YAML values. Each item, applied, gives a URN the catalog holds; the description is
 * in the item's documentation; items are filtered by what is typed and by the platform.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CompletionItem, CompletionList, TextEdit } from 'vscode-languageserver-protocol';
import { namedItems, nameSlotAt } from '../../server/src/features/completeNames';
import { applyEdits } from '../support/textEdits';
import { caret } from '../support/lspClient';
import { COMPAT_MODES, useSampleServer } from '../support/fixture';
import { SAMPLE } from '../../catalog/src/sample';
import { isViewKind, VIEW_KINDS } from '../../model/src/kinds';
import { entityTypeOf, parseUrn } from '../../model/src/urn';

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';

describe('name slots (pure)', () => {
  const slot = (marked: string, ns = ['li', 'svc']) => {
    const { text, offset } = caret(marked);
    return nameSlotAt(text, offset, ns, 'python');
  };
  test('a URN literal after its platform: a dataset of hive, the rest of the URN replaced too', () => {
    const s = slot('x = "urn:li:dataset:(urn:li:dataPlatform:hive,db.us|ers,PROD)"');
    assert.deepEqual(
      { kind: s?.kind, typed: s?.typed, platform: s?.platform, insert: s?.insert, from: s?.from, to: s?.to },
      { kind: 'dataset', typed: 'db.us', platform: 'hive', insert: 'urn', from: 5, to: 60 },
    );
  });
  test('builder arguments by position and keyword; other arguments and calls are no slot', () => {
    assert.equal(slot('make_dataset_urn("hive", "us|")')?.platform, 'hive');
    assert.equal(slot('make_dataset_urn(platform="kafka", name="ev|")')?.platform, 'kafka');
    assert.equal(slot('make_dataset_urn(name="ev|", platform="kafka")')?.platform, undefined);
    assert.equal(slot('make_dataset_urn("hi|")'), undefined, 'the platform argument');
    assert.equal(slot('make_dataset_urn("hive", "db.users", "PR|")'), undefined, 'the env argument');
    assert.equal(slot('print("us|")'), undefined);
    assert.equal(slot('make_ml_feature_urn("users_table", "a|")')?.table, 'users_table');
    assert.equal(slot('Dataset(\n    platform="hive",\n    name="db.|",\n)')?.typed, 'db.');
    assert.equal(slot('DatasetUrn("urn:li:dataPlatform:hive", "d|")')?.platform, 'hive');
    assert.equal(slot('new DatasetUrn(new DataPlatformUrn("hive"), "db|", FabricType.PROD)')?.platform, 'hive');
    assert.equal(slot('make_dataset_urn(PLATFORM, "d|")')?.platform, undefined, 'a variable: any platform');
  });
  test("a looked-up-only kind's URN literal: the whole URN replaced, the query the id's last part", () => {
    const tag = slot('x = "urn:li:tag:pi|i"');
    assert.deepEqual(
      { kind: tag?.kind, typed: tag?.typed, lead: tag?.lead, from: tag?.from, to: tag?.to, insert: tag?.insert },
      { kind: 'tag', typed: 'pi', lead: 'urn:li:tag:', from: 5, to: 19, insert: 'urn' },
    );
    const job = slot('j = "urn:svc:dataJob:(urn:svc:dataFlow:(airflow,daily,PROD),lo|ad)"');
    assert.deepEqual([job?.kind, job?.typed, job?.ns, job?.to], ['dataJob', 'lo', 'svc', 65]);
    assert.equal(slot('f = "urn:li:dataFlow:(|"')?.typed, '');
    assert.equal(slot('f = "urn:li:dataFlow:(airflow,etl,PROD)|"'), undefined, 'a tuple already closed');
    assert.equal(slot('f = "urn:li:dataset:(urn:li:dataPlatform:|"'), undefined, 'the platform inside a dataset');
  });
  test("builders and URN classes of looked-up-only kinds: the argument's key field and the others as filters", () => {
    assert.equal(slot('make_tag_urn("p|")')?.kind, 'tag');
    const job = slot('make_data_job_urn("airflow", "daily", "lo|")');
    assert.deepEqual(
      [job?.kind, job?.field, job?.key],
      ['dataJob', 'jobId', { 'flow.orchestrator': 'airflow', 'flow.flowId': 'daily' }],
    );
    assert.equal(slot('make_data_job_urn("air|")'), undefined, 'the orchestrator argument');
    const flow = slot('DataFlowUrn("airflow", "da|", "PROD")');
    assert.deepEqual([flow?.kind, flow?.field, flow?.key], ['dataFlow', 'flowId', { orchestrator: 'airflow' }]);
    assert.equal(slot('DataJobUrn(DataFlowUrn("airflow", "d", "PROD"), "lo|")')?.field, 'jobId');
    assert.equal(slot('ChartUrn("looker", "r|")')?.key?.['dashboardTool'], 'looker');
    assert.equal(slot('toString("x|")'), undefined, "an Object.prototype member's name is no call");
    assert.equal(slot('new TagUrn("p|")')?.kind, 'tag', "Java's TagUrn");
    assert.equal(slot('new CorpuserUrn("j|")')?.kind, 'corpuser', "Java's CorpuserUrn");
    assert.deepEqual(slot('DataFlowUrn.create_from_ids(orchestrator="airflow", flow_id="d|")')?.key, {
      orchestrator: 'airflow',
    });
    assert.equal(slot('TagUrn.create_from_id("p|")')?.kind, 'tag');
    assert.deepEqual(slot('DataFlow(platform="airflow", name="d|")')?.key, { orchestrator: 'airflow' });
  });
  test('YAML values under owners, tags, glossary_terms and domain', () => {
    const yaml = (marked: string) => {
      const { text, offset } = caret(marked);
      return nameSlotAt(text, offset, ['li'], 'yaml');
    };
    assert.deepEqual(yaml('tags: [pii, go|]\n')?.kind, 'tag');
    assert.deepEqual(yaml('owners:\n  - jdoe\n  - as|\n')?.kinds, ['corpuser', 'corpGroup']);
    assert.deepEqual(yaml('owners:\n- id: as|\n  type: TECHNICAL_OWNER\n')?.kinds, ['corpuser', 'corpGroup']);
    assert.deepEqual(yaml('owners:\n  - type: DATAOWNER\n    id: bw|\n')?.typed, 'bw');
    assert.equal(yaml('glossary_terms:\n  - Sen|\n')?.kind, 'glossaryTerm');
    assert.equal(yaml('domain: "Mark|"\n')?.kind, 'domain');
    assert.equal(yaml('steps:\n  - na|\n'), undefined, 'another key');
    assert.equal(yaml('tags:\n  - urn:li:tag:p|\n')?.insert, 'urn', 'a URN value is a URN literal');
  });
});

describe('items of looked-up-only kinds (pure)', () => {
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const at = (marked: string, lang = 'python') => {
    const { text, offset } = caret(marked);
    return nameSlotAt(text, offset, ['li'], lang)!;
  };
  test('what the catalog sends is written only where the literal holds it as it is, and shown inert', () => {
    const refused: string[] = [];
    const items = namedItems(
      at('make_tag_urn("p|")'),
      [
        { urn: 'urn:li:tag:pii', kind: 'tag', displayName: 'PII [x](https://evil.example)\u200b' },
        { urn: 'urn:li:tag:a"b', kind: 'tag' },
        { urn: 'urn:li:corpuser:pat', kind: 'corpuser' },
      ],
      range,
      (urn) => refused.push(urn),
    );
    assert.deepEqual(
      items.map((i) => i.textEdit?.newText),
      ['pii'],
    );
    assert.ok(!/\u200b/.test(items[0]!.label), items[0]!.label);
    assert.deepEqual(refused, ['urn:li:tag:a"b', 'urn:li:corpuser:pat']);
  });
  test('owners: a user by its id, a group by its URN; a domain by its name, or its URN without one', () => {
    const owners = namedItems(
      at('owners:\n  - |\n', 'yaml'),
      [
        { urn: 'urn:li:corpuser:jdoe', kind: 'corpuser', displayName: 'Jane Doe' },
        { urn: 'urn:li:corpGroup:eng', kind: 'corpGroup' },
      ],
      range,
    );
    assert.deepEqual(
      owners.map((i) => [i.label, i.textEdit?.newText, i.filterText, i.detail]),
      [
        ['Jane Doe', 'jdoe', 'Jane Doe jdoe', 'User jdoe'],
        ['urn:li:corpGroup:eng', 'urn:li:corpGroup:eng', 'urn:li:corpGroup:eng', 'Group eng'],
      ],
    );
    const domains = namedItems(
      at('domain: |\n', 'yaml'),
      [
        { urn: 'urn:li:domain:0a1b', kind: 'domain', displayName: 'Finance' },
        { urn: 'urn:li:domain:9c8d', kind: 'domain' },
        // A name a plain scalar cannot hold: its URN instead.
        { urn: 'urn:li:domain:5e6f', kind: 'domain', displayName: 'R&D: Europe' },
      ],
      range,
    );
    assert.deepEqual(
      domains.map((i) => [i.label, i.textEdit?.newText]),
      [
        ['Finance', 'Finance'],
        ['urn:li:domain:9c8d', 'urn:li:domain:9c8d'],
        ['R&D: Europe', 'urn:li:domain:5e6f'],
      ],
    );
  });
});

/** The document with `item` applied at the caret, as the editor applies it. */
function applied(text: string, item: CompletionItem): string {
  return applyEdits(text, [item.textEdit as TextEdit]);
}

for (const compat of COMPAT_MODES)
  describe(`completion of real names (${compat} catalog)`, () => {
    const env = useSampleServer({}, compat);
    let n = 0;
    const complete = async (
      marked: string,
      lang = 'python',
    ): Promise<{ text: string; list: CompletionList; labels: string[] }> => {
      const { text, position } = caret(marked);
      const uri = `file:///w/complete-${n++}.${lang === 'yaml' ? 'yml' : lang === 'java' ? 'java' : 'py'}`;
      await env.lsp.open(uri, lang, text);
      const r = await env.lsp.connection.sendRequest<CompletionList | CompletionItem[] | null>(
        'textDocument/completion',
        { textDocument: { uri }, position },
      );
      const list = Array.isArray(r) ? { isIncomplete: false, items: r } : r!;
      return { text, list, labels: list.items.map((i) => i.label) };
    };

    test('in a URN literal after hive: the datasets of hive, best first; the item writes the whole URN', async () => {
      const { text, list, labels } = await complete('x = "urn:li:dataset:(urn:li:dataPlatform:hive,us|"\n');
      assert.deepEqual(labels, ['db.users', 'db.users_legacy']);
      assert.equal(list.isIncomplete, false);
      const users = list.items[0]!;
      assert.equal(applied(text, users), `x = "${USERS}"\n`);
      assert.match(JSON.stringify(users.documentation), /One row per registered user of the product\./);
      assert.equal(users.detail, 'hive dataset');
    });

    test('nothing typed yet: every dataset of that platform, none of another', async () => {
      const { labels } = await complete('x = "urn:li:dataset:(urn:li:dataPlatform:kafka,|"\n');
      assert.deepEqual(labels, ['events.clicks']);
    });

    test('the other namespace word: the item is spelled in it', async () => {
      const { text, list } = await complete('x = "urn:svc:dataset:(urn:svc:dataPlatform:hive,db.ord|,PROD)"\n');
      assert.deepEqual(
        list.items.map((i) => applied(text, i)),
        ['x = "urn:svc:dataset:(urn:svc:dataPlatform:hive,db.orders,PROD)"\n'],
      );
    });

    test('a feature after its table: features of that table only', async () => {
      const { text, list, labels } = await complete('f = "urn:li:mlFeature:(users_table,|"\n');
      assert.deepEqual(labels.sort(), ['age', 'country', 'signup_days']);
      assert.ok(list.items.every((i) => applied(text, i).startsWith('f = "urn:li:mlFeature:(users_table,')));
    });

    test('models and feature tables after their platform', async () => {
      assert.deepEqual((await complete('m = "urn:li:mlModel:(urn:li:dataPlatform:mlflow,ch|"\n')).labels, [
        'churn-model-v3',
      ]);
      assert.deepEqual((await complete('t = "urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,ord|"\n')).labels, [
        'orders_table',
      ]);
    });

    test("a builder call's name argument: the name alone, within its quotes", async () => {
      const { text, list, labels } = await complete('x = make_dataset_urn("hive", "db.o|")\n');
      assert.deepEqual(labels, ['db.orders']);
      assert.equal(applied(text, list.items[0]!), 'x = make_dataset_urn("hive", "db.orders")\n');
    });

    test('an SDK v2 constructor by keyword, and a URN class', async () => {
      const v2 = await complete('ds = Dataset(\n    platform="snowflake",\n    name="rev|",\n)\n');
      assert.deepEqual(v2.labels, ['analytics.public.revenue']);
      const cls = await complete('u = DatasetUrn("hive", "db.users_|", "PROD")\n');
      assert.deepEqual(cls.labels, ['db.users_legacy']);
      assert.equal(applied(cls.text, cls.list.items[0]!), 'u = DatasetUrn("hive", "db.users_legacy", "PROD")\n');
    });

    test("Java's URN class with its platform URN", async () => {
      const { labels } = await complete(
        'DatasetUrn u = new DatasetUrn(new DataPlatformUrn("kafka"), "ev|", FabricType.PROD);\n',
        'java',
      );
      assert.deepEqual(labels, ['events.clicks']);
    });

    test('a YAML urn value', async () => {
      const { text, list } = await complete(
        'datasets:\n  - urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.ord|\n',
        'yaml',
      );
      assert.deepEqual(
        list.items.map((i) => applied(text, i)),
        [`datasets:\n  - urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)\n`],
      );
    });

    // Looked-up-only kinds: what is typed, the label of the item expected first, and the text it gives.
    const LITERALS: Array<[kind: string, marked: string, label: string, written: string]> = [
      ['tag', 'x = "urn:li:tag:gd|"\n', 'GDPR', 'x = "urn:li:tag:gdpr"\n'],
      ['corpuser', 'x = "urn:li:corpuser:asm|"\n', 'Alice Smith', 'x = "urn:li:corpuser:asmith"\n'],
      ['corpGroup', 'x = "urn:li:corpGroup:data-|"\n', 'Data Platform', 'x = "urn:li:corpGroup:data-platform"\n'],
      [
        'glossaryTerm',
        'x = "urn:li:glossaryTerm:Classification.Sen|"\n',
        'Sensitive Data',
        'x = "urn:li:glossaryTerm:Classification.Sensitive"\n',
      ],
      // GUID and hash ids: the name is typed, the id written.
      ['domain', 'x = "urn:li:domain:Market|"\n', 'Marketing', `x = "${SAMPLE.domain}"\n`],
      ['container', 'x = "urn:li:container:analyt|"\n', 'analytics', `x = "${SAMPLE.container}"\n`],
      ['dataFlow', 'x = "urn:li:dataFlow:(|"\n', 'Daily revenue', `x = "${SAMPLE.flow}"\n`],
      [
        'dataJob',
        'x = "urn:li:dataJob:(urn:li:dataFlow:(airflow,daily_revenue,PROD),load_revenue|)"\n',
        'Load revenue',
        `x = "${SAMPLE.jobs.load}"\n`,
      ],
      ['chart', 'x = "urn:li:chart:(looker,rev|"\n', 'Revenue by day', `x = "${SAMPLE.chart}"\n`],
      ['dashboard', 'x = "urn:li:dashboard:(|"\n', 'Revenue overview', `x = "${SAMPLE.dashboard}"\n`],
    ];
    for (const [kind, marked, label, written] of LITERALS)
      test(`a ${kind} URN literal: the display name, the kind and id beside it, the whole URN written`, async () => {
        const { text, list } = await complete(marked);
        const item = list.items.find((i) => i.label === label);
        assert.ok(item, `${label} among ${JSON.stringify(list.items.map((i) => i.label))}`);
        assert.equal(applied(text, item), written);
        assert.match(item.detail ?? '', new RegExp(`^\\S.* ${escapeRe(/urn:li:\w+:(.*)"/.exec(written)![1]!)}$`));
        const lead = /"(urn:li:\w+:)/.exec(marked)![1]!;
        assert.ok(item.filterText?.startsWith(lead) && item.filterText.includes(label), item.filterText);
        assert.ok(
          list.items.every((i) => applied(text, i).includes(`urn:li:${kind}:`)),
          'only entities of that kind',
        );
      });

    test('every looked-up-only kind of kinds.ts with a sample entity: after its prefix, nothing typed, that entity', async () => {
      const samples = new Map<string, string>();
      const walk = (v: unknown): void => {
        if (typeof v === 'string') {
          const p = parseUrn(v);
          if (p.ok && isViewKind(entityTypeOf(p.urn)) && !samples.has(entityTypeOf(p.urn)))
            samples.set(entityTypeOf(p.urn), v);
        } else if (v && typeof v === 'object') Object.values(v).forEach(walk);
      };
      walk(SAMPLE);
      assert.ok(samples.size >= 10, [...samples.keys()].join(', '));
      for (const kind of VIEW_KINDS) {
        const urn = samples.get(kind);
        if (!urn) continue;
        const prefix = `urn:li:${kind}:${urn.charAt(`urn:li:${kind}:`.length) === '(' ? '(' : ''}`;
        const { text, list } = await complete(`x = "${prefix}|"\n`);
        assert.ok(
          list.items.some((i) => applied(text, i) === `x = "${urn}"\n`),
          `${urn} among ${JSON.stringify(list.items.map((i) => i.label))}`,
        );
      }
    });

    test('the other namespace word, and a job of another flow left out', async () => {
      const svc = await complete('x = "urn:svc:tag:go|"\n');
      assert.deepEqual(
        svc.list.items.map((i) => applied(svc.text, i)),
        ['x = "urn:svc:tag:gold"\n'],
      );
      const none = await complete('x = "urn:li:dataJob:(urn:li:dataFlow:(dagster,daily_revenue,PROD),load|"\n');
      assert.deepEqual(
        none.list.items.map((i) => applied(none.text, i)).filter((t) => t.includes('dagster')),
        [],
      );
    });

    // Builders and URN classes: the argument the call takes, within its quotes.
    const CALLS: Array<[marked: string, label: string, written: string]> = [
      ['make_tag_urn("gd|")', 'GDPR', 'make_tag_urn("gdpr")'],
      ['make_user_urn("asm|")', 'Alice Smith', 'make_user_urn("asmith")'],
      ['make_group_urn("data-|")', 'Data Platform', 'make_group_urn("data-platform")'],
      ['make_term_urn("Classification.Sen|")', 'Sensitive Data', 'make_term_urn("Classification.Sensitive")'],
      ['make_domain_urn("Market|")', 'Marketing', 'make_domain_urn("7f3c9a52-1b7e-4c1d-9d7a-2f8e5b6c4a10")'],
      ['make_container_urn("analyt|")', 'analytics', 'make_container_urn("25384e01fcde1063114925e9661766e7")'],
      ['make_data_flow_urn("airflow", "dai|")', 'Daily revenue', 'make_data_flow_urn("airflow", "daily_revenue")'],
      [
        'make_data_job_urn("airflow", "daily_revenue", "load|")',
        'Load revenue',
        'make_data_job_urn("airflow", "daily_revenue", "load_revenue")',
      ],
      ['make_chart_urn("looker", "rev|")', 'Revenue by day', 'make_chart_urn("looker", "revenue_by_day")'],
      ['make_dashboard_urn("looker", "|")', 'Revenue overview', 'make_dashboard_urn("looker", "revenue_overview")'],
      ['TagUrn("gol|")', 'Gold', 'TagUrn("gold")'],
      ['CorpUserUrn("bwo|")', 'Bob Wong', 'CorpUserUrn("bwong")'],
      ['CorpGroupUrn("data-|")', 'Data Platform', 'CorpGroupUrn("data-platform")'],
      ['GlossaryTermUrn("Classification.Sen|")', 'Sensitive Data', 'GlossaryTermUrn("Classification.Sensitive")'],
      ['DomainUrn("Market|")', 'Marketing', 'DomainUrn("7f3c9a52-1b7e-4c1d-9d7a-2f8e5b6c4a10")'],
      ['ContainerUrn("analyt|")', 'analytics', 'ContainerUrn("25384e01fcde1063114925e9661766e7")'],
      ['DataFlowUrn("airflow", "dai|", "PROD")', 'Daily revenue', 'DataFlowUrn("airflow", "daily_revenue", "PROD")'],
      [
        'DataJobUrn("urn:li:dataFlow:(airflow,daily_revenue,PROD)", "load|")',
        'Load revenue',
        'DataJobUrn("urn:li:dataFlow:(airflow,daily_revenue,PROD)", "load_revenue")',
      ],
      ['ChartUrn("looker", "rev|")', 'Revenue by day', 'ChartUrn("looker", "revenue_by_day")'],
      ['DashboardUrn("looker", "rev|")', 'Revenue overview', 'DashboardUrn("looker", "revenue_overview")'],
    ];
    for (const [marked, label, written] of CALLS)
      test(`${marked.replace('|', '')}: the argument it takes`, async () => {
        const { text, list } = await complete(`x = ${marked}\n`);
        const item = list.items.find((i) => i.label === label);
        assert.ok(item, `${label} among ${JSON.stringify(list.items.map((i) => i.label))}`);
        assert.equal(applied(text, item), `x = ${written}\n`);
      });

    test("a builder's other arguments filter: jobs of another orchestrator, charts of another tool are not offered", async () => {
      assert.deepEqual((await complete('x = make_data_job_urn("dagster", "daily_revenue", "|")\n')).labels, []);
      assert.deepEqual((await complete('x = make_chart_urn("tableau", "|")\n')).labels, []);
    });

    const YAML: Array<[marked: string, label: string, written: string]> = [
      ['tags: [pii, gd|]\n', 'GDPR', 'tags: [pii, gdpr]\n'],
      ['tags:\n  - gol|\n', 'Gold', 'tags:\n  - gold\n'],
      ['owners:\n  - jdoe\n  - asm|\n', 'Alice Smith', 'owners:\n  - jdoe\n  - asmith\n'],
      // A bare owner is a user: a group is written as its URN.
      ['owners:\n  - data-|\n', 'Data Platform', 'owners:\n  - urn:li:corpGroup:data-platform\n'],
      ['owners:\n  - id: bwo|\n    type: DATAOWNER\n', 'Bob Wong', 'owners:\n  - id: bwong\n    type: DATAOWNER\n'],
      [
        'glossary_terms:\n  - Classification.Sen|\n',
        'Sensitive Data',
        'glossary_terms:\n  - Classification.Sensitive\n',
      ],
      ['glossaryTerms: [Classification.Sen|]\n', 'Sensitive Data', 'glossaryTerms: [Classification.Sensitive]\n'],
      // A domain by its name (DataHub's YAML resolves it), not by its GUID.
      ['domain: Market|\n', 'Marketing', 'domain: Marketing\n'],
      ['domain: "Market|"\n', 'Marketing', 'domain: "Marketing"\n'],
      ['tags:\n  - urn:li:tag:gd|\n', 'GDPR', 'tags:\n  - urn:li:tag:gdpr\n'],
    ];
    for (const [marked, label, written] of YAML)
      test(`YAML ${JSON.stringify(marked.replace('|', ''))}: what the key takes`, async () => {
        const { text, list } = await complete(marked, 'yaml');
        const item = list.items.find((i) => i.label === label);
        assert.ok(item, `${label} among ${JSON.stringify(list.items.map((i) => i.label))}`);
        assert.equal(applied(text, item), written);
      });

    test('a plain YAML scalar cannot hold an id that reads as a number: no item, nothing unescaped', async () => {
      const { list } = await complete('x:\n  owners:\n    - 25384e|\n', 'yaml');
      assert.deepEqual(list.items, []);
    });

    test('where no name is written, the kinds, platforms and envs as before', async () => {
      assert.ok((await complete('x = "urn:li:|"\n')).labels.includes('dataset'));
      assert.ok(
        (await complete('x = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,|"\n')).labels.includes('PROD'),
      );
    });
  });
