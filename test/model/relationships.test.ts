/**
 * DataHub's relationship names in words (model/src/relationships.ts): one table for the catalog's
 * pages and the editor's lineage view, by the side the neighbour is on; other names split into words.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nameAsWords, RELATIONSHIP_WORDS, relationshipWords } from '../../model/src/relationships';

describe('relationship words', () => {
  test("DataHub's relationship names read as words (moved from test/client/lineageRows.test.ts)", () => {
    assert.equal(nameAsWords('DownstreamOf'), 'downstream of');
    assert.equal(nameAsWords('DerivedFrom'), 'derived from');
    assert.equal(nameAsWords('TrainedBy'), 'trained by');
    assert.equal(nameAsWords('Consumes'), 'consumes');
    assert.equal(nameAsWords('IsPartOf'), 'is part of');
    assert.equal(nameAsWords('MLModelGroupOf'), 'ml model group of');
  });

  test('the lineage relationships read from the entity shown: upstream and downstream', () => {
    assert.equal(relationshipWords('DownstreamOf', 'upstream'), 'read from');
    assert.equal(relationshipWords('DownstreamOf', 'downstream'), 'reads this');
    assert.equal(relationshipWords('DerivedFrom', 'upstream'), 'source');
    assert.equal(relationshipWords('DerivedFrom', 'downstream'), 'derived from this');
    assert.equal(relationshipWords('Consumes', 'upstream'), 'feature used');
    assert.equal(relationshipWords('Consumes', 'downstream'), 'uses this');
  });

  test('a name the table lacks is its words, on either side; an inherited property name is not in the table', () => {
    assert.equal(relationshipWords('TrainedBy', 'upstream'), 'trained by');
    assert.equal(relationshipWords('Produces', 'downstream'), 'produces');
    assert.equal(relationshipWords('constructor', 'upstream'), 'constructor');
    assert.equal(relationshipWords('', 'upstream'), '');
    for (const words of Object.values(RELATIONSHIP_WORDS)) assert.notEqual(words.upstream, words.downstream);
  });
});
