/**
 * DataHub's entity registry in the URN grammar: every registry type parses with its key's
 * arity, wrong arities and non-URN parts are errors naming the parts, schemaField has a typed
 * value, and a type no registry knows is a custom type (valid, marked `registered: false`).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENTITY_REGISTRY, REGISTRY_ENTITY_TYPES, type KeyField } from '../../model/src/registry';
import { decodePart, parseUrn, printUrn, withNamespace, type ParseResult, type PartRole } from '../../model/src/urn';

const NAMESPACES = ['li', 'svc'];

function ok(text: string): ParseResult & { ok: true } {
  const r = parseUrn(text);
  assert.ok(r.ok, `${text}: ${r.ok ? '' : r.error.message}`);
  return r;
}

function error(text: string): string {
  const r = parseUrn(text);
  assert.ok(!r.ok, `${text} parsed`);
  return r.error.message;
}

/** A valid part for a key field, in namespace `ns`. */
function samplePart(f: KeyField, ns: string, i: number): string {
  if (f.type === 'urn' && f.name === 'platform') return `urn:${ns}:dataPlatform:platform_${i}`;
  if (f.type === 'urn') return `urn:${ns}:dataset:(urn:${ns}:dataPlatform:hive,db.part_${i},PROD)`;
  if (f.type === 'enum') return 'PROD';
  return `${f.name}_${i}`;
}

function sampleUrn(entityType: string, ns: string): string {
  const fields = ENTITY_REGISTRY.get(entityType)!.fields;
  if (fields.length === 1) return `urn:${ns}:${entityType}:sample.id-1`;
  return `urn:${ns}:${entityType}:(${fields.map((f, i) => samplePart(f, ns, i)).join(',')})`;
}

describe('the registry table', () => {
  test('66 entity types, each with a key of 1 to 3 fields named as DataHub names them', () => {
    assert.equal(REGISTRY_ENTITY_TYPES.length, 66);
    assert.equal(new Set(REGISTRY_ENTITY_TYPES).size, 66, 'no type twice');
    for (const t of REGISTRY_ENTITY_TYPES) {
      const e = ENTITY_REGISTRY.get(t)!;
      assert.ok(e.fields.length >= 1 && e.fields.length <= 3, t);
      assert.match(e.keyAspect, /^[a-z][A-Za-z]*Key$/, t);
    }
  });

  test('the tuple keys, with their arity and which parts are URNs', () => {
    const tuples = REGISTRY_ENTITY_TYPES.filter((t) => ENTITY_REGISTRY.get(t)!.fields.length > 1).map(
      (t) =>
        `${t}(${ENTITY_REGISTRY.get(t)!
          .fields.map((f) => (f.type === 'string' ? f.name : `${f.name}:${f.type}`))
          .join(',')})`,
    );
    assert.deepEqual(tuples, [
      'dataset(platform:urn,name,origin:enum)',
      'dataJob(flow:urn,jobId)',
      'dataFlow(orchestrator,flowId,cluster)',
      'dataProcess(name,orchestrator,origin:enum)',
      'chart(dashboardTool,chartId)',
      'dashboard(dashboardTool,dashboardId)',
      'notebook(notebookTool,notebookId)',
      'dataHubRetention(entityName,aspectName)',
      'dataPlatformInstance(platform:urn,instance)',
      'mlModel(platform:urn,name,origin:enum)',
      'mlModelGroup(platform:urn,name,origin:enum)',
      'mlModelDeployment(platform:urn,name,origin:enum)',
      'mlFeatureTable(platform:urn,name)',
      'mlFeature(featureNamespace,name)',
      'mlPrimaryKey(featureNamespace,name)',
      'schemaField(parent:urn,fieldPath)',
      'versionSet(id,entityType)',
      'semanticModel(platform,id)',
      'metric(platform:urn,path,id)',
    ]);
  });
});

describe('one valid URN for every registry entity type, in both namespaces', () => {
  for (const t of REGISTRY_ENTITY_TYPES) {
    test(t, () => {
      for (const ns of NAMESPACES) {
        const text = sampleUrn(t, ns);
        const r = ok(text);
        assert.equal(r.urn.namespace, ns);
        assert.equal(printUrn(r.urn), text);
        if (r.urn.kind === 'other') {
          assert.equal(r.urn.entityType, t);
          assert.equal(r.urn.registered, undefined, 'a registry type carries no marker');
        } else {
          assert.equal(r.urn.kind, t);
        }
      }
    });
  }
});

