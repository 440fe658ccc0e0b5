/**
 * The document pipeline without an editor (server/src/pipeline/check.ts), in process: text,
 * language, settings and a catalog client in, diagnostics out — what Check Workspace does per file
 * and what a command line needs, with no LSP connection.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS } from '../../model/src/protocol';
import type { Resolution } from '../../server/src/catalog/client';
import { checkText, resolvableItems, scanText, type Resolver } from '../../server/src/pipeline/check';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const ORDERS = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,db.orders,PROD)';

/** A catalog client that answers from `answers` and records what it was asked, one list per resolve. */
function answering(answers: Record<string, Resolution>): Resolver & { asked: string[][] } {
  const asked: string[][] = [];
  return {
    asked,
    resolve: async (items) => {
      asked.push(items.map((i) => i.urn));
      const out = new Map<string, Resolution>();
      for (const { urn } of items) {
        const answer = answers[urn];
        if (answer) out.set(urn, answer);
      }
      return out;
    },
    cached: () => undefined,
  };
}

describe('checkText: one text through scan, resolve and diagnostics', () => {
  test('each URN is asked once, in one resolve, and what the catalog lacks is diagnosed where it stands', async () => {
    const text = `datasets:\n  - ${USERS}\n  - ${USERS}\n  - ${ORDERS}\n  - urn:li:dataset:(urn:li:dataPlatform:hive,db.x)\n`;
    const client = answering({ [USERS]: { state: 'missing' } });
    const r = await checkText(text, 'yaml', DEFAULT_SETTINGS, client);
    assert.deepEqual(client.asked, [[USERS, ORDERS]]);
    const codes = r?.diagnostics.map((d) => `${d.code} ${text.slice(d.start, d.end)}`).sort();
    assert.deepEqual(codes, [
      'malformed-urn (urn:li:dataPlatform:hive,db.x)',
      `unknown-urn ${USERS}`,
      `unknown-urn ${USERS}`,
    ]);
  });

  test('a language the settings do not scan is not checked, and the catalog is not asked', async () => {
    const client = answering({});
    assert.equal(await checkText(USERS, 'yaml', { ...DEFAULT_SETTINGS, languages: ['python'] }, client), undefined);
    assert.deepEqual(client.asked, []);
  });

  test('a text without URNs asks the catalog nothing', async () => {
    const client = answering({});
    assert.deepEqual((await checkText('nothing here', 'plaintext', DEFAULT_SETTINGS, client))?.diagnostics, []);
    assert.deepEqual(client.asked, []);
  });
});

describe('resolvableItems: what the catalog is asked about several scans', () => {
  test('each URN once across scans, in order of appearance; a column is asked as its dataset; templates and users are not asked', () => {
    const column = `urn:li:schemaField:(${USERS},email)`;
    const scans = [
      scanText(
        `a = "${column}"\nb = "urn:li:corpuser:jdoe"\nc = "urn:li:dataset:(urn:li:dataPlatform:{p},t,PROD)"`,
        'python',
        DEFAULT_SETTINGS,
      ),
      scanText(`${ORDERS}\n${USERS}`, 'plaintext', DEFAULT_SETTINGS),
    ];
    assert.deepEqual(resolvableItems(scans), [
      { urn: USERS, kind: 'dataset' },
      { urn: ORDERS, kind: 'dataset' },
    ]);
  });
});
