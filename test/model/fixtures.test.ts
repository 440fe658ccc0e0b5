/**
 * The model against real DataHub payloads (shared/fixtures/datahub-mcps): every URN they hold
 * parses and prints back identically, every aspect passes checkAspect on an entity type that
 * holds it, and every schema field is found again by its own path.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ASPECTS_BY_ENTITY, checkAspect, isAspectName } from '../../model/src/aspects';
import { isCatalogKind } from '../../model/src/kinds';
import { findField, simplePath, V2_PREFIX } from '../../model/src/fieldPath';
import { parseUrn, printUrn, type Urn } from '../../model/src/urn';
import { needsShared } from '../support/shared';
import { loadProposals, MCPS, urnStringsIn, type FixtureProposal } from './sharedFixtures';

/** The URN-valued fields of the ML aspects and the kind each must have. */
const URN_LISTS: Record<string, { field: string; kind: Urn['kind'] }> = {
  mlFeatureProperties: { field: 'sources', kind: 'dataset' },
  mlFeatureTableProperties: { field: 'mlFeatures', kind: 'mlFeature' },
  mlModelProperties: { field: 'groups', kind: 'mlModelGroup' },
};

function kindOf(urn: Urn): string {
  return urn.kind === 'other' ? urn.entityType : urn.kind;
}

describe('DataHub ingestion payloads', { skip: needsShared(MCPS) }, () => {
  let cached: FixtureProposal[] | undefined;
  const proposals = (): FixtureProposal[] => (cached ??= loadProposals());

  test('the fixture folder holds the 229 proposals its README lists', () => {
    assert.equal(proposals().length, 229);
  });

  test("every entityUrn parses to the proposal's entity type and prints back identically", () => {
    for (const p of proposals()) {
      const r = parseUrn(p.entityUrn);
      assert.ok(r.ok, `${p.at} ${p.entityUrn}: ${r.ok ? '' : r.error.message}`);
      assert.equal(kindOf(r.urn), p.entityType, p.at);
      assert.equal(r.urn.namespace, 'li', p.at);
      assert.equal(printUrn(r.urn), p.entityUrn, p.at);
    }
  });

  test("the URNs inside aspects (sources, mlFeatures, groups, and the mlModel's mlFeatures) parse to their kind and print back", () => {
    let checked = 0;
    for (const p of proposals()) {
      const lists = [
        URN_LISTS[p.aspectName],
        p.aspectName === 'mlModelProperties' ? { field: 'mlFeatures', kind: 'mlFeature' as const } : undefined,
      ];
      for (const list of lists) {
        if (!list) continue;
        const values = p.aspect[list.field];
        if (values === undefined || values === null) continue;
        assert.ok(Array.isArray(values), `${p.at}.${list.field}`);
        for (const text of values as string[]) {
          const r = parseUrn(text);
          assert.ok(r.ok, `${p.at}.${list.field} ${text}: ${r.ok ? '' : r.error.message}`);
          assert.equal(r.urn.kind, list.kind, `${p.at}.${list.field} ${text}`);
          assert.equal(printUrn(r.urn), text);
          checked++;
        }
      }
    }
    assert.ok(checked >= 70, `only ${checked} URNs in sources/mlFeatures/groups`);
  });

  test('every other URN anywhere in an aspect (actors, tags, schemaField foreign keys, jobs …) parses and prints back', () => {
    const kinds = new Set<string>();
    for (const p of proposals()) {
      for (const { path, urn } of urnStringsIn(p.aspect)) {
        const r = parseUrn(urn);
        assert.ok(r.ok, `${p.at}.${path} ${urn}: ${r.ok ? '' : r.error.message}`);
        assert.equal(printUrn(r.urn), urn);
        kinds.add(kindOf(r.urn));
      }
    }
    for (const k of ['corpuser', 'dataPlatform', 'tag', 'schemaField', 'glossaryTerm', 'dataJob', 'platformResource']) {
      assert.ok(kinds.has(k), `a ${k} URN was seen`);
    }
  });

  test('the notable spellings are among them: encoded reserved characters and a platform with a colon', () => {
    const urns = new Set(proposals().map((p) => p.entityUrn));
    const encoded = 'urn:li:dataset:(urn:li:dataPlatform:external,sample - superstore%2C %28new%29.xls.people,PROD)';
    assert.ok(urns.has(encoded), 'the Tableau dataset with an encoded name');
    const colon = [...urns].find((u) => u.includes('urn:li:dataPlatform:webdata-direct:marketo-marketo'));
    assert.ok(colon, 'a dataset on the webdata-direct:marketo-marketo platform');
    const r = parseUrn(colon);
    assert.equal(r.ok && r.urn.kind === 'dataset' && r.urn.platform, 'webdata-direct:marketo-marketo');
  });

  test('every aspect passes checkAspect, on an entity type that holds it', () => {
    for (const p of proposals()) {
      assert.ok(isAspectName(p.aspectName) && isCatalogKind(p.entityType), p.at);
      assert.ok(
        ASPECTS_BY_ENTITY[p.entityType].includes(p.aspectName),
        `${p.at}: ${p.entityType} holds ${p.aspectName}`,
      );
      assert.deepEqual(checkAspect(p.aspectName, p.aspect), [], p.at);
    }
  });

  test('every schema field is found again by its own path, and v2 paths have simple paths free of annotations', () => {
    let v2 = 0;
    for (const p of proposals()) {
      const fields = (
        p.aspectName === 'schemaMetadata'
          ? p.aspect['fields']
          : p.aspectName === 'editableSchemaMetadata'
            ? p.aspect['editableSchemaFieldInfo']
            : undefined
      ) as Array<{ fieldPath: string }> | undefined;
      for (const f of fields ?? []) {
        assert.equal(findField(fields ?? [], f.fieldPath), f, `${p.at} ${f.fieldPath}`);
        if (!f.fieldPath.startsWith(V2_PREFIX)) continue;
        v2++;
        const simple = simplePath(f.fieldPath);
        // A primitive Kafka key ('[version=2.0].[key=True].[type=string]') has no field name: its simple path is ''.
        assert.ok(
          !simple.split('.').some((t) => t.startsWith('[') || t.endsWith(']')),
          `${p.at} ${f.fieldPath} → ${simple}`,
        );
      }
    }
    assert.ok(v2 >= 100, `only ${v2} v2 field paths seen`);
  });
});
