/**
 * The URN injection grammar (syntaxes/urn.injection.tmLanguage.json): URN literals inside
 * strings, comments and YAML scalars get one scope per part, nested platform URNs included;
 * code outside strings and text that is not a URN get none, and a broken URN colours nothing.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { REGISTRY_ENTITY_TYPES } from '../../model/src/registry';
import { describe as show, tokenize, tokensOf, type Token } from './textmate';

const META = 'meta.urn.catalog-lens';
const S = {
  prefix: 'keyword.other.urn-prefix',
  namespace: 'entity.name.namespace.urn',
  kind: 'entity.name.type.urn',
  platform: 'support.constant.platform.urn',
  name: 'string.unquoted.name.urn',
  env: 'constant.language.env.urn',
  colon: 'punctuation.separator.colon.urn',
  comma: 'punctuation.separator.comma.urn',
  open: 'punctuation.definition.tuple.begin.urn',
  close: 'punctuation.definition.tuple.end.urn',
};
const URN_SCOPES = [META, ...Object.values(S)];

async function line(scopeName: string, text: string): Promise<Token[]> {
  const [tokens] = await tokenize(scopeName, [text]);
  return tokens!;
}

/** Every token of the `nth` occurrence of `part` carries `scope` (and the URN's meta scope). */
function hasScope(tokens: Token[], text: string, part: string, scope: string, nth = 0): void {
  for (const t of tokensOf(tokens, text, part, nth)) {
    assert.ok(t.scopes.includes(scope), `'${part}' should have ${scope}; tokens: ${show(tokens)}`);
    assert.ok(t.scopes.includes(META), `'${part}' should be inside ${META}; tokens: ${show(tokens)}`);
  }
}

/** No token overlapping the `nth` occurrence of `part` carries a URN scope. */
function hasNoUrnScope(tokens: Token[], text: string, part: string, nth = 0): void {
  for (const t of overlapping(tokens, text, part, nth)) {
    const found = t.scopes.filter((s) => URN_SCOPES.includes(s));
    assert.deepEqual(found, [], `'${part}' should have no URN scope; tokens: ${show(tokens)}`);
  }
}

function overlapping(tokens: Token[], text: string, part: string, nth: number): Token[] {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = text.indexOf(part, at + 1);
  assert.ok(at >= 0, `'${part}' occurs ${nth + 1} times in ${text}`);
  return tokens.filter((t) => t.start < at + part.length && t.end > at);
}

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';

describe('a dataset URN in a Python string gets a scope for each part', () => {
  const text = `users = "${DATASET}"`;

  test('prefix, namespace, kind and punctuation of the outer URN', async () => {
    const tokens = await line('source.python', text);
    hasScope(tokens, text, 'urn', S.prefix, 0);
    hasScope(tokens, text, 'li', S.namespace, 0);
    hasScope(tokens, text, 'dataset', S.kind);
    hasScope(tokens, text, ':', S.colon, 0);
    hasScope(tokens, text, '(', S.open);
    hasScope(tokens, text, ')', S.close);
    hasScope(tokens, text, ',', S.comma, 0);
    hasScope(tokens, text, ',', S.comma, 1);
    for (const t of tokensOf(tokens, text, DATASET))
      assert.ok(t.scopes.includes('string.quoted.double.python'), 'the host string scope stays');
  });

  test('the nested platform URN is coloured too: its prefix, kind and platform name', async () => {
    const tokens = await line('source.python', text);
    hasScope(tokens, text, 'urn', S.prefix, 1);
    hasScope(tokens, text, 'li', S.namespace, 1);
    hasScope(tokens, text, 'dataPlatform', S.kind);
    hasScope(tokens, text, 'hive', S.platform);
  });

  test('db.users is a name and PROD is an env', async () => {
    const tokens = await line('source.python', text);
    hasScope(tokens, text, 'db.users', S.name);
    hasScope(tokens, text, 'PROD', S.env);
  });

  test('the quotes and the code around the string get no URN scope', async () => {
    const tokens = await line('source.python', text);
    hasNoUrnScope(tokens, text, 'users', 0);
    hasNoUrnScope(tokens, text, '"', 0);
    hasNoUrnScope(tokens, text, '"', 1);
  });
});

