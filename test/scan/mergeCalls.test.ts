import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { scanDocument } from '../../server/src/scan';
import { findUrnsInText } from '../../server/src/scan/text';
import { findBuilderCalls } from '../../server/src/scan/python';
import { findPythonClassCalls } from '../../server/src/scan/pythonClasses';
import { findJavaUrnCalls } from '../../server/src/scan/java';
import { literalSyntaxFor } from '../../server/src/scan/languages';
import { clearParseCache } from '../../server/src/scan/parseCache';
import type { UrnOccurrence } from '../../server/src/scan/types';
import { OPTS } from './markers';

type Claim = { start: number; end: number };

/**
 * The merge as a plain reference: the text's occurrences that start in no claimed call, and the
 * calls' occurrences, ordered by start (of a call's occurrence and a text occurrence with the same
 * start, the text occurrence comes first, as the text's list does), parent indexes renumbered in
 * place (dropped parents removed).
 */
function referenceMerge(lists: UrnOccurrence[][], claims: Claim[][]): UrnOccurrence[] {
  const entries: Array<{ from: number; index: number; occurrence: UrnOccurrence }> = [];
  lists.forEach((list, from) => {
    const others = claims.flatMap((c, i) => (i === from ? [] : c));
    list.forEach((occurrence, index) => {
      if (!others.some((c) => c.start <= occurrence.start && occurrence.start < c.end))
        entries.push({ from, index, occurrence });
    });
  });
  entries.sort((a, b) => a.occurrence.start - b.occurrence.start || a.from - b.from || a.index - b.index);
  const at = new Map(entries.map((e, i) => [`${e.from}:${e.index}`, i]));
  // In place, as the scan's merges do: a call's arguments refer to the occurrences of the calls inside it.
  const parents = entries.map((e) =>
    e.occurrence.parent === undefined ? undefined : at.get(`${e.from}:${e.occurrence.parent}`),
  );
  return entries.map((e, i) => {
    const parent = parents[i];
    if (e.occurrence.parent !== undefined) {
      if (parent === undefined) delete e.occurrence.parent;
      else e.occurrence.parent = parent;
    }
    return e.occurrence;
  });
}

function reference(text: string, languageId: 'python' | 'java'): UrnOccurrence[] {
  const textOccurrences = findUrnsInText(text, { ...OPTS, literals: literalSyntaxFor(languageId) });
  const calls =
    languageId === 'python' ? [findBuilderCalls(text), findPythonClassCalls(text)] : [findJavaUrnCalls(text)];
  return referenceMerge([textOccurrences, ...calls.map((c) => c.occurrences)], [[], ...calls.map((c) => c.calls)]);
}

const urn = fc.constantFrom(
  'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)',
  'urn:li:corpuser:jdoe',
  'urn:li:mlFeature:(users_table,age)',
  'urn:li:dataPlatform:kafka',
  'urn:svc:dataset:(urn:svc:dataPlatform:kafka,t,PROD)',
  'urn:li:dataset:(',
);
const piece = fc.oneof(
  urn.map((u) => `"${u}"`),
  urn.map((u) => `# ${u}\n`),
  urn.map((u) => `make_dataset_urn("hive", "${u}", "PROD")`),
  fc.constant('make_user_urn("jdoe")'),
  fc.constant('mmake_user_urn("x") makemake_user_urn("y") ke_make_user_urn("z") make_ '),
  fc.constant('DatasetUrn("hive", "db.t")'),
  fc.constant('SchemaFieldUrn(DatasetUrn("hive", "t"), "col")'),
  fc.constant('Dataset(platform="hive", name="db.s")'),
  fc.constant('DataFlow(name="flow", platform="airflow") MLModel("m", "mlflow") DataDataset(platform="a", name="b")'),
  fc.constant('new DatasetUrn(new DataPlatformUrn("hive"), "db.j", FabricType.PROD)'),
  urn.map((u) => `"${u.slice(0, 12)}" + "${u.slice(12)}"`),
  fc.string({ unit: fc.constantFrom(...'ab ()"\',\n_'.split('')), maxLength: 8 }),
);
const header = fc.constantFrom('', 'from datahub.sdk import Dataset\n', 'x = 1  # from datahub import Dataset\n');
const doc = fc
  .tuple(header, fc.array(piece, { minLength: 1, maxLength: 10 }))
  .map(([h, pieces]) => h + pieces.join(' '));

describe('scanDocument merges the text and call extractions as the plain merge does (differential)', () => {
  for (const languageId of ['python', 'java'] as const) {
    test(`${languageId}: generated documents of URN literals, builder, class and SDK calls`, () => {
      fc.assert(
        fc.property(doc, (text) => {
          clearParseCache();
          const expected = reference(text, languageId);
          clearParseCache();
          assert.deepStrictEqual(scanDocument(text, languageId, OPTS).occurrences, expected);
        }),
        { numRuns: 300 },
      );
    });
  }

  test('python: a real-shaped file (literals, comments, a builder call every tenth block)', () => {
    const blocks: string[] = [];
    for (let b = 0; b < 200; b++) {
      const dataset =
        b % 10 === 9
          ? `make_dataset_urn("hive", "db.users_${b}", "PROD")`
          : `"urn:li:dataset:(urn:li:dataPlatform:hive,db.users_${b},PROD)"`;
      blocks.push(
        `# owner: urn:li:corpuser:user${b % 7}\nUSERS_${b} = ${dataset}\n` +
          `FEATURES_${b} = ["urn:li:mlFeature:(users_table_${b},age)"]\n` +
          `MODEL_${b} = client.get_entity("urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn-${b},PROD)")\n` +
          (b % 25 === 0 ? `p = make_dataset_urn("urn:li:dataPlatform:hive", "db.t${b}")\n` : ''),
      );
    }
    const text = blocks.join('def f():\n    return 1\n');
    clearParseCache();
    const expected = reference(text, 'python');
    assert.deepStrictEqual(scanDocument(text, 'python', OPTS).occurrences, expected);
    assert.deepStrictEqual(scanDocument(text, 'python', OPTS).occurrences, reference(text, 'python'), 'warm');
  });
});
