/** Hover through the real server process against the real local catalog with the sample data. */
import assert from 'node:assert/strict';
import { renderedActive } from '../reliability/support/inert';
import { describe, test } from 'node:test';
import { caret, hoverText, positionOf } from '../support/lspClient';
import { COMPAT_MODES, S, useSampleServer, type Catalog } from '../support/fixture';
import type { LspSession } from '../support/lspClient';

const WIDE = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.wide,PROD)';

/** A dataset of `n` columns, every third without a description, written through the catalog's aspect endpoint. */
async function ingestWideDataset(catalog: Catalog, n: number): Promise<void> {
  const fields = Array.from({ length: n }, (_, i) => ({
    fieldPath: `col_${String(i + 1).padStart(2, '0')}`,
    nullable: true,
    ...(i % 3 === 2 ? {} : { description: `Column number ${i + 1}.` }),
    type: { type: { 'com.linkedin.schema.StringType': {} } },
    nativeDataType: 'string',
    recursive: false,
    isPartOfKey: false,
  }));
  const aspects = [
    ['datasetProperties', { customProperties: {}, name: 'wide', description: 'A wide table.', tags: [] }],
    [
      'schemaMetadata',
      {
        schemaName: 'db.wide',
        platform: 'urn:li:dataPlatform:hive',
        version: 0,
        hash: '',
        platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
        fields,
      },
    ],
  ] as const;
  for (const [aspectName, value] of aspects) {
    const r = await fetch(`${catalog.url}/aspects?action=ingestProposal`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        proposal: {
          entityType: 'dataset',
          entityUrn: WIDE,
          changeType: 'UPSERT',
          aspectName,
          aspect: { value: JSON.stringify(value), contentType: 'application/json' },
        },
        async: 'false',
      }),
    });
    assert.equal(r.status, 200, `ingesting ${aspectName} of ${WIDE}: ${await r.text()}`);
  }
}

async function hoverIn(lsp: LspSession, uri: string, languageId: string, marked: string): Promise<string> {
  const { text, position } = caret(marked);
  await lsp.open(uri, languageId, text);
  return hoverText(await lsp.hover(uri, position));
}

