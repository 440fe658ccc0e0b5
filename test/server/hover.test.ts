/** Hover through the real server process against the real local catalog with the sample data. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { caret, hoverText, positionOf } from '../support/lspClient';
import { COMPAT_MODES, S, useSampleServer } from '../support/fixture';

for (const compat of COMPAT_MODES)
  describe(`hover (${compat} catalog)`, () => {
    const env = useSampleServer({}, compat);

    async function hoverAt(uri: string, languageId: string, marked: string): Promise<string> {
      const { text, position } = caret(marked);
      await env.lsp.open(uri, languageId, text);
      return hoverText(await env.lsp.hover(uri, position));
    }

    test('a dataset literal in Python shows platform, name, env, description and columns', async () => {
      const h = await hoverAt(
        'file:///w/a.py',
        'python',
        `USERS = "urn:li:dataset:(urn:li:dataPlatform:hive,db.us|ers,PROD)"\n`,
      );
      assert.match(h, /\*\*Dataset\*\* `db\.users` · hive · PROD/);
      assert.match(h, /One row per registered user of the product\./);
      assert.match(h, /\| `user_id` \| Primary key of the user\. \|/);
      assert.match(h, /\| `age` \| _none_ \|/);
      assert.match(h, /2 of 5 columns have no description/);
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
      assert.match(undocumented, /_No description\._/);
    });

    test('a v2 field path is shown by its simple path, and an edited description wins over the ingested one', async () => {
      const clicks = await hoverAt(
        'file:///w/c.py',
        'python',
        `x = "${S.clicks.replace('events.clicks', 'events.cl|icks')}"`,
      );
      assert.match(clicks, /\| `session_id` \| Browser or app session\. \|/);
      assert.match(clicks, /\| `device\.os` \| _none_ \|/);
      const revenue = await hoverAt('file:///w/r.py', 'python', `x = "${S.revenue.replace('revenue,', 'reve|nue,')}"`);
      assert.match(revenue, /Daily revenue per country, in EUR, after refunds\./);
      assert.match(revenue, /\| `revenue_eur` \| Revenue after refunds, EUR\. \|/);
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
      assert.match(model, /Groups: `churn-model`/);
      assert.match(model, /Features \(3\): `age`, `country`, `order_count`/);
      const bare = await hoverAt(
        'file:///w/m2.py',
        'python',
        `"urn:li:mlModel:(urn:li:dataPlatform:mlflow,ltv-mo|del-v1,PROD)"`,
      );
      assert.match(bare, /_No description\._/);
      assert.match(bare, /Groups: none/);
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

    test('a URN not in the catalog says so and still shows its parts', async () => {
      const h = await hoverAt('file:///w/n.py', 'python', `"urn:li:dataset:(urn:li:dataPlatform:hive,db.gh|ost,PROD)"`);
      assert.match(h, /_Not in the catalog\._/);
      assert.match(h, /platform: `hive` · name: `db\.ghost` · env: `PROD`/);
    });

    test('a malformed URN says what is wrong; a template is not looked up', async () => {
      const bad = await hoverAt('file:///w/x.py', 'python', `"urn:li:dataset:(urn:li:dataPlatform:hive,db.us|ers)"`);
      assert.match(bad, /\*\*Malformed URN\*\*: expected 3 parts \(platform, name, env\), found 2/);
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
        else assert.match(h, /_Not in the catalog\._/);
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
      assert.doesNotMatch(h, /\]\(command:/);
      assert.doesNotMatch(h, /^\s*\[x\]:/m);
      assert.match(h, /&lt;script&gt;/);
      assert.match(h, /\[ok\]\(https:\/\/example\.com\/doc\)/);
      assert.ok(h.length < 2500, `hover is ${h.length} characters`);
    });
  });
