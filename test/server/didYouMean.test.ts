/**
 * Did-you-mean (issue 16, point 4): the ranking of what a search found (pure), and, through the real
 * server against the real local catalog's search, the diagnostic that names the nearest entities
 * and the quick fixes that replace the URN in a literal, a builder call's argument and YAML.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rankSuggestions, suggestionNames } from '../../server/src/features/didYouMean';

const ds = (name: string, platform = 'hive', env = 'PROD', ns = 'li'): string =>
  `urn:${ns}:dataset:(urn:${ns}:dataPlatform:${platform},${name},${env})`;

describe('did-you-mean ranking', () => {
  test('a typo first, then names that hold the typed one; another platform ranks below; the entity itself and other kinds never', () => {
    const found = [
      { urn: ds('db.orders') },
      { urn: ds('db.users', 'snowflake') },
      { urn: ds('db.user_events') },
      { urn: ds('db.users') },
      { urn: 'urn:li:mlFeature:(users_table,db.users)' },
      { urn: ds('db.usres') },
      { urn: ds('db.usres', 'hive', 'PROD', 'svc') },
    ];
    assert.deepEqual(rankSuggestions(ds('db.usres'), found), [ds('db.users'), ds('db.users', 'snowflake')]);
    // `users` is in db.users's name: kept though far by edits; db.usres holds no `users`.
    assert.deepEqual(rankSuggestions(ds('users'), found), [ds('db.users'), ds('db.users', 'snowflake')]);
    assert.deepEqual(rankSuggestions(ds('zzz_nothing_like_it'), found), []);
  });

  test('features: the same table ranks first', () => {
    const f = (table: string, name: string): string => `urn:li:mlFeature:(${table},${name})`;
    assert.deepEqual(
      rankSuggestions(f('users_table', 'aeg'), [{ urn: f('orders_table', 'age') }, { urn: f('users_table', 'age') }]),
      [f('users_table', 'age'), f('orders_table', 'age')],
    );
  });

  test('names in a message: one, two, three; the platform where two share a name', () => {
    assert.equal(suggestionNames([ds('db.users')]), 'db.users');
    assert.equal(suggestionNames([ds('db.users'), ds('db.user')]), 'db.users or db.user');
    assert.equal(
      suggestionNames([ds('db.users'), ds('db.users', 'snowflake'), ds('db.usr')]),
      'db.users (hive), db.users (snowflake) or db.usr',
    );
  });
});