for (const compat of COMPAT_MODES)
  describe(`hover (${compat} catalog)`, () => {
    const env = useSampleServer({}, compat);

    const hoverAt = (uri: string, languageId: string, marked: string): Promise<string> =>
      hoverIn(env.lsp, uri, languageId, marked);

    test('a dataset literal in Python shows platform, name, env, description, what else the catalog knows, and columns', async () => {
      const h = await hoverAt(
        'file:///w/a.py',
        'python',
        `USERS = "urn:li:dataset:(urn:li:dataPlatform:hive,db.us|ers,PROD)"\n`,
      );
      assert.match(h, /\*\*Dataset\*\* `db\.users` · hive · PROD/);
      assert.match(h, /One row per registered user of the product\./);
      // Owners, tags, term and domain of the sample, and the features derived from it.
      assert.match(
        h,
        /\n\nOwners jdoe, growth-analytics · Tags pii · Terms Profile · Domain growth · Lineage ↑0 ↓2\n\n/,
      );
      // Every column of the five, with its native type, one line each; the link stays in view.
      assert.match(h, /\n\n`user_id` bigint — Primary key of the user\. {2}\n`email` string — /);
      assert.doesNotMatch(h, /more ·/);
      assert.match(
        h,
        /\[Open in catalog\]\(http:\/\/127\.0\.0\.1:\d+\/dataset\/urn:li:dataset:\(urn:li:dataPlatform:hive,db\.users,PROD\)\)/,
      );
    });

    test('a URN split by black into adjacent pieces, and one with a JSON escape, hover as the dataset', async () => {
      const joined = await hoverAt(
        'file:///w/joined.py',
        'python',
        'USERS = (\n    "urn:li:dataset:(urn:li:dataPlatform:hive,"\n    "db.us|ers,PROD)"\n)\n',
      );
      assert.match(joined, /\*\*Dataset\*\* `db\.users` · hive · PROD/);
      assert.match(joined, /One row per registered user of the product\./);
      const escaped = await hoverAt(
        'file:///w/escaped.json',
        'json',
        '{"urn": "urn:li:dataset:(urn:li:dataPlatform:hive,db.\\u00|75sers,PROD)"}\n',
      );
      assert.match(escaped, /\*\*Dataset\*\* `db\.users` · hive · PROD/);
    });

    test('a dataset URN in YAML, and a column name beside it shows that column', async () => {
      const yaml = `datasets:\n  - urn: ${S.users}\n    columns:\n      - name: user_id\n      - name: age\n`;
      await env.lsp.open('file:///w/d.yml', 'yaml', yaml);
      const onUrn = hoverText(await env.lsp.hover('file:///w/d.yml', positionOf(yaml, 'db.users')));
      assert.match(onUrn, /One row per registered user/);
      const onColumn = hoverText(await env.lsp.hover('file:///w/d.yml', positionOf(yaml, 'user_id', 2)));
      assert.match(onColumn, /Column `user_id`/);
      assert.match(onColumn, /Primary key of the user\./);
      const undocumented = hoverText(await env.lsp.hover('file:///w/d.yml', positionOf(yaml, 'name: age', 7)));
      assert.match(undocumented, /Column `age`/);
      // The diagnostic on the name says "Column 'age' of db.users has no description" in the same hover box.
      assert.doesNotMatch(undocumented, /No description/);
      assert.match(undocumented, /\[Open in catalog\]\(http:\/\/127\.0\.0\.1:\d+\/dataset\//);
    });

    test('a v2 field path is shown by its simple path, and an edited description wins over the ingested one', async () => {
      const clicks = await hoverAt(
        'file:///w/c.py',
        'python',
        `x = "${S.clicks.replace('events.clicks', 'events.cl|icks')}"`,
      );
      assert.match(clicks, /`session_id` string — Browser or app session\./);
      assert.match(clicks, /`device\.os` string — _no description_/);
      const revenue = await hoverAt('file:///w/r.py', 'python', `x = "${S.revenue.replace('revenue,', 'reve|nue,')}"`);
      assert.match(revenue, /Daily revenue per country, in EUR, after refunds\./);
      assert.match(revenue, /`revenue_eur` \S+ — Revenue after refunds, EUR\./);
    });

    test('a builder call resolves like the URN it builds', async () => {
      const h = await hoverAt(
        'file:///w/b.py',
        'python',
        `urn = builder.make_data|set_urn("hive", "db.users", "PROD")\n`,
      );
      assert.match(
        h,
        /Built by `make_dataset_urn\(…\)` → `urn:li:dataset:\(urn:li:dataPlatform:hive,db\.users,PROD\)`/,
      );
      assert.match(h, /One row per registered user/);
      const f = await hoverAt(
        'file:///w/b2.py',
        'python',
        `f = make_ml_feature_urn(feature_table_name="users_table", feature_name="a|ge")\n`,
      );
      assert.match(f, /\*\*ML feature\*\* `age`/);
      assert.match(f, /Age of the user in years\./);
    });

    test('an SDK v2 DatasetUrn(…) call and a Java new DatasetUrn(…) resolve like the dataset they build', async () => {
      const py = await hoverAt(
        'file:///w/sdk.py',
        'python',
        `from datahub.metadata.urns import DatasetUrn\nurn = DatasetUrn("hive", "db.us|ers")\n`,
      );
      assert.match(py, /\*\*Dataset\*\* `db\.users` · hive · PROD/);
      assert.match(py, /Built by `DatasetUrn\(…\)` → `urn:li:dataset:\(urn:li:dataPlatform:hive,db\.users,PROD\)`/);
      assert.match(py, /One row per registered user/);
      const java = await hoverAt(
        'file:///w/Users.java',
        'java',
        `class Users {\n  DatasetUrn urn = new Data|setUrn(new DataPlatformUrn("hive"), "db.users", FabricType.PROD);\n}\n`,
      );
      assert.match(java, /\*\*Dataset\*\* `db\.users` · hive · PROD/);
      assert.match(
        java,
        /Built by `new DatasetUrn\(…\)` → `urn:li:dataset:\(urn:li:dataPlatform:hive,db\.users,PROD\)`/,
      );
      assert.match(java, /One row per registered user/);
    });

    test('ML kinds show what spec §2.4 offers', async () => {
      const feature = await hoverAt('file:///w/f.py', 'python', `"urn:li:mlFeature:(orders_table,order_co|unt)"`);
      assert.match(feature, /\*\*ML feature\*\* `order_count` · table `orders_table`/);
      assert.match(feature, /Orders placed in the last 90 days\./);
      assert.match(feature, /data type `COUNT` · version `2`/);
      const table = await hoverAt(
        'file:///w/t.py',
        'python',
        `"urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users_ta|ble)"`,
      );
      assert.match(table, /\*\*Feature table\*\* `users_table` · feast/);
      assert.match(table, /Features about users\./);
      assert.match(table, /Features \(2\): `age`, `country`/);
      const model = await hoverAt(
        'file:///w/m.py',
        'python',
        `"urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn-mo|del-v3,PROD)"`,
      );
      assert.match(model, /Churn classifier, third training run\./);
      assert.match(model, /type gradient boosted trees · version `3`/);
      assert.match(model, /Groups: `churn-model` · Features \(3\): `age`, `country`, `order_count`/);
      const bare = await hoverAt(
        'file:///w/m2.py',
        'python',
        `"urn:li:mlModel:(urn:li:dataPlatform:mlflow,ltv-mo|del-v1,PROD)"`,
      );
      // Its missing-description diagnostic is in the same hover box: "No description" is not said twice.
      assert.doesNotMatch(bare, /No description/);
      assert.match(bare, /Groups: none · Features: none/);
      const group = await hoverAt(
        'file:///w/g.py',
        'python',
        `"urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn-mo|del,PROD)"`,
      );
      assert.match(group, /\*\*Model group\*\* `churn-model` · mlflow · PROD/);
      assert.match(group, /Predicts which users will stop ordering within 60 days\./);
    });

    test('users and platforms show their parts; the nested platform URN is hoverable on its own', async () => {
      const user = await hoverAt('file:///w/u.py', 'python', `owner = "urn:li:corpuser:jd|oe"`);
      assert.match(user, /\*\*User\*\* `jdoe`/);
      const platform = await hoverAt(
        'file:///w/p.py',
        'python',
        `"urn:li:dataset:(urn:li:dataPlatform:hi|ve,db.users,PROD)"`,
      );
      assert.match(platform, /\*\*Data platform\*\* `hive`/);
    });

    test('a URN not in the catalog: its title, once; the diagnostic beside it says it is not in the catalog', async () => {
      const h = await hoverAt('file:///w/n.py', 'python', `"urn:li:dataset:(urn:li:dataPlatform:hive,db.gh|ost,PROD)"`);
      assert.equal(h, '**Dataset** `db.ghost` · hive · PROD\n\nplatform: `hive` · name: `db.ghost` · env: `PROD`');
    });

    test('a malformed URN has no hover of its own (its diagnostic is the hover); a template is not looked up', async () => {
      const { text, position } = caret(`"urn:li:dataset:(urn:li:dataPlatform:hive,db.us|ers)"`);
      await env.lsp.open('file:///w/x.py', 'python', text);
      assert.equal(await env.lsp.hover('file:///w/x.py', position), null);
      const tpl = await hoverAt('file:///w/y.py', 'python', `f"urn:li:dataset:(urn:li:dataPlatform:{p},{na|me},PROD)"`);
      assert.match(tpl, /\*\*Templated URN\*\*/);
    });

    test(
      compat === 'spec'
        ? 'the svc namespace word resolves like li'
        : 'DataHub keeps svc and li URNs apart: the svc spelling of a li entity is not in it',
      async () => {
        const h = await hoverAt(
          'file:///w/svc.py',
          'python',
          `"urn:svc:dataset:(urn:svc:dataPlatform:hive,db.us|ers,PROD)"`,
        );
        if (compat === 'spec') assert.match(h, /One row per registered user/);
        else assert.doesNotMatch(h, /Not in the catalog/, 'the unknown-URN diagnostic says it');
      },
    );

    test('text from the catalog is inert: no HTML, no command links, bounded', async () => {
      const evil =
        '<script>alert(1)</script> <img src=x onerror=alert(2)> [run](command:workbench.action.terminal.new) ' +
        '[ok](https://example.com/doc) [x]: command:evil\n' +
        'z'.repeat(5000);
      const r = await fetch(`${env.catalog.url}/aspects?action=ingestProposal`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          proposal: {
            entityType: 'mlModelGroup',
            entityUrn: 'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,evil,PROD)',
            changeType: 'UPSERT',
            aspectName: 'mlModelGroupProperties',
            aspect: { value: JSON.stringify({ description: evil }), contentType: 'application/json' },
          },
          async: 'false',
        }),
      });
      assert.equal(r.status, 200);
      const h = await hoverAt(
        'file:///w/evil.py',
        'python',
        `"urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,ev|il,PROD)"`,
      );
      assert.doesNotMatch(h, /<script/i);
      assert.doesNotMatch(h, /<img/i);
      // Inert as written (a bracket is escaped) and as a CommonMark renderer reads it.
      assert.doesNotMatch(h, /(?<!\\)\]\(command:/);
      assert.doesNotMatch(h, /^\s*\[x\]:/m);
      assert.deepEqual(
        renderedActive(h, (target) => target.startsWith(env.catalog.url)),
        [],
      );
      assert.match(h, /&lt;script&gt;/);
      assert.match(h, /\[ok\]\(https:\/\/example\.com\/doc\)/);
      assert.ok(h.length < 2500, `hover is ${h.length} characters`);
    });
  });

