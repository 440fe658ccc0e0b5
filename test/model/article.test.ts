/**
 * "a" or "an" before a kind's word, as the word is read aloud: messages, prompts and pickers say
 * "an ML feature", never "a ML feature".
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { aKind, article } from '../../model/src/entityNames';

describe('the article before a kind', () => {
  test('each catalog kind and a few looked-up ones', () => {
    assert.equal(aKind('mlFeature'), 'an ML feature');
    assert.equal(aKind('mlModel'), 'an ML model');
    assert.equal(aKind('mlModelGroup'), 'a model group');
    assert.equal(aKind('mlFeatureTable'), 'a feature table');
    assert.equal(aKind('dataset'), 'a dataset');
    assert.equal(aKind('corpuser'), 'a user');
    assert.equal(aKind('assertion'), 'an assertion');
    assert.equal(aKind('dataset', true), 'A dataset');
    assert.equal(aKind('mlFeature', true), 'An ML feature');
  });

  test('words that start with a vowel letter but not a vowel sound, and initialisms', () => {
    assert.equal(article('one-off job'), 'a');
    assert.equal(article('EU region'), 'a');
    assert.equal(article('SQL query'), 'an');
    assert.equal(article('S3 bucket'), 'an');
    assert.equal(article('Snowflake table'), 'a');
    assert.equal(article('mlops thing'), 'a', 'a lower-case word is read as a word, not letters');
    assert.equal(article('incident'), 'an');
  });
});
