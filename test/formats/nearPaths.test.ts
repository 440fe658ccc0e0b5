/**
 * The "did you mean" of a glossary reference not in its file (server/src/formats/read.ts nearPaths) against the
 * `paths.find` it replaces, which compared every reference with every path by edit distance.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { editDistance } from '../../model/src/urn';
import { nearPaths, readDataHubYaml } from '../../server/src/formats/read';
import { seededRandom } from '../support/random';

/** The code before nearPaths, kept as the reference of this test. */
function findNear(paths: readonly string[], value: string): string | undefined {
  const last = (p: string): string => p.slice(p.lastIndexOf('.') + 1);
  return paths.find(
    (p) =>
      p.toLowerCase() === value.toLowerCase() ||
      editDistance(p, value, 3) <= 3 ||
      p.endsWith(`.${value}`) ||
      (value.includes('.') && last(p) === last(value)),
  );
}

describe('nearPaths: the first near path in file order, as paths.find gave it', () => {
  test('random glossaries and references, with typos, other case, other nodes, non-ASCII', () => {
    const random = seededRandom(28);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const alphabet = 'abcdeTtRrmM.-_ Ü日本'.split('');
    const word = (): string =>
      Array.from({ length: 1 + Math.floor(random() * 9) }, () => pick(alphabet)).join('') || 'x';
    const mutate = (s: string): string => {
      let out = s;
      for (let k = Math.floor(random() * 5); k > 0; k--) {
        const at = Math.floor(random() * (out.length + 1));
        const op = Math.floor(random() * 4);
        if (op === 0) out = out.slice(0, at) + pick(alphabet) + out.slice(at);
        else if (op === 1) out = out.slice(0, at) + out.slice(at + 1);
        else if (op === 2) out = out.slice(0, at) + pick(alphabet) + out.slice(at + 1);
        else if (at + 1 < out.length) out = out.slice(0, at) + out[at + 1] + out[at] + out.slice(at + 2);
      }
      return random() < 0.2 ? out.toUpperCase() : out;
    };
    let compared = 0;
    let named = 0;
    for (let round = 0; round < 60; round++) {
      const nodes = Array.from({ length: 1 + Math.floor(random() * 6) }, word);
      const paths = Array.from({ length: Math.floor(random() * 40) }, () => {
        const depth = Math.floor(random() * 3);
        return [...Array.from({ length: depth }, () => pick(nodes)), word()].join('.');
      });
      const near = nearPaths(paths);
      for (let k = 0; k < 80; k++) {
        const value = paths.length && random() < 0.7 ? mutate(pick(paths)) : `${word()}.${word()}`;
        const reference = random() < 0.2 ? (value.split('.').pop() ?? value) : value;
        const expected = findNear(paths, reference);
        assert.equal(near(reference), expected, `${JSON.stringify(reference)} in ${JSON.stringify(paths)}`);
        assert.equal(near(reference), expected, 'asked again (memo)');
        compared++;
        if (expected !== undefined) named++;
      }
    }
    assert.equal(compared, 4800);
    assert.ok(named > 1500 && named < 4500, `both outcomes well covered: ${named} of ${compared} named a path`);
  });

  test('in a file: each unknown reference names the first near term', () => {
    const text = `version: 1
source: DataHub
owners:
  users: [mjames]
nodes:
  - name: Classification
    description: c
    terms:
      - name: Sensitive
        description: s
      - name: Confidential
        description: c
        related_terms: [Classification.Sensitiv, Other.Confidential, Sensitive, classification.sensitive, Unrelated.Thing]
`;
    const warnings = readDataHubYaml(text)!
      .problems.filter((p) => p.severity === 'warning')
      .map((p) => p.message);
    assert.deepEqual(warnings, [
      "'Classification.Sensitiv' is not a term of this file (did you mean Classification.Sensitive?)",
      "'Other.Confidential' is not a term of this file (did you mean Classification.Confidential?)",
      "'Sensitive' is not a term of this file (did you mean Classification.Sensitive?)",
      "'classification.sensitive' is not a term of this file (did you mean Classification.Sensitive?)",
    ]);
  });
});
