/**
 * The name hints of a scanned document (server/src/features/inlayHints.ts), from a table of answers:
 * which URNs get the catalog's name, where, and what a name looks like once made inert.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Resolution } from '../../../server/src/catalogClient/client';
import { nameHints, sameName } from '../../../server/src/features/inlayHints';
import { dataset, MISSING, viewEntity } from './support/fakeResolution';
import { scanned } from './support/document';

const DOMAIN = 'urn:li:domain:7f3c9a52-1b7e-4c1d-9d7a-2f8e5b6c4a10';
const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const ACCOUNTS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.cust_acct_v2,PROD)';

function renamed(urn: string, name: string): Resolution {
  const found = dataset(urn);
  return { ...found, entity: { ...found.entity, properties: { name, description: null } } };
}

describe('name hints beside ids', () => {
  test('a name the id does not spell gets a hint; one that only spells it again does not', () => {
    for (const [name, id] of [
      ['users', 'db.users'],
      ['Users', 'db.users'],
      ['Sensitive', 'Classification.Sensitive'],
      ['Daily revenue', 'daily_revenue'],
      ['file.csv', 's3://bucket/path/file.csv'],
      ['GDPR', 'gdpr'],
      ['  ', 'x'],
    ])
      assert.equal(sameName(name!, id!), true, `${name} / ${id}`);
    for (const [name, id] of [
      ['Marketing', '7f3c9a52-1b7e-4c1d-9d7a-2f8e5b6c4a10'],
      ['Sensitive Data', 'Classification.Sensitive'],
      ['Alice Smith', 'asmith'],
      ['users', 'db.total_users'],
      ['Customer accounts', 'db.cust_acct_v2'],
    ])
      assert.equal(sameName(name!, id!), false, `${name} / ${id}`);
  });

  test('found entities named otherwise get hints, in document order, after the closing quote; others none', () => {
    const text = [
      `a = "${DOMAIN}"`,
      `b = "${USERS}"`,
      `c = ['${ACCOUNTS}']`,
      `d = "urn:li:domain:0000"`,
      `e = "urn:li:domain:1111"`,
      `f = f"urn:li:domain:{x}"`,
      `# ${DOMAIN} in a comment`,
      '',
    ].join('\n');
    const { scan } = scanned(text, 'python');
    const answers: Record<string, Resolution> = {
      [DOMAIN]: viewEntity('domain', DOMAIN, { properties: { name: 'Marketing' } }),
      [USERS]: renamed(USERS, 'users'),
      [ACCOUNTS]: renamed(ACCOUNTS, 'Customer accounts'),
      'urn:li:domain:0000': MISSING,
    };
    const hints = nameHints(text, scan, (urn) => answers[urn]);
    assert.deepEqual(
      hints.map((h) => [h.label, text.slice(h.offset - 2, h.offset + 1)]),
      [
        ['‹Marketing›', '0"\n'],
        ['‹Customer accounts›', ")']"],
        ['‹Marketing›', '10 '],
      ],
    );
    assert.equal(hints[1]!.tooltip, "Dataset Customer accounts: the catalog's name for db.cust_acct_v2");
    // Only the range asked for (offsets of the places, inclusive).
    const first = text.indexOf('\n');
    assert.deepEqual(
      nameHints(text, scan, (urn) => answers[urn], 0, first).map((h) => h.label),
      ['‹Marketing›'],
    );
  });

  test('a name from the catalog is made inert and cut', () => {
    const text = `a = "${DOMAIN}"\n`;
    const { scan } = scanned(text, 'python');
    const name = `A\u0000B\u202Ec\n\td ${'long '.repeat(20)}`;
    const [hint] = nameHints(text, scan, () => viewEntity('domain', DOMAIN, { properties: { name } }));
    assert.equal(hint!.label, '‹A\\u0000B\\u202Ec d long long long long l…›');
    assert.equal(hint!.label.length, 42);
  });
});