for (const compat of COMPAT_MODES)
  describe(`hover fits VS Code's hover box (${compat} catalog)`, () => {
    const env = useSampleServer({}, compat);

    test('a dataset of 12 columns shows 6 lines with their types, then "…and 6 more" with how many are undocumented, on a line of its own', async () => {
      await ingestWideDataset(env.catalog, 12);
      const h = await hoverIn(env.lsp, 'file:///w/wide.py', 'python', `"${WIDE.replace('db.wide', 'db.wi|de')}"`);
      const paragraphs = h.split('\n\n');
      assert.deepEqual(paragraphs[2]!.split('  \n'), [
        '`col_01` string — Column number 1.',
        '`col_02` string — Column number 2.',
        '`col_03` string — _no description_',
        '`col_04` string — Column number 4.',
        '`col_05` string — Column number 5.',
        '`col_06` string — _no description_',
      ]);
      assert.equal(paragraphs[3], '_…and 6 more · 4 of the 12 columns have no description_');
      // The link stays last and the whole hover is a handful of lines.
      assert.match(paragraphs.at(-1)!, /^\[Open in catalog\]\(http:\/\/127\.0\.0\.1:\d+\/dataset\//);
      // Title, description, 6 column lines, the summary, the link: 10 lines, whatever the columns.
      assert.equal(h.split('\n').filter((l) => l.trim() !== '').length, 10, h);
    });

    test('a long description is cut to two lines above the columns, with "…"', async () => {
      const long = Array.from({ length: 6 }, (_, i) => `Line ${i + 1} of a long description.`).join('\n');
      const r = await fetch(`${env.catalog.url}/aspects?action=ingestProposal`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          proposal: {
            entityType: 'dataset',
            entityUrn: S.users,
            changeType: 'UPSERT',
            aspectName: 'editableDatasetProperties',
            aspect: { value: JSON.stringify({ description: long }), contentType: 'application/json' },
          },
          async: 'false',
        }),
      });
      assert.equal(r.status, 200);
      const h = await hoverIn(env.lsp, 'file:///w/long.py', 'python', `"${S.users.replace('db.users', 'db.us|ers')}"`);
      assert.match(h, /Line 1 of a long description\.\nLine 2 of a long description\.\n…/);
      assert.doesNotMatch(h, /Line 3/);
    });
  });

