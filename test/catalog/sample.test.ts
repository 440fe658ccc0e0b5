/**
 * The sample data (`--sample`) loads idempotently through the proposal path, and the demo
 * workspace in examples/ matches it: every URN there resolves, except the ones meant not to.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { PYTHON_BUILDERS } from '../../model/src/builders';
import { simplePath } from '../../model/src/fieldPath';
import { parseUrn } from '../../model/src/urn';
import { NamespacePolicy } from '../../catalog/src/namespaces';
import { loadSample, SAMPLE } from '../../catalog/src/sample';
import { startCatalog } from '../../catalog/src/server';
import { AspectStore } from '../../catalog/src/store';
import { ENTITY_EXISTS } from './documents';
import { getEntity, gqlData, testCatalog, type Json } from './helpers';
import type { RunningCatalog } from '../../catalog/src/server';

const EXAMPLES = path.resolve(__dirname, '..', '..', '..', 'examples');
const read = (rel: string): string => readFileSync(path.join(EXAMPLES, rel), 'utf8');

/** URN literals in a text: `urn:<ns>:<type>:` followed by a balanced id. */
function urnsIn(text: string): string[] {
  const out: string[] = [];
  const re = /urn:[A-Za-z][\w-]*:[A-Za-z]+:/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    let i = re.lastIndex;
    let depth = 0;
    for (; i < text.length; i++) {
      const c = text[i]!;
      if (c === '(') depth++;
      else if (c === ')') {
        if (depth === 0) break;
        if (--depth === 0) {
          i++;
          break;
        }
      } else if (depth === 0 && /[\s"',{}]/.test(c)) break;
    }
    out.push(text.slice(m.index, i));
    re.lastIndex = i;
  }
  return out.filter((u) => !u.includes('{'));
}

async function exists(catalog: RunningCatalog, urn: string): Promise<boolean> {
  return (await gqlData(catalog, ENTITY_EXISTS, { urn }))['entityExists'] as boolean;
}

const GHOSTS: string[] = [SAMPLE.missing.dataset, SAMPLE.missing.feature];

describe('sample data', () => {
  test('loading the sample again changes nothing: every aspect stays at version 1', async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'catalog-sample-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const db = path.join(dir, 'catalog.db');
    await (await startCatalog({ port: 0, db, sample: true })).close();
    const store = new AspectStore(db, 'full', 'li');
    t.after(() => store.close());
    const count = store.count();
    assert.equal(count, 72);
    assert.equal(loadSample(store, new NamespacePolicy(), 'urn:li:corpuser:datahub'), 0, 'no aspect changed');
    assert.equal(store.count(), count);
    for (const urn of Object.values(SAMPLE.datasets)) {
      for (const a of store.getAll(urn).values()) assert.equal(a.version, 1, `${urn} ${a.aspect}`);
    }
  });

  test('the sample holds what it names and not the ghosts', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const named = [SAMPLE.datasets, SAMPLE.features, SAMPLE.featureTables, SAMPLE.modelGroups, SAMPLE.models].flatMap(
      (o) => Object.values(o),
    );
    for (const urn of named) assert.equal(await exists(catalog, urn), true, urn);
    for (const urn of GHOSTS) {
      assert.equal(await exists(catalog, urn), false, urn);
      assert.deepEqual((await getEntity(catalog, urn)).body['aspects'], {});
    }
  });
});