describe('realistic URNs of registry types parse, with no error', () => {
  const REALISTIC = [
    'urn:li:entityType:datahub.dataset',
    'urn:li:dataType:datahub.string',
    'urn:li:structuredProperty:io.acryl.privacy.retentionTime',
    'urn:li:form:4b1c5e9a-0f3d-4d1b-9c35-7a0a3e1a2b44',
    'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_id,prod),task_id)',
    'urn:li:dataFlow:(spark,nightly_rollup,emr-eu-1)',
    'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD),user_id)',
    'urn:li:dataProcessInstance:3f1f8b2c9d0e4a7b8c6d5e4f3a2b1c0d',
    'urn:li:assertion:8d6f1c3e-2b4a-4f0d-9e7c-1a2b3c4d5e6f',
    'urn:li:incident:7e2a9c41-5b3d-4e8f-a1c2-9d0b8e7f6a5c',
    'urn:li:application:payments-service',
    'urn:li:glossaryTerm:Classification.Sensitive',
    'urn:li:glossaryNode:Classification',
    'urn:li:corpGroup:data-eng',
    'urn:li:chart:(looker,dashboard_elements.1)',
    'urn:li:dashboard:(tableau,sales-overview)',
    'urn:li:dataPlatformInstance:(urn:li:dataPlatform:mysql,prod_instance)',
    'urn:li:mlPrimaryKey:(user_features,user_id)',
    'urn:li:mlModelDeployment:(urn:li:dataPlatform:sagemaker,churn-endpoint,PROD)',
    'urn:li:dataProcess:(nightly_etl,airflow,PROD)',
    'urn:li:container:5f0e1d2c3b4a59687766554433221100',
    'urn:li:domain:marketing',
    'urn:li:tag:pii',
    'urn:li:dataProduct:customer-360',
    'urn:li:dataHubExecutionRequest:manual-2024-01-31-ingest',
    'urn:li:dataHubRetention:(dataset,datasetProfile)',
    'urn:li:versionSet:(churn-model-versions,mlModel)',
    'urn:li:notebook:(querybook,773)',
    'urn:li:query:f1e2d3c4b5a6',
    'urn:li:globalSettings:0',
    'urn:li:ownershipType:__system__technical_owner',
    'urn:li:dataContract:orders-contract',
    'urn:li:businessAttribute:customer_email',
    'urn:li:platformResource:slack-user-U024BE7LH',
    'urn:li:metric:(urn:li:dataPlatform:dbt,finance.revenue,monthly_recurring_revenue)',
    'urn:li:semanticModel:(dbt,orders_model)',
    'urn:li:schemaField:(urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_id,prod),task_id),output.rows)',
  ];
  for (const text of REALISTIC) {
    test(text, () => {
      for (const ns of NAMESPACES) {
        const t = text.replaceAll('urn:li:', `urn:${ns}:`);
        assert.equal(printUrn(ok(t).urn), t);
      }
    });
  }
});

describe('a tuple key of the wrong arity is an error naming the parts', () => {
  for (const t of REGISTRY_ENTITY_TYPES) {
    const fields = ENTITY_REGISTRY.get(t)!.fields;
    if (fields.length < 2) continue;
    test(t, () => {
      const parts = fields.map((f, i) => samplePart(f, 'li', i));
      const labels = fields.map((f) => f.label);
      // The spec kinds keep their own labels (feature table, model name …).
      const named = (m: string): void =>
        assert.match(m, new RegExp(`^expected ${fields.length} parts \\(.+\\), found \\d$`));
      const fewer = error(`urn:li:${t}:(${parts.slice(0, -1).join(',')})`);
      const more = error(`urn:li:${t}:(${[...parts, 'extra'].join(',')})`);
      named(fewer);
      named(more);
      assert.ok(fewer.endsWith(`found ${fields.length - 1}`) && more.endsWith(`found ${fields.length + 1}`));
      if (!['dataset', 'mlFeature', 'mlFeatureTable', 'mlModel', 'mlModelGroup'].includes(t)) {
        assert.equal(more, `expected ${fields.length} parts (${labels.join(', ')}), found ${fields.length + 1}`);
      }
    });
  }

  test('schemaField: (parent, field path)', () => {
    assert.equal(
      error('urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD),a,b)'),
      'expected 2 parts (parent, field path), found 3',
    );
    assert.equal(
      error('urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD))'),
      'expected 2 parts (parent, field path), found 1',
    );
  });

  test('a one-field key written as a tuple of more parts', () => {
    assert.equal(error('urn:li:glossaryTerm:(Classification,Sensitive)'), 'expected 1 part (name), found 2');
    assert.equal(error('urn:li:dataHubExecutionRequest:(a,b)'), 'expected 1 part (id), found 2');
  });

  test('a tuple key written as a simple id', () => {
    assert.equal(
      error('urn:li:chart:looker.1'),
      "expected '(' after 'urn:li:chart:': a chart URN is urn:li:chart:(dashboard tool,chart id)",
    );
  });
});