describe('each thing said once: what a diagnostic at the place says is said by the hover only when that diagnostic is off', () => {
  const env = useSampleServer({
    settings: { diagnostics: { malformed: 'off', unknown: 'off', missingDescription: 'off' } },
  });

  test('malformed, not in the catalog, no description: the hover says them itself', async () => {
    const bad = await hoverIn(
      env.lsp,
      'file:///w/x.py',
      'python',
      `"urn:li:dataset:(urn:li:dataPlatform:hive,db.us|ers)"`,
    );
    assert.match(bad, /\*\*Malformed URN\*\*: expected 3 parts \(platform, name, env\), found 2/);
    const ghost = await hoverIn(env.lsp, 'file:///w/n.py', 'python', `"${S.ghost.replace('db.ghost', 'db.gh|ost')}"`);
    assert.match(ghost, /_Not in the catalog\._/);
    const bare = await hoverIn(
      env.lsp,
      'file:///w/m.py',
      'python',
      `"urn:li:mlModel:(urn:li:dataPlatform:mlflow,ltv-mo|del-v1,PROD)"`,
    );
    assert.match(bare, /_No description\._/);
  });
});

describe('one link per hover in an editor that shows link tooltips (VS Code)', () => {
  const env = useSampleServer({ documentLinkTooltips: true });

  test('over a URN the document link is the link: the hover has none of its own', async () => {
    const h = await hoverIn(
      env.lsp,
      'file:///w/a.py',
      'python',
      `USERS = "${S.users.replace('db.users', 'db.us|ers')}"\n`,
    );
    assert.match(h, /One row per registered user of the product\./);
    assert.doesNotMatch(h, /Open in catalog|\]\(http/);
    const links = await env.lsp.links('file:///w/a.py');
    assert.equal(links.length, 1);
    assert.equal(links[0]!.tooltip, 'Open in catalog');
  });

  test('a YAML column name is no document link: its hover keeps the link to the dataset page', async () => {
    const yaml = `datasets:\n  - urn: ${S.users}\n    columns:\n      - name: user_id\n`;
    await env.lsp.open('file:///w/d.yml', 'yaml', yaml);
    const h = hoverText(await env.lsp.hover('file:///w/d.yml', positionOf(yaml, 'user_id', 2)));
    assert.match(h, /Column `user_id`/);
    assert.equal(h.match(/Open in catalog/g)?.length, 1);
  });
});
