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
import { nameSlotAt } from '../../server/src/features/completeNames';
import { applyEdits } from '../support/textEdits';
import { caret } from '../support/lspClient';
import { COMPAT_MODES, useSampleServer } from '../support/fixture';

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

    test('where no name is written, the kinds, platforms and envs as before', async () => {
      assert.ok((await complete('x = "urn:li:|"\n')).labels.includes('dataset'));
      assert.ok(
        (await complete('x = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,|"\n')).labels.includes('PROD'),
      );
    });
  });