describe('URNs of every spec kind, in the places the injection selects', () => {
  test('an mlFeature URN in a Python comment: table and feature are names, the words after are not', async () => {
    const text = '# reads urn:li:mlFeature:(user_features,age) daily';
    const tokens = await line('source.python', text);
    hasScope(tokens, text, 'mlFeature', S.kind);
    hasScope(tokens, text, 'user_features', S.name);
    hasScope(tokens, text, 'age', S.name);
    hasNoUrnScope(tokens, text, ' daily');
    hasNoUrnScope(tokens, text, 'reads');
  });

  test('the svc namespace of the spec in a single-quoted string (mlModel)', async () => {
    const text = "m = 'urn:svc:mlModel:(urn:svc:dataPlatform:sagemaker,churn,PROD)'";
    const tokens = await line('source.python', text);
    hasScope(tokens, text, 'svc', S.namespace, 0);
    hasScope(tokens, text, 'svc', S.namespace, 1);
    hasScope(tokens, text, 'mlModel', S.kind);
    hasScope(tokens, text, 'sagemaker', S.platform);
    hasScope(tokens, text, 'churn', S.name);
    hasScope(tokens, text, 'PROD', S.env);
  });

  test('a YAML plain scalar value: the key is not part of the URN', async () => {
    const text = `table: ${DATASET}`;
    const tokens = await line('source.yaml', text);
    hasNoUrnScope(tokens, text, 'table');
    hasScope(tokens, text, 'hive', S.platform);
    hasScope(tokens, text, 'db.users', S.name);
    hasScope(tokens, text, 'PROD', S.env);
  });

  test('a YAML list item with an mlFeatureTable URN, and a quoted one', async () => {
    const lines = [
      'features:',
      '  - urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,user_features)',
      '  - "urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn_models,DEV)"',
    ];
    const [, item, quoted] = await tokenize('source.yaml', lines);
    hasScope(item!, lines[1]!, 'mlFeatureTable', S.kind);
    hasScope(item!, lines[1]!, 'feast', S.platform);
    hasScope(item!, lines[1]!, 'user_features', S.name);
    hasNoUrnScope(item!, lines[1]!, '-');
    hasScope(quoted!, lines[2]!, 'mlModelGroup', S.kind);
    hasScope(quoted!, lines[2]!, 'churn_models', S.name);
    hasScope(quoted!, lines[2]!, 'DEV', S.env);
  });

  test('a user URN in a YAML comment; the full stop after it is not part of it', async () => {
    const text = '# owner is urn:li:corpuser:jdoe.';
    const tokens = await line('source.yaml', text);
    hasScope(tokens, text, 'corpuser', S.kind);
    hasScope(tokens, text, 'jdoe', S.name);
    hasNoUrnScope(tokens, text, '.');
  });

  test('a SQL line comment and a SQL string; the SQL itself gets nothing', async () => {
    const comment = 'SELECT * FROM orders -- urn:li:dataset:(urn:li:dataPlatform:snowflake,db.schema.orders,PROD)';
    const c = await line('source.sql', comment);
    hasNoUrnScope(c, comment, 'orders', 0);
    hasScope(c, comment, 'snowflake', S.platform);
    hasScope(c, comment, 'db.schema.orders', S.name);
    hasScope(c, comment, 'PROD', S.env);
    const str =
      "SELECT urn FROM lineage WHERE urn = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,DEV)'";
    const s = await line('source.sql', str);
    hasNoUrnScope(s, str, 'urn', 0);
    hasScope(s, str, 'postgres', S.platform);
    hasScope(s, str, 'shop.public.orders', S.name);
  });

  test('a JSON string value; the JSON key "urn" is no URN', async () => {
    const text = '{"urn": "urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn_models,DEV)"}';
    const tokens = await line('source.json', text);
    hasNoUrnScope(tokens, text, 'urn', 0);
    hasScope(tokens, text, 'urn', S.prefix, 1);
    hasScope(tokens, text, 'mlflow', S.platform);
    hasScope(tokens, text, 'churn_models', S.name);
    hasScope(tokens, text, 'DEV', S.env);
  });

  test('Markdown inline code: the backticks are not part of the URN', async () => {
    const text = `The table \`${DATASET}\` holds users.`;
    const tokens = await line('text.html.markdown', text);
    hasScope(tokens, text, 'db.users', S.name);
    hasNoUrnScope(tokens, text, '`', 0);
    hasNoUrnScope(tokens, text, '`', 1);
    hasNoUrnScope(tokens, text, 'holds');
  });

  test('two URNs on one line are both coloured', async () => {
    const text = `pair = ("${DATASET}", "urn:li:mlFeature:(orders,total)")`;
    const tokens = await line('source.python', text);
    hasScope(tokens, text, 'db.users', S.name);
    hasScope(tokens, text, 'orders', S.name);
    hasScope(tokens, text, 'total', S.name);
  });

  test('names as DataHub spells them: encoded commas and inner spaces stay one name', async () => {
    const text = '"urn:li:dataset:(urn:li:dataPlatform:hive,db.a%2Cb with space,PROD)"';
    const tokens = await line('source.python', text);
    hasScope(tokens, text, 'db.a%2Cb with space', S.name);
    hasScope(tokens, text, 'PROD', S.env);
  });
});