describe('examples/ matches the sample', () => {
  test('features.py: every URN literal resolves except db.ghost; the broken one does not parse', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const urns = urnsIn(read('pipelines/features.py'));
    const malformed = urns.filter((u) => !parseUrn(u).ok);
    assert.deepEqual(malformed, ['urn:li:dataset:(urn:li:dataPlatform:hive,db.users)']);
    const kinds = new Set<string>();
    for (const urn of urns.filter((u) => parseUrn(u).ok)) {
      const parsed = parseUrn(urn);
      if (!parsed.ok) continue;
      kinds.add(parsed.urn.kind);
      if (parsed.urn.kind === 'corpuser' || parsed.urn.kind === 'dataPlatform') continue;
      assert.equal(await exists(catalog, urn), !GHOSTS.includes(urn), urn);
    }
    assert.deepEqual([...kinds].sort(), [
      'corpuser',
      'dataset',
      'mlFeature',
      'mlFeatureTable',
      'mlModel',
      'mlModelGroup',
    ]);
  });

  test('features.py: every builder call with literal arguments builds a sample URN', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const text = read('pipelines/features.py');
    const calls = [...text.matchAll(/(?:builder\.)?(make_\w+)\(([^()]*)\)/g)].filter((m) => m[2]!.trim() !== '');
    const built = calls.map((m) => {
      const spec = PYTHON_BUILDERS[m[1]!];
      assert.ok(spec, m[0]);
      const args: string[] = [];
      for (const raw of m[2]!.split(',').map((s) => s.trim())) {
        const kw = /^(\w+)=(["'])(.*)\2$/.exec(raw);
        const pos = /^(["'])(.*)\1$/.exec(raw);
        if (kw) args[spec.params.indexOf(kw[1]!)] = kw[3]!;
        else if (pos) args[args.length] = pos[2]!;
        else assert.fail(`not a literal argument: ${raw} in ${m[0]}`);
      }
      spec.params.forEach((p, i) => {
        if (args[i] === undefined && spec.defaults?.[p] !== undefined) args[i] = spec.defaults[p]!;
      });
      return { call: m[0], urn: spec.build('li', args) };
    });
    assert.ok(built.length >= 10, `found ${built.length} builder calls`);
    assert.ok(built.some((b) => b.call.startsWith('builder.make_')) && built.some((b) => b.call.includes('=')));
    for (const b of built) {
      if (b.urn.startsWith('urn:li:corpuser:')) continue;
      assert.equal(await exists(catalog, b.urn), true, `${b.call} → ${b.urn}`);
    }
  });

  test('svc_namespace.py and revenue.sql: every URN resolves', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    for (const file of ['pipelines/svc_namespace.py', 'sql/revenue.sql']) {
      const urns = urnsIn(read(file)).filter((u) => !/^urn:\w+:(corpuser|dataPlatform):/.test(u));
      assert.ok(urns.length >= 3, file);
      for (const urn of urns) assert.equal(await exists(catalog, urn), true, `${file}: ${urn} (${urns.join(' ')})`);
    }
  });

  test('catalog/*.yml: datasets and columns exist; the listed differences from the catalog are real', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const doc =
      'query cols($urn: String!) { dataset(urn: $urn) { schemaMetadata { fields { fieldPath description } } } }';
    const datasets = (
      parseYaml(read('catalog/datasets.yml')) as {
        datasets: Array<{ urn: string; columns?: Array<{ name: string }>; fields?: Array<{ fieldPath: string }> }>;
      }
    ).datasets;
    assert.equal(datasets.length, 3);
    for (const d of datasets) {
      const data = await gqlData(catalog, doc, { urn: d.urn });
      const fields = (
        (data['dataset'] as Json)['schemaMetadata'] as { fields: Array<{ fieldPath: string }> }
      ).fields.map((f) => simplePath(f.fieldPath));
      for (const c of [...(d.columns ?? []).map((x) => x.name), ...(d.fields ?? []).map((x) => x.fieldPath)]) {
        assert.ok(fields.includes(c), `${d.urn}: column ${c}`);
      }
    }
    const tables = (
      parseYaml(read('catalog/feature_tables.yml')) as { feature_tables: Array<{ urn: string; features: string[] }> }
    ).feature_tables;
    const tableDoc = 'query t($urn: String!) { mlFeatureTable(urn: $urn) { properties { mlFeatures { urn } } } }';
    const users = tables.find((x) => x.urn === SAMPLE.featureTables.users)!;
    const listed = (
      (((await gqlData(catalog, tableDoc, { urn: users.urn }))['mlFeatureTable'] as Json)['properties'] as Json)[
        'mlFeatures'
      ] as Json[]
    ).map((f) => f['urn']);
    assert.deepEqual(
      users.features.filter((f) => !listed.includes(f)),
      [SAMPLE.features.signupDays],
    );
    for (const t of tables) for (const f of [t.urn, ...t.features]) assert.equal(await exists(catalog, f), true, f);

    const models = (
      parseYaml(read('catalog/models.yml')) as { models: Array<{ urn: string; groups: string[]; features: string[] }> }
    ).models;
    const churn = models.find((m) => m.urn === SAMPLE.models.churnV3)!;
    const modelDoc = 'query m($urn: String!) { mlModel(urn: $urn) { properties { groups { urn } } } }';
    const groups = (
      (((await gqlData(catalog, modelDoc, { urn: churn.urn }))['mlModel'] as Json)['properties'] as Json)[
        'groups'
      ] as Json[]
    ).map((g) => g['urn']);
    assert.deepEqual(
      churn.groups.filter((g) => !groups.includes(g)),
      [SAMPLE.modelGroups.ltv],
    );
    for (const m of models)
      for (const u of [m.urn, ...m.groups, ...m.features]) assert.equal(await exists(catalog, u), true, u);
  });
});