describe('a part DataHub types as a URN must be one, and is parsed', () => {
  test('not a URN', () => {
    assert.equal(
      error('urn:li:dataJob:(dag_id,task_id)'),
      "flow must be a URN (urn:li:<entity type>:<id>), found 'dag_id'",
    );
    assert.equal(
      error('urn:li:dataPlatformInstance:(mysql,prod)'),
      "platform must be a URN (urn:li:<entity type>:<id>), found 'mysql'",
    );
    assert.equal(
      error('urn:svc:metric:(dbt,finance,mrr)'),
      "platform must be a URN (urn:svc:<entity type>:<id>), found 'dbt'",
    );
  });

  test('a nested URN is checked in turn, with the error at its place', () => {
    const text = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_id),task_id)';
    const r = parseUrn(text);
    assert.deepEqual(r, {
      ok: false,
      error: { message: 'expected 3 parts (orchestrator, flow id, cluster), found 2', offset: 32, length: 16 },
    });
    assert.equal(
      error('urn:li:schemaField:(urn:li:datset:(urn:li:dataPlatform:hive,t,PROD),c)'),
      "unknown entity type 'datset' (did you mean dataset?)",
    );
  });

  test('nesting is bounded: four levels below the URN are read, a fifth is an error, and depth costs no stack', () => {
    const nest = (levels: number): string =>
      'urn:li:schemaField:('.repeat(levels) + 'urn:li:tag:x' + ',f)'.repeat(levels);
    assert.ok(parseUrn(nest(4)).ok);
    assert.equal(error(nest(5)), 'URNs nested more than 4 levels deep are not read');
    const r = parseUrn(nest(20000));
    assert.ok(!r.ok && r.error.message === 'URNs nested more than 4 levels deep are not read');
  });

  test('the strict rules hold inside registry keys too', () => {
    assert.equal(error('urn:li:chart:(looker,a(b)'), "unbalanced parenthesis: this '(' is never closed");
    assert.equal(
      error('urn:li:chart:(looker,a b )'),
      "chart id 'a b ' has leading or trailing whitespace, which DataHub keeps as part of the name",
    );
    assert.equal(
      error('urn:li:dataFlow:(airflow,da\u0000g,prod)'),
      'a control character (U+0000) is not allowed in a flow id',
    );
    assert.equal(error('urn:li:glossaryTerm:a,b'), "',' is not allowed in an id; DataHub writes it as %2C");
    assert.equal(error('urn:li:mlPrimaryKey:(ns,)'), 'name is empty');
  });
});

