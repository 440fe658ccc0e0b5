/**
 * The document pipeline without an editor, in process: scan, resolution and diagnostics
 * (server/src/pipeline/check.ts), and Check Workspace over real files (server/src/workspace.ts)
 * with a stand-in catalog client and no LSP connection — what a command line would run.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_SETTINGS } from '../../model/src/protocol';
import type { Resolution } from '../../server/src/catalogClient/client';
import type { PlainDiagnostic } from '../../server/src/features/diagnostics';
import { diagnose, resolvableItems, resolveItems, scanText, type Resolver } from '../../server/src/pipeline/check';
import { checkWorkspace, type WorkspaceContext } from '../../server/src/workspace';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const ORDERS = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,db.orders,PROD)';
const MALFORMED = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.x)';

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

const described = (text: string, diagnostics: PlainDiagnostic[]): string[] =>
  diagnostics.map((d) => `${d.code} ${text.slice(d.start, d.end)}`).sort();

describe('scan, resolve, diagnose: one text', () => {
  test('each URN is asked once, in one resolve, and what the catalog lacks is diagnosed where it stands', async () => {
    const text = `datasets:\n  - ${USERS}\n  - ${USERS}\n  - ${ORDERS}\n  - ${MALFORMED}\n`;
    const client = answering({ [USERS]: { state: 'missing' } });
    const scan = scanText(text, 'yaml', DEFAULT_SETTINGS);
    const resolved = await resolveItems(client, resolvableItems([scan]));
    assert.deepEqual(client.asked, [[USERS, ORDERS]]);
    assert.deepEqual(described(text, diagnose(scan, resolved, DEFAULT_SETTINGS)), [
      'malformed-urn (urn:li:dataPlatform:hive,db.x)',
      `unknown-urn ${USERS}`,
      `unknown-urn ${USERS}`,
    ]);
  });

  test('nothing to ask: the catalog is not asked, and answers what its client has cached', async () => {
    const client = answering({});
    const resolved = await resolveItems(
      client,
      resolvableItems([scanText('no URN here', 'plaintext', DEFAULT_SETTINGS)]),
    );
    assert.deepEqual(client.asked, []);
    assert.equal(resolved(USERS), undefined);
  });

  test('across scans each URN is asked once, in order of appearance; a column is asked as its dataset; templates and users are not asked', () => {
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

describe('Check Workspace without an LSP connection', () => {
  test('files of the folder are scanned, the catalog is asked once for all, and each file with URNs gets its diagnostics', async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'catalog-lens-check-'));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    mkdirSync(join(root, 'pipelines'));
    mkdirSync(join(root, 'node_modules'));
    const yaml = `datasets:\n  - ${USERS}\n  - ${MALFORMED}\n`;
    const python = `ORDERS = "${ORDERS}"\nUSERS = "${USERS}"\n`;
    writeFileSync(join(root, 'catalog.yaml'), yaml);
    writeFileSync(join(root, 'pipelines', 'load.py'), python);
    writeFileSync(join(root, 'notes.txt'), 'no URN here');
    writeFileSync(join(root, 'node_modules', 'skipped.py'), python);
    const client = answering({ [USERS]: { state: 'missing' }, [ORDERS]: { state: 'missing' } });
    const published = new Map<string, string[]>();
    const context: WorkspaceContext = {
      settingsFor: async () => DEFAULT_SETTINGS,
      clientFor: () => client,
      log: () => undefined,
      workspaceFolders: () => [pathToFileURL(root).toString()],
      openDocument: () => undefined,
      scanOf: () => undefined,
      publish: (doc, diagnostics) => published.set(doc.uri, described(doc.getText(), diagnostics)),
      clear: (uri) => published.set(uri, []),
    };
    const result = await checkWorkspace(context, { cancelled: () => false });
    assert.deepEqual(result, { files: 3, skipped: 0, urns: 2, diagnostics: 4, cancelled: false });
    assert.equal(client.asked.length, 1);
    assert.deepEqual(client.asked[0]!.sort(), [ORDERS, USERS].sort());
    assert.deepEqual(Object.fromEntries(published), {
      [pathToFileURL(join(root, 'catalog.yaml')).toString()]: [
        'malformed-urn (urn:li:dataPlatform:hive,db.x)',
        `unknown-urn ${USERS}`,
      ],
      [pathToFileURL(join(root, 'pipelines', 'load.py')).toString()]: [`unknown-urn ${USERS}`, `unknown-urn ${ORDERS}`],
    });
  });
});
