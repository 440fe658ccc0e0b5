/**
 * DataHub's own ingestion payloads (shared/fixtures/datahub-mcps, 229 proposals) are accepted
 * as they are through `ingestProposal` and read back equal: the catalog speaks DataHub's write
 * path, keeps unknown fields, and handles real URNs and field paths.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { ASPECT_FQCN, EXISTENCE_ASPECTS, type AspectName } from '../../model/src/aspects';
import type { CatalogKind } from '../../model/src/kinds';
import { parseUrn } from '../../model/src/urn';
import { batchDocument } from './documents';
import { aspectValue, gqlData, ingest, proposal, testCatalog, versionOf, type Json } from './helpers';
import { needsShared, SHARED_DIR } from '../support/shared';

const MCPS = 'fixtures/datahub-mcps';
const MCP_DIR = path.join(SHARED_DIR, MCPS);

interface Fixture {
  file: string;
  index: number;
  p: { entityType: CatalogKind; entityUrn: string; aspectName: AspectName; aspect: { value: string } };
}

function loadFixtures(t: TestContext): Fixture[] | undefined {
  const missing = needsShared(MCPS);
  if (missing) {
    t.skip(missing);
    return undefined;
  }
  return readdirSync(MCP_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((file) =>
      (JSON.parse(readFileSync(path.join(MCP_DIR, file), 'utf8')) as Fixture['p'][]).map((p, index) => ({
        file,
        index,
        p,
      })),
    );
}

const createsEntity = (f: Fixture): boolean => EXISTENCE_ASPECTS[f.p.entityType].includes(f.p.aspectName);

describe("DataHub's proposals", () => {
  test('§7 on real data: in file order, only writes to entities not yet created are refused (404)', async (t) => {
    const fixtures = loadFixtures(t);
    if (!fixtures) return;
    const catalog = await testCatalog(t);
    const created = new Set<string>();
    const refused: string[] = [];
    for (const f of fixtures) {
      const r = await ingest(catalog, f.p);
      const expected = createsEntity(f) || created.has(f.p.entityUrn) ? 200 : 404;
      assert.equal(r.status, expected, `${f.file}[${f.index}] ${f.p.aspectName}: ${JSON.stringify(r.body)}`);
      if (r.status === 200 && createsEntity(f)) created.add(f.p.entityUrn);
      if (r.status === 404) refused.push(`${f.file}[${f.index}]`);
    }
    // bootstrap.json's MCE snapshots list institutionalMemory before the properties; cli-editable
    // edits a dataset no fixture creates.
    assert.deepEqual(refused, ['bootstrap.json[3]', 'bootstrap.json[4]', 'bootstrap.json[6]', 'cli-editable.json[0]']);
  });

  test('all 229 proposals are accepted as they are and read back equal (the later of two wins)', async (t) => {
    const fixtures = loadFixtures(t);
    if (!fixtures) return;
    assert.equal(fixtures.length, 229);
    const catalog = await testCatalog(t);
    // The spec's existence rule: entities are created first (file order kept within each pass),
    // and the one dataset no fixture creates gets a datasetProperties of its own.
    const creators = fixtures.filter(createsEntity);
    const others = fixtures.filter((f) => !createsEntity(f));
    const createdUrns = new Set(creators.map((f) => f.p.entityUrn));
    const uncreated = [...new Set(others.map((f) => f.p.entityUrn).filter((u) => !createdUrns.has(u)))];
    assert.deepEqual(uncreated, ['urn:li:dataset:(urn:li:dataPlatform:kafka,test-rollback,PROD)']);
    for (const urn of uncreated)
      assert.equal((await ingest(catalog, proposal('dataset', urn, 'datasetProperties', {}))).status, 200);
    for (const f of [...creators, ...others]) {
      const r = await ingest(catalog, f.p);
      assert.equal(
        r.status,
        200,
        `${f.file}[${f.index}] ${f.p.entityType}/${f.p.aspectName} ${f.p.entityUrn}: ${JSON.stringify(r.body)}`,
      );
    }

    const last = new Map<string, Fixture>();
    const seen = new Map<string, number>();
    for (const f of fixtures) {
      const k = `${f.p.entityUrn} ${f.p.aspectName}`;
      last.set(k, f);
      seen.set(k, (seen.get(k) ?? 0) + 1);
    }
    for (const f of last.values()) {
      const stored = await aspectValue(catalog, f.p.entityUrn, f.p.aspectName, ASPECT_FQCN[f.p.aspectName]);
      assert.deepEqual(
        stored,
        JSON.parse(f.p.aspect.value),
        `${f.file}[${f.index}] ${f.p.aspectName} ${f.p.entityUrn}`,
      );
    }
    const twice = [...seen].filter(([, n]) => n > 1).map(([k]) => k);
    assert.ok(twice.length > 0, 'the fixtures upsert some URN and aspect twice');
    for (const k of twice) {
      const [urn, aspect] = [k.slice(0, k.lastIndexOf(' ')), k.slice(k.lastIndexOf(' ') + 1)];
      const values: string[] = fixtures
        .filter((f) => f.p.entityUrn === urn && f.p.aspectName === aspect)
        .map((f) => f.p.aspect.value);
      const changes: number = values.filter(
        (v: string, i: number) => i > 0 && JSON.stringify(JSON.parse(v)) !== JSON.stringify(JSON.parse(values[i - 1]!)),
      ).length;
      assert.equal(await versionOf(catalog, urn, aspect), String(1 + changes), k);
    }

    // Every fixture entity also reads through GraphQL without an error (real payloads fill
    // DataHub's non-null fields), 100 URNs per document as the language server sends them.
    const entities = [...new Map(fixtures.map((f) => [f.p.entityUrn, f.p.entityType])).entries()];
    for (let i = 0; i < entities.length; i += 100) {
      const chunk = entities.slice(i, i + 100).map(([urn, kind]) => ({ urn, kind }));
      const { query, variables } = batchDocument(chunk);
      const data = await gqlData(catalog, query, variables);
      chunk.forEach((c, j) => assert.equal((data[`e${j}`] as Json | null)?.['urn'], c.urn));
    }
  });

  test('the hard cases are in the fixtures and come back exactly: colons in platforms, encoded commas, non-ASCII and multi-line field paths', async (t) => {
    const fixtures = loadFixtures(t);
    if (!fixtures) return;
    const urns = fixtures.map((f) => f.p.entityUrn);
    const colonPlatform = urns.find((u) => /dataPlatform:[^,]*:/.test(u));
    const encodedComma = urns.find((u) => u.includes('%2C'));
    assert.ok(colonPlatform && encodedComma);
    const withField = (test: (p: string) => boolean) =>
      fixtures.find(
        (f) =>
          f.p.aspectName === 'schemaMetadata' &&
          (JSON.parse(f.p.aspect.value) as { fields: Array<{ fieldPath: string }> }).fields.some((x) =>
            test(x.fieldPath),
          ),
      );
    const nonAscii = withField((p) => /[^\x00-\x7f]/.test(p));
    const multiLine = withField((p) => p.includes('\n'));
    assert.ok(nonAscii && multiLine);

    const catalog = await testCatalog(t);
    for (const urn of [colonPlatform, encodedComma] as string[]) {
      const f: Fixture = fixtures.find((x) => x.p.entityUrn === urn && createsEntity(x))!;
      assert.ok(parseUrn(urn).ok);
      assert.equal((await ingest(catalog, f.p)).status, 200);
      assert.deepEqual(
        await aspectValue(catalog, urn, f.p.aspectName, ASPECT_FQCN[f.p.aspectName]),
        JSON.parse(f.p.aspect.value),
      );
    }
    for (const f of [nonAscii, multiLine]) {
      assert.equal((await ingest(catalog, f.p)).status, 200);
      const doc = 'query fields($urn: String!) { dataset(urn: $urn) { schemaMetadata { fields { fieldPath } } } }';
      const data = await gqlData(catalog, doc, { urn: f.p.entityUrn });
      const paths = (
        (data['dataset'] as Json)['schemaMetadata'] as { fields: Array<{ fieldPath: string }> }
      ).fields.map((x) => x.fieldPath);
      assert.deepEqual(
        paths,
        (JSON.parse(f.p.aspect.value) as { fields: Array<{ fieldPath: string }> }).fields.map((x) => x.fieldPath),
      );
    }
  });
});
