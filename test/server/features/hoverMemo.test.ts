/**
 * hoverFor keeps the Markdown it made per catalog answer (server/src/features/hover.ts): every
 * text it gives back from there is the text it makes for the same input with answers it has never
 * seen (structured clones), over inputs that vary in each thing the text depends on, hovered in a
 * shuffled order many times over.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseUrn } from '../../../model/src/urn';
import type { Resolution } from '../../../server/src/catalogClient/client';
import { hoverFor, type HoverInput } from '../../../server/src/features/hover';
import type { DiagnosticCode } from '../../../server/src/features/diagnostics';
import type { EntityContext } from '../../../server/src/resolution/context';
import type { UrnOccurrence } from '../../../server/src/scan/types';
import { dataset, failed, MISSING, mlFeature } from './support/fakeResolution';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const AGE = 'urn:li:mlFeature:(users_table,age)';

function occurrence(urn: string, builder?: string): UrnOccurrence {
  return {
    start: 0,
    end: urn.length,
    urn,
    parsed: parseUrn(urn),
    template: false,
    source: builder ? 'builder' : 'text',
    ...(builder ? { builder } : {}),
  };
}

const answers: Array<[string, Resolution]> = [
  [
    USERS,
    dataset(USERS, {
      description: 'One row per registered user.',
      columns: [
        { path: 'user_id', description: 'Primary key.', type: 'bigint' },
        { path: 'email', description: null, type: 'string' },
      ],
    }),
  ],
  [ORDERS, dataset(ORDERS, { description: 'Orders; | pipes | and `ticks`.', columns: null })],
  [AGE, mlFeature(AGE, { description: 'Age in years.', dataType: 'CONTINUOUS' })],
  [USERS, MISSING],
  [ORDERS, failed('connection refused')],
];
const contexts: Array<EntityContext | undefined> = [
  undefined,
  { owners: ['jdoe'], tags: ['pii'], terms: [], upstream: 1, downstream: 2 },
  { owners: [], tags: [], terms: ['Profile'], deprecation: { note: 'Use orders_v2.', decommissionTime: 1.8e12 } },
];
const saids: Array<ReadonlySet<DiagnosticCode> | undefined> = [
  undefined,
  new Set<DiagnosticCode>(),
  new Set<DiagnosticCode>(['unknown-urn']),
  new Set<DiagnosticCode>(['deprecated-urn', 'unknown-urn']),
];

function inputs(): HoverInput[] {
  const out: HoverInput[] = [];
  for (const [urn, resolution] of answers)
    for (const context of contexts)
      for (const said of saids)
        for (const column of [undefined, 'email', 'nope'])
          for (const entityUrl of [undefined, 'http://catalog.test/x'])
            for (const builder of [undefined, 'make_dataset_urn'])
              out.push({
                occurrence: occurrence(urn, builder),
                resolution,
                ...(context ? { context } : {}),
                ...(said ? { said } : {}),
                ...(column !== undefined ? { column } : {}),
                ...(entityUrl ? { entityUrl } : {}),
                ...(urn !== AGE && context ? { lineageOf: urn } : {}),
              });
  return out;
}

/** The same input with answers (and context) hoverFor has never seen: made afresh. */
function fresh(input: HoverInput): HoverInput {
  return {
    ...input,
    ...(input.resolution ? { resolution: structuredClone(input.resolution) } : {}),
    ...(input.context ? { context: structuredClone(input.context) } : {}),
  };
}

describe('hoverFor reuses the Markdown it made for an answer', () => {
  test('every text given back equals the text made afresh, in any order', () => {
    const all = inputs();
    const expected = all.map((input) => hoverFor(fresh(input)));
    // A few thousand hovers in a shuffled order (a fixed seed), so kept texts are met often.
    let seed = 12345;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 4000; i++) {
      const k = next() % all.length;
      assert.equal(hoverFor(all[k]!), expected[k], `input ${k}`);
      // Again at once: the kept text.
      assert.equal(hoverFor(all[k]!), expected[k], `input ${k}, again`);
    }
  });

  test('a new answer for the entity is a new text; a new context too', () => {
    const before = dataset(USERS, { description: 'Old text.', columns: null }) as Resolution;
    const after = dataset(USERS, { description: 'New text.', columns: null }) as Resolution;
    const input: HoverInput = { occurrence: occurrence(USERS), resolution: before };
    assert.match(hoverFor(input), /Old text/);
    assert.match(hoverFor({ ...input, resolution: after }), /New text/);
    assert.match(hoverFor(input), /Old text/);
    const withOwner = hoverFor({ ...input, context: { owners: ['alice'], tags: [], terms: [] } });
    assert.match(withOwner, /alice/);
    assert.doesNotMatch(hoverFor({ ...input, context: { owners: ['bob'], tags: [], terms: [] } }), /alice/);
  });
});