describe('other DataHub kinds', () => {
  test('every registry kind without its own rule (corpuser, tag, glossaryTerm, entityType …) gets a kind and a name scope', async () => {
    const OWN_RULES = ['dataset', 'mlFeature', 'mlFeatureTable', 'mlModel', 'mlModelGroup', 'dataPlatform'];
    const kinds = REGISTRY_ENTITY_TYPES.filter((k) => !OWN_RULES.includes(k));
    const lines = kinds.map((k) => `x = "urn:li:${k}:some_id"`);
    const tokenized = await tokenize('source.python', lines);
    kinds.forEach((k, i) => {
      hasScope(tokenized[i]!, lines[i]!, k, S.kind);
      hasScope(tokenized[i]!, lines[i]!, 'some_id', S.name);
    });
  });

  test('a schemaField URN holds a dataset URN, which is coloured part by part', async () => {
    const text = `"urn:li:schemaField:(${DATASET},user_id)"`;
    const tokens = await line('source.python', text);
    hasScope(tokens, text, 'schemaField', S.kind);
    hasScope(tokens, text, 'dataset', S.kind);
    hasScope(tokens, text, 'hive', S.platform);
    hasScope(tokens, text, 'db.users', S.name);
    hasScope(tokens, text, 'user_id', S.name);
  });
});

describe('what is not a URN gets no URN scope', () => {
  for (const [label, text] of [
    ['a string that only mentions the word', '"hello urn world"'],
    ['a word that ends in urn', '"burn:li:dataset:x"'],
    ['an unknown entity type', '"urn:li:datasets:(urn:li:dataPlatform:hive,db.users,PROD)"'],
    ['a dataset with two parts', '"urn:li:dataset:(urn:li:dataPlatform:hive,db.users)"'],
    ['a dataset whose platform is not a platform URN', '"urn:li:dataset:(hive,db.users,PROD)"'],
  ] as const) {
    test(label, async () => {
      const tokens = await line('source.python', text);
      for (const t of tokens)
        assert.deepEqual(
          t.scopes.filter((s) => URN_SCOPES.includes(s)),
          [],
          `${label}: ${show(tokens)}`,
        );
    });
  }

  test('a URN-like identifier in code (outside strings and comments) is not coloured', async () => {
    const text = 'urn = make_urn(platform, name)';
    const tokens = await line('source.python', text);
    hasNoUrnScope(tokens, text, 'urn', 0);
  });

  test('a platform URN on its own is coloured, but not as the first part of a broken tuple', async () => {
    const text = '"urn:li:dataPlatform:hive" vs "urn:li:dataset:(urn:li:dataPlatform:kafka,x)"';
    const tokens = await line('source.python', text);
    hasScope(tokens, text, 'hive', S.platform);
    hasNoUrnScope(tokens, text, 'kafka');
    hasNoUrnScope(tokens, text, 'dataset');
  });

  test('an unclosed tuple colours nothing and does not leak into the next line', async () => {
    const lines = ['a = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users"', 'b = 1  # next line'];
    const [first, second] = await tokenize('source.python', lines);
    for (const t of [...first!, ...second!])
      assert.deepEqual(
        t.scopes.filter((s) => URN_SCOPES.includes(s)),
        [],
        show([...first!, ...second!]),
      );
    hasNoUrnScope(second!, lines[1]!, 'b');
  });
});
