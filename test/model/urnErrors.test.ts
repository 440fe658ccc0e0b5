/**
 * Every error the URN parser can produce, with the exact offset and length of what is wrong:
 * these ranges become the editor's diagnostics, so an off-by-one is a visible bug.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { editDistance, parseUrn, suggestKind } from '../../model/src/urn';
import { REGISTRY_ENTITY_TYPES } from '../../model/src/registry';
import { REPO_ROOT } from './sharedFixtures';

interface ErrorCase {
  text: string;
  message: string;
  offset: number;
  length: number;
}

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';

/** Grouped by the `fail(...)` site of model/src/urn.ts that produces them, in source order. */
/** A schemaField of a schemaField … five levels deep: its innermost URN lies past MAX_URN_NESTING. */
const TOO_DEEP = 'urn:li:schemaField:('.repeat(6) + 'urn:li:tag:x' + ',f)'.repeat(6);

const CATALOGUE: Record<string, ErrorCase[]> = {
  'nesting depth': [
    { text: TOO_DEEP, message: 'URNs nested more than 4 levels deep are not read', offset: 100, length: 35 },
  ],
  prefix: [
    { text: 'URN:li:corpuser:jdoe', message: "a URN starts with 'urn:'", offset: 0, length: 4 },
    { text: ' urn:li:corpuser:jdoe', message: "a URN starts with 'urn:'", offset: 0, length: 4 },
    { text: 'urn', message: "a URN starts with 'urn:'", offset: 0, length: 3 },
    { text: '', message: "a URN starts with 'urn:'", offset: 0, length: 0 },
  ],
  'namespace colon': [
    {
      text: 'urn:li',
      message: "expected ':' after the namespace (urn:<namespace>:<entity type>:<id>)",
      offset: 4,
      length: 2,
    },
    {
      text: 'urn:',
      message: "expected ':' after the namespace (urn:<namespace>:<entity type>:<id>)",
      offset: 4,
      length: 0,
    },
  ],
  'namespace word': [
    { text: 'urn:l i:corpuser:jdoe', message: "namespace 'l i' must be a word such as li", offset: 4, length: 3 },
    { text: 'urn:2li:corpuser:jdoe', message: "namespace '2li' must be a word such as li", offset: 4, length: 3 },
    { text: 'urn::corpuser:jdoe', message: 'namespace is empty', offset: 4, length: 1 },
  ],
  'nested namespace mismatch': [
    {
      text: 'urn:li:dataset:(urn:svc:dataPlatform:hive,db.users,PROD)',
      message: "namespace 'svc' differs from the enclosing URN's 'li'",
      offset: 20,
      length: 3,
    },
    {
      text: 'urn:svc:mlFeatureTable:(urn:li:dataPlatform:feast,t)',
      message: "namespace 'li' differs from the enclosing URN's 'svc'",
      offset: 28,
      length: 2,
    },
    {
      text: 'urn:li:schemaField:(urn:svc:dataset:(urn:svc:dataPlatform:hive,t,PROD),a)',
      message: "namespace 'svc' differs from the enclosing URN's 'li'",
      offset: 24,
      length: 3,
    },
  ],
  'entity type then (': [
    {
      text: 'urn:li:dataset(urn:li:dataPlatform:hive,db.users,PROD)',
      message: "expected ':' between the entity type 'dataset' and '('",
      offset: 14,
      length: 1,
    },
  ],
  'entity type colon': [
    {
      text: 'urn:li:corpuser',
      message: "expected ':' after the entity type (urn:li:<entity type>:<id>)",
      offset: 7,
      length: 8,
    },
    {
      text: 'urn:svc:',
      message: "expected ':' after the entity type (urn:svc:<entity type>:<id>)",
      offset: 8,
      length: 0,
    },
  ],
  'unknown entity type': [
    {
      text: 'urn:li:mlFeatur:(t,f)',
      message: "unknown entity type 'mlFeatur' (did you mean mlFeature?)",
      offset: 7,
      length: 8,
    },
    {
      text: 'urn:li:Dataset:(urn:li:dataPlatform:hive,t,PROD)',
      message: "unknown entity type 'Dataset' (did you mean dataset?)",
      offset: 7,
      length: 7,
    },
    {
      text: 'urn:li:corpUser:jdoe',
      message: "unknown entity type 'corpUser' (did you mean corpuser?)",
      offset: 7,
      length: 8,
    },
    // Not in the registry and near none of its types would be a custom type; these are mistakes.
    {
      text: 'urn:li:glosaryTerm:Classification.Sensitive',
      message: "unknown entity type 'glosaryTerm' (did you mean glossaryTerm?)",
      offset: 7,
      length: 11,
    },
    { text: 'urn:li:tags:pii', message: "unknown entity type 'tags' (did you mean tag?)", offset: 7, length: 4 },
    { text: 'urn:li:my thing:x', message: "unknown entity type 'my thing'", offset: 7, length: 8 },
    { text: 'urn:li::x', message: 'entity type is empty', offset: 7, length: 1 },
    // A typo in the nested platform's type is reported there, with its suggestion.
    {
      text: 'urn:li:dataset:(urn:li:dataPlatfrom:hive,t,PROD)',
      message: "unknown entity type 'dataPlatfrom' (did you mean dataPlatform?)",
      offset: 23,
      length: 12,
    },
  ],
  'nested kind is not a platform': [
    {
      text: 'urn:li:mlModel:(urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD),m,PROD)',
      message: 'platform must be urn:li:dataPlatform:<name>, found a dataset URN',
      offset: 16,
      length: 48,
    },
    {
      text: 'urn:li:dataset:(urn:li:tag:hive,db.users,PROD)',
      message: 'platform must be urn:li:dataPlatform:<name>, found a tag URN',
      offset: 16,
      length: 15,
    },
  ],
  'id missing': [
    { text: 'urn:li:corpuser:', message: "the corpuser id is missing after 'urn:li:corpuser:'", offset: 16, length: 0 },
    { text: 'urn:li:dataset:', message: "the dataset id is missing after 'urn:li:dataset:'", offset: 15, length: 0 },
    {
      text: 'urn:li:dataset:(urn:li:dataPlatform:,db.users,PROD)',
      message: "the dataPlatform id is missing after 'urn:li:dataPlatform:'",
      offset: 36,
      length: 1,
    },
  ],
  'empty part of another kind': [
    // A custom entity type: its key is unknown, so only the frame is checked.
    { text: 'urn:li:myThing:(a,)', message: 'part 2 of the myThing id is empty', offset: 18, length: 1 },
  ],
  'tuple expected': [
    {
      text: 'urn:li:dataset:hive,db.users,PROD',
      message: "expected '(' after 'urn:li:dataset:': a dataset URN is urn:li:dataset:(platform,name,env)",
      offset: 15,
      length: 1,
    },
    {
      text: 'urn:svc:mlFeature:t.f',
      message: "expected '(' after 'urn:svc:mlFeature:': a mlFeature URN is urn:svc:mlFeature:(feature table,feature)",
      offset: 18,
      length: 1,
    },
    {
      text: 'urn:li:dataJob:abc',
      message: "expected '(' after 'urn:li:dataJob:': a dataJob URN is urn:li:dataJob:(flow,job id)",
      offset: 15,
      length: 1,
    },
  ],
  'part count': [
    {
      text: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users)',
      message: 'expected 3 parts (platform, name, env), found 2',
      offset: 15,
      length: 35,
    },
    {
      text: 'urn:li:mlFeature:(a,b,c)',
      message: 'expected 2 parts (feature table, feature), found 3',
      offset: 17,
      length: 7,
    },
    {
      text: 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast)',
      message: 'expected 2 parts (platform, feature table), found 1',
      offset: 22,
      length: 27,
    },
    {
      text: 'urn:li:mlModel:(urn:li:dataPlatform:p,m)',
      message: 'expected 3 parts (platform, model name, env), found 2',
      offset: 15,
      length: 25,
    },
    {
      text: 'urn:li:mlModelGroup:(urn:li:dataPlatform:p,g,PROD,x)',
      message: 'expected 3 parts (platform, group name, env), found 4',
      offset: 20,
      length: 32,
    },
    // Registry kinds: the parts are named from the key aspect's fields.
    {
      text: `urn:li:schemaField:(${DS},a,b)`,
      message: 'expected 2 parts (parent, field path), found 3',
      offset: 19,
      length: 61,
    },
    {
      text: 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,prod))',
      message: 'expected 2 parts (flow, job id), found 1',
      offset: 15,
      length: 36,
    },
    { text: 'urn:li:tag:(a,b)', message: 'expected 1 part (name), found 2', offset: 11, length: 5 },
  ],
  'empty part': [
    { text: 'urn:li:dataset:(,db.users,PROD)', message: 'platform is empty', offset: 16, length: 1 },
    { text: 'urn:li:dataset:(urn:li:dataPlatform:hive,,PROD)', message: 'name is empty', offset: 41, length: 1 },
    { text: 'urn:li:mlFeature:(,f)', message: 'feature table is empty', offset: 18, length: 1 },
    { text: 'urn:li:mlFeature:(t,)', message: 'feature is empty', offset: 20, length: 1 },
    { text: 'urn:li:mlModel:(urn:li:dataPlatform:p,,PROD)', message: 'model name is empty', offset: 38, length: 1 },
    {
      text: 'urn:li:mlModelGroup:(urn:li:dataPlatform:p,,PROD)',
      message: 'group name is empty',
      offset: 43,
      length: 1,
    },
    { text: 'urn:li:mlModel:(urn:li:dataPlatform:p,m,)', message: 'env is empty', offset: 40, length: 1 },
    {
      text: 'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD),)',
      message: 'field path is empty',
      offset: 69,
      length: 1,
    },
    { text: 'urn:li:dataFlow:(airflow,,prod)', message: 'flow id is empty', offset: 25, length: 1 },
  ],
  'platform not a URN': [
    {
      text: 'urn:li:dataset:(hive,db.users,PROD)',
      message: "platform must be urn:li:dataPlatform:<name>, found 'hive'",
      offset: 16,
      length: 4,
    },
    {
      text: 'urn:svc:mlFeatureTable:(feast,t)',
      message: "platform must be urn:svc:dataPlatform:<name>, found 'feast'",
      offset: 24,
      length: 5,
    },
  ],
  'key part typed Urn is not a URN': [
    {
      text: 'urn:li:dataJob:(airflow,task)',
      message: "flow must be a URN (urn:li:<entity type>:<id>), found 'airflow'",
      offset: 16,
      length: 7,
    },
    {
      text: 'urn:svc:schemaField:(db.users,user_id)',
      message: "parent must be a URN (urn:svc:<entity type>:<id>), found 'db.users'",
      offset: 21,
      length: 8,
    },
    {
      text: 'urn:li:dataPlatformInstance:(mysql,prod_instance)',
      message: "platform must be a URN (urn:li:<entity type>:<id>), found 'mysql'",
      offset: 29,
      length: 5,
    },
  ],
  'env word': [
    {
      text: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PR OD)',
      message: "env must be a word such as PROD, found 'PR OD'",
      offset: 50,
      length: 5,
    },
    {
      text: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,prod-1)',
      message: "env must be a word such as PROD, found 'prod-1'",
      offset: 50,
      length: 6,
    },
    {
      text: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users, PROD)',
      message: "env must be a word such as PROD, found ' PROD'",
      offset: 50,
      length: 5,
    },
    {
      text: 'urn:li:dataProcess:(etl,airflow,PR OD)',
      message: "origin must be a word such as PROD, found 'PR OD'",
      offset: 32,
      length: 5,
    },
  ],
  'stray closing parenthesis': [
    { text: `${DS})`, message: "unbalanced parenthesis: this ')' has no matching '('", offset: 55, length: 1 },
  ],
  'text after the tuple': [
    { text: `${DS} x`, message: "unexpected text after the closing ')': ' x'", offset: 55, length: 2 },
    { text: `${DS} `, message: "unexpected text after the closing ')': ' '", offset: 55, length: 1 },
    {
      text: 'urn:li:dataset:(urn:li:dataPlatform:hive,db)users,PROD)',
      message: "unexpected text after the closing ')': 'users,PROD)'",
      offset: 44,
      length: 11,
    },
  ],
  'unclosed parenthesis': [
    { text: DS.slice(0, -1), message: "unbalanced parenthesis: this '(' is never closed", offset: 15, length: 1 },
    // The innermost '(' left open is the one shown: here the one inside the name.
    {
      text: 'urn:li:dataset:(urn:li:dataPlatform:hive,db(users,PROD',
      message: "unbalanced parenthesis: this '(' is never closed",
      offset: 43,
      length: 1,
    },
    {
      text: 'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD),c',
      message: "unbalanced parenthesis: this '(' is never closed",
      offset: 19,
      length: 1,
    },
  ],
  'whitespace at either end of a part': [
    {
      text: 'urn:li:dataset:(urn:li:dataPlatform:hive, db.users,PROD)',
      message: "name ' db.users' has leading or trailing whitespace, which DataHub keeps as part of the name",
      offset: 41,
      length: 9,
    },
    {
      text: 'urn:li:corpuser:jdoe ',
      message: "user id 'jdoe ' has leading or trailing whitespace, which DataHub keeps as part of the name",
      offset: 16,
      length: 5,
    },
    {
      text: 'urn:li:mlFeature:(t,f\t)',
      message: "feature 'f\t' has leading or trailing whitespace, which DataHub keeps as part of the name",
      offset: 20,
      length: 2,
    },
    {
      text: 'urn:li:dataset:(urn:li:dataPlatform:hive ,t,PROD)',
      message: "platform name 'hive ' has leading or trailing whitespace, which DataHub keeps as part of the name",
      offset: 36,
      length: 5,
    },
  ],
  'parenthesis inside a part': [
    {
      text: 'urn:li:dataset:(urn:li:dataPlatform:external,sample (new).xls,PROD)',
      message: "'(' is not allowed inside a name; DataHub writes it as %28",
      offset: 52,
      length: 1,
    },
    {
      text: 'urn:li:corpuser:j)doe',
      message: "')' is not allowed inside a user id; DataHub writes it as %29",
      offset: 17,
      length: 1,
    },
    {
      text: 'urn:li:tag:a(b',
      message: "'(' is not allowed inside an id; DataHub writes it as %28",
      offset: 12,
      length: 1,
    },
    {
      text: 'urn:li:mlFeature:(t(x),f)',
      message: "'(' is not allowed inside a feature table; DataHub writes it as %28",
      offset: 19,
      length: 1,
    },
  ],
  'unit separator': [
    {
      text: 'urn:li:dataset:(urn:li:dataPlatform:hive,db\u241Fusers,PROD)',
      message: "'\u241F' is reserved in URNs; DataHub writes it as %E2%90%9F",
      offset: 43,
      length: 1,
    },
    {
      text: 'urn:li:tag:a\u241F',
      message: "'\u241F' is reserved in URNs; DataHub writes it as %E2%90%9F",
      offset: 12,
      length: 1,
    },
  ],
  'control character': [
    {
      text: 'urn:li:dataset:(urn:li:dataPlatform:hive,db\u0000users,PROD)',
      message: 'a control character (U+0000) is not allowed in a name',
      offset: 43,
      length: 1,
    },
    {
      text: 'urn:li:dataset:(urn:li:dataPlatform:hive,db\nusers,PROD)',
      message: 'a control character (U+000A) is not allowed in a name',
      offset: 43,
      length: 1,
    },
    {
      text: 'urn:li:mlModel:(urn:li:dataPlatform:p,m\u007F1,PROD)',
      message: 'a control character (U+007F) is not allowed in a model name',
      offset: 39,
      length: 1,
    },
    {
      text: 'urn:li:mlFeature:(t,f\u00851)',
      message: 'a control character (U+0085) is not allowed in a feature',
      offset: 21,
      length: 1,
    },
    {
      text: 'urn:li:tag:a\u0007b',
      message: 'a control character (U+0007) is not allowed in an id',
      offset: 12,
      length: 1,
    },
  ],
  'comma in a one-part id': [
    {
      text: 'urn:li:corpuser:doe,john',
      message: "',' is not allowed in a user id; DataHub writes it as %2C",
      offset: 19,
      length: 1,
    },
    {
      text: 'urn:li:dataPlatform:a,b',
      message: "',' is not allowed in a platform name; DataHub writes it as %2C",
      offset: 21,
      length: 1,
    },
    { text: 'urn:li:tag:a,b', message: "',' is not allowed in an id; DataHub writes it as %2C", offset: 12, length: 1 },
  ],
};

