/**
 * The URN parser against a straightforward reference (urnReference.ts, the parser before it was
 * rewritten to allocate less): the same result, field for field, or the same error with the same
 * offset and length, on generated URNs of every kind and on URN-like texts.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseUrn, printUrn } from '../../model/src/urn';
import { referenceParseUrn } from './urnReference';
import { ARBITRARY_BY_KIND, editedUrnText, longNameUrn, RUNS, urnishText } from './urnArbitraries';

/** `text` and a few near misses of it: a character cut, another namespace, an empty part, a misspelt platform type. */
function variants(text: string): string[] {
  return [
    text,
    text.slice(0, -1),
    text.replace('urn:li:', 'urn:svc:'),
    text.replace(',', ',,'),
    text.replace('dataPlatform', 'dataPlatfrm'),
    text.replace(/urn:(\w+):dataPlatform:/, 'urn:x$1:dataPlatform:'),
  ];
}

function sameAsReference(text: string): void {
  for (const t of variants(text)) assert.deepStrictEqual(parseUrn(t), referenceParseUrn(t), JSON.stringify(t));
}

describe('parseUrn reads every text as the reference parser does', () => {
  for (const [kind, arbitrary] of Object.entries(ARBITRARY_BY_KIND)) {
    test(`valid ${kind} URNs and their near misses`, () => {
      fc.assert(
        fc.property(arbitrary, (u) => sameAsReference(printUrn(u))),
        { numRuns: RUNS },
      );
    });
  }

  test('URNs with long names (past 96 characters, where part spans are no longer shared) and their near misses', () => {
    let long = 0;
    fc.assert(
      fc.property(longNameUrn, (u) => {
        const text = printUrn(u);
        if (text.length > 96) long++;
        sameAsReference(text);
      }),
      { numRuns: RUNS },
    );
    assert.ok(long > RUNS / 2, `${long} of ${RUNS} URNs longer than 96 characters`);
  });

  test('texts assembled from URN pieces', () => {
    fc.assert(fc.property(urnishText, sameAsReference), { numRuns: RUNS * 2 });
  });

  test('valid URNs with one character deleted, inserted or replaced', () => {
    fc.assert(fc.property(editedUrnText, sameAsReference), { numRuns: RUNS * 2 });
  });

  test('random strings', () => {
    fc.assert(fc.property(fc.string({ maxLength: 60 }), sameAsReference), { numRuns: RUNS });
  });

  test('tuples nested deeper than the parser reads, and every fixed tuple kind with a bad platform', () => {
    const cases = [
      'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)',
      'urn:li:dataset:(urn:li:corpuser:x,db.t,PROD)',
      'urn:li:dataset:(urn:li:dataPlatform:,db.t,PROD)',
      'urn:li:dataset:(urn:li:dataPlatform,db.t,PROD)',
      'urn:li:dataset:(urn:svc:dataPlatform:hive,db.t,PROD)',
      'urn:li:dataset:(hive,db.t,PROD)',
      'urn:li:dataset:(urn:li:dataPlatform:hi(ve),db.t,PROD)',
      'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PR-OD)',
      'urn:li:dataset:(urn:li:dataPlatform:hive,db.t)',
      'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD))',
      'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD',
      'urn:li:mlModel:(urn:li:dataPlatform:a b,m,PROD)',
      'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow, g,DEV)',
      'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,)',
      'urn:li:mlFeature:(t,(f))',
      'urn:li:schemaField:(urn:li:schemaField:(urn:li:schemaField:(urn:li:schemaField:(urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:h,t,PROD),a),b),c),d),e)',
      'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:h,t,PROD),a)',
    ];
    for (const text of cases) sameAsReference(text);
  });

  test('namespaces, entity types and envs that are, or nearly are, the words the parser shares', () => {
    // The parser recognizes its common words (li, dataset, PROD …) by length and first character
    // before it compares the rest: words of the same length or first character, another case, a
    // prefix or an extension of one must read as they always did.
    const namespaces = ['li', 'LI', 'lI', 'l', 'lix', 'il', 'QA', 'tag', 'dataset', 'svc', '1i', 'l-i', ''];
    const types = [
      'dataset',
      'dataJob',
      'datasex',
      'Dataset',
      'datasets',
      'dataJo',
      'dashboard',
      'domain',
      'dataFlow',
      'corpuser',
      'corpGroup',
      'chart',
      'tag',
      'PROD',
      'li',
      'mlModelGroup',
      'mlModelGrou',
      'schemaField',
      'x',
      '',
    ];
    const ids = [
      '(urn:li:dataPlatform:hive,db.t,PROD)',
      '(urn:li:dataPlatform:hive,db.t,PRODX)',
      '(urn:li:dataPlatform:hive,db.t,prod)',
      '(urn:li:dataPlatform:hive,db.t,QA)',
      '(t,f)',
      'x',
    ];
    for (const ns of namespaces)
      for (const type of types) for (const id of ids) sameAsReference(`urn:${ns}:${type}:${id}`);
  });
});