describe('schemaField: a typed value', () => {
  const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';

  test('the parent dataset, parsed, and the field path', () => {
    const text = `urn:li:schemaField:(${DS},user_id)`;
    assert.deepEqual(ok(text).urn, {
      kind: 'schemaField',
      namespace: 'li',
      parent: DS,
      dataset: { kind: 'dataset', namespace: 'li', platform: 'hive', name: 'db.users', env: 'PROD' },
      fieldPath: 'user_id',
    });
  });

  test('a v2 field path stays as written; decodePart gives the reading of an encoded one', () => {
    const v2 = '[version=2.0].[type=struct].address.[type=string].zip';
    const r = ok(`urn:svc:schemaField:(urn:svc:dataset:(urn:svc:dataPlatform:kafka,events.signup,PROD),${v2})`);
    assert.equal(r.urn.kind === 'schemaField' && r.urn.fieldPath, v2);
    assert.equal(r.urn.kind === 'schemaField' && r.urn.dataset?.platform, 'kafka');
    const encoded = ok(`urn:li:schemaField:(${DS},totals%2C net %28EUR%29)`);
    assert.equal(encoded.urn.kind === 'schemaField' && decodePart(encoded.urn.fieldPath), 'totals, net (EUR)');
  });

  test('a parent of another kind is valid, without `dataset`', () => {
    const parent = 'urn:li:chart:(looker,dashboard_elements.1)';
    assert.deepEqual(ok(`urn:li:schemaField:(${parent},x)`).urn, {
      kind: 'schemaField',
      namespace: 'li',
      parent,
      fieldPath: 'x',
    });
    const custom = 'urn:li:myCompanyThing:abc';
    assert.deepEqual(ok(`urn:li:schemaField:(${custom},x)`).urn, {
      kind: 'schemaField',
      namespace: 'li',
      parent: custom,
      fieldPath: 'x',
    });
  });

  test("part ranges: parent, the dataset's platform, name and env, and the field path", () => {
    const text = `urn:li:schemaField:(${DS},[version=2.0].[type=string].email)`;
    const r = ok(text);
    const at = (role: PartRole): string[] =>
      r.parts.filter((p) => p.role === role).map((p) => text.slice(p.start, p.end));
    assert.deepEqual(
      r.parts.map((p) => p.role),
      ['namespace', 'kind', 'parent', 'platform', 'name', 'env', 'fieldPath'],
    );
    assert.deepEqual(at('parent'), [DS]);
    assert.deepEqual(at('platform'), ['hive']);
    assert.deepEqual(at('name'), ['db.users']);
    assert.deepEqual(at('env'), ['PROD']);
    assert.deepEqual(at('fieldPath'), ['[version=2.0].[type=string].email']);
    assert.deepEqual(at('kind'), ['schemaField']);
  });

  test('round trip, and the same entity in the other namespace', () => {
    const text = `urn:li:schemaField:(${DS},user_id)`;
    const u = ok(text).urn;
    assert.equal(printUrn(u), text);
    const svc = withNamespace(u, 'svc');
    assert.equal(printUrn(svc), text.replaceAll('urn:li:', 'urn:svc:'));
    assert.deepEqual(ok(printUrn(svc)).urn, svc);
    const job = ok('urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_id,prod),task_id)').urn;
    assert.equal(
      printUrn(withNamespace(job, 'svc')),
      'urn:svc:dataJob:(urn:svc:dataFlow:(airflow,dag_id,prod),task_id)',
    );
  });
});

describe('a type no registry knows is a custom type: valid, marked, only its frame checked', () => {
  test('a simple id and a tuple frame', () => {
    assert.deepEqual(ok('urn:li:myCompanyThing:abc').urn, {
      kind: 'other',
      namespace: 'li',
      entityType: 'myCompanyThing',
      id: 'abc',
      registered: false,
    });
    assert.deepEqual(ok('urn:svc:pipelineRun:(urn:svc:dataFlow:(airflow,nightly,prod),42,x)').urn, {
      kind: 'other',
      namespace: 'svc',
      entityType: 'pipelineRun',
      id: '(urn:svc:dataFlow:(airflow,nightly,prod),42,x)',
      registered: false,
    });
    assert.deepEqual(ok('urn:li:job:x').urn, {
      kind: 'other',
      namespace: 'li',
      entityType: 'job',
      id: 'x',
      registered: false,
    });
    assert.equal(printUrn(ok('urn:li:foo:bar').urn), 'urn:li:foo:bar');
  });

  test('its frame is still checked: balanced, no empty part, no comma in a simple id', () => {
    assert.equal(error('urn:li:myThing:(a,)'), 'part 2 of the myThing id is empty');
    assert.equal(error('urn:li:myThing:(a,(b)'), "unbalanced parenthesis: this '(' is never closed");
    assert.equal(error('urn:li:myThing:a,b'), "',' is not allowed in an id; DataHub writes it as %2C");
  });

  test('a near miss of a registry type is an error with a suggestion, not a custom type', () => {
    assert.equal(
      error('urn:li:datset:(urn:li:dataPlatform:hive,t,PROD)'),
      "unknown entity type 'datset' (did you mean dataset?)",
    );
    assert.equal(
      error('urn:li:Dataset:(urn:li:dataPlatform:hive,t,PROD)'),
      "unknown entity type 'Dataset' (did you mean dataset?)",
    );
    assert.equal(
      error('urn:li:glosaryTerm:Classification.Sensitive'),
      "unknown entity type 'glosaryTerm' (did you mean glossaryTerm?)",
    );
    assert.equal(
      error('urn:li:EntityType:datahub.dataset'),
      "unknown entity type 'EntityType' (did you mean entityType?)",
    );
  });
});