describe('every parser error, with its exact offset and length', () => {
  for (const [site, cases] of Object.entries(CATALOGUE)) {
    for (const c of cases) {
      test(`${site}: ${JSON.stringify(c.text)} → ${c.message}`, () => {
        assert.deepEqual(parseUrn(c.text), {
          ok: false,
          error: { message: c.message, offset: c.offset, length: c.length },
        });
      });
    }
  }

  test('the catalogue has one entry per fail() site of model/src/urn.ts', () => {
    const source = readFileSync(join(REPO_ROOT, 'model', 'src', 'urn.ts'), 'utf8');
    const sites = source.split('\n').filter((l) => /\bfail\(/.test(l) && !/function fail\(/.test(l)).length;
    assert.equal(
      Object.keys(CATALOGUE).length,
      sites,
      'urn.ts gained or lost an error: add its cases to CATALOGUE (one entry per fail() call)',
    );
  });
});

describe('"did you mean" suggestions for an entity type', () => {
  test('wrong case finds the kind whatever the letters', () => {
    assert.equal(suggestKind('MLMODEL'), 'mlModel');
    assert.equal(suggestKind('dataplatform'), 'dataPlatform');
    assert.equal(suggestKind('SchemaField'), 'schemaField');
  });

  test('a typo of a name of 6 or more characters, one edit away, finds the nearest kind', () => {
    assert.equal(suggestKind('mlFeatur'), 'mlFeature');
    assert.equal(suggestKind('datset'), 'dataset');
    assert.equal(suggestKind('mlFeatureTabel'), 'mlFeatureTable');
    assert.equal(suggestKind('glossaryTrem'), 'glossaryTerm');
    assert.equal(suggestKind('glosaryTerm'), 'glossaryTerm');
    assert.equal(suggestKind('dashbord'), 'dashboard');
    assert.equal(suggestKind('structuredPropery'), 'structuredProperty');
  });

  test('two edits count only from 12 characters on (dataHubFile and dataHubRole are 2 edits apart)', () => {
    assert.equal(suggestKind('dataPltformInstnce'), 'dataPlatformInstance');
    assert.equal(suggestKind('structuredPropty'), 'structuredProperty');
    assert.equal(suggestKind('glosaryTrem'), undefined); // 11 characters, 2 edits: read as a custom type
    assert.equal(suggestKind('dataHubRule'), 'dataHubRole'); // 1 edit
    assert.equal(suggestKind('dastet'), undefined); // 6 characters, 2 edits from dataset: not "corrected"
    assert.equal(suggestKind('matrix'), undefined); // 2 edits from metric
  });

  test('a plural of a registry type is a mistake for it, whatever its length', () => {
    assert.equal(suggestKind('tags'), 'tag');
    assert.equal(suggestKind('mlModelGroups'), 'mlModelGroup');
    assert.equal(suggestKind('forms'), 'form');
    assert.equal(suggestKind('Datasets'), 'dataset');
  });

  test('names under 6 characters get no edit-distance suggestion: short custom types stay custom', () => {
    for (const custom of ['foo', 'job', 'ab', 'chat', 'text', 'host', 'tga', 'rule', 'metro']) {
      assert.equal(suggestKind(custom), undefined, custom);
    }
    // … so a short typo is not caught either: it is read as a custom type (an Information, not an Error).
    assert.equal(suggestKind('chrat'), undefined);
  });

  test('longer custom names near no registry type get no suggestion', () => {
    for (const custom of ['widget', 'myCompanyThing', 'pipelineRun', 'featureStore', 'dataHubWidget', 'reportCard']) {
      assert.equal(suggestKind(custom), undefined, custom);
    }
  });

  test('no registry type is a "typo" of another under the rule (they are looked up first anyway)', () => {
    for (const t of REGISTRY_ENTITY_TYPES) {
      const others = REGISTRY_ENTITY_TYPES.filter((o) => o !== t);
      const lower = t.toLowerCase();
      for (const o of others) {
        const ol = o.toLowerCase();
        assert.notEqual(lower, ol, `${t} and ${o} differ only in case`);
        assert.notEqual(lower, `${ol}s`, `${t} is the plural of ${o}`);
        if (t.length >= 6) {
          const limit = t.length >= 12 ? 2 : 1;
          assert.ok(editDistance(lower, ol, limit) > limit, `${t} is within ${limit} edit(s) of ${o}`);
        }
      }
    }
  });

  test('editDistance is Levenshtein, cut off past its limit', () => {
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(editDistance('', 'abc'), 3);
    assert.equal(editDistance('same', 'same'), 0);
    assert.equal(editDistance('mlfeatur', 'mlfeature', 2), 1);
    assert.ok(editDistance('dataset', 'glossaryterm', 2) > 2);
  });
});
