/**
 * Go to Symbol in Workspace (Ctrl+T): each entity under its own name — a dataset's last name part —
 * with the rest of its name, platform and env as the container (server/src/features/symbols.ts),
 * so that VS Code's fuzzy sort of the names puts the entity named exactly as the query first; and
 * the server's own order, for clients that keep it: that name first, then names starting with the
 * query, then the rest. Over LSP, against the real server process, on a workspace on disk.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { SymbolInformation } from 'vscode-languageserver-protocol';
import { SymbolKind } from 'vscode-languageserver-protocol';
import { symbolRank, symbolText } from '../../server/src/features/symbols';
import { parseUrn } from '../../model/src/urn';
import { startSession, type LspSession } from '../support/lspClient';

const URNS = {
  users: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)',
  legacy: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users_legacy,PROD)',
  revenue: 'urn:li:dataset:(urn:li:dataPlatform:snowflake,analytics.public.revenue,PROD)',
  file: 'urn:li:dataset:(urn:li:dataPlatform:s3,bucket/exports/users.csv,DEV)',
  clicks: 'urn:li:dataset:(urn:li:dataPlatform:kafka,clicks,PROD)',
  table: 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users_table)',
  feature: 'urn:li:mlFeature:(users_table,user_age)',
  model: 'urn:li:mlModel:(urn:li:dataPlatform:sagemaker,users_churn,PROD)',
};

const FILES: Record<string, string> = {
  'catalog/datasets.yml': `datasets:\n  - urn: ${URNS.users}\n    description: One row per user.\n  - urn: ${URNS.legacy}\n    description: The old one.\n`,
  'pipelines/features.py': [
    `TABLE = "${URNS.table}"`,
    `AGE = "${URNS.feature}"`,
    `MODEL = "${URNS.model}"`,
    `USERS = "${URNS.users}"`,
    `REVENUE = "${URNS.revenue}"`,
    `EXPORT = "${URNS.file}"`,
    `CLICKS = "${URNS.clicks}"`,
    '',
  ].join('\n'),
};

const parsed = (urn: string) => {
  const p = parseUrn(urn);
  assert.ok(p.ok, urn);
  return p.urn;
};

describe('symbol names and containers (features/symbols.ts)', () => {
  test("a dataset is named by its name's last part; the rest, the platform and env are its container", () => {
    assert.deepEqual(symbolText(parsed(URNS.users)), {
      name: 'users',
      full: 'db.users',
      container: 'db · hive · PROD',
    });
    assert.deepEqual(symbolText(parsed(URNS.revenue)), {
      name: 'revenue',
      full: 'analytics.public.revenue',
      container: 'analytics.public · snowflake · PROD',
    });
    // A path splits at its last "/", not at the file's extension.
    assert.deepEqual(symbolText(parsed(URNS.file)), {
      name: 'users.csv',
      full: 'bucket/exports/users.csv',
      container: 'bucket/exports · s3 · DEV',
    });
    assert.deepEqual(symbolText(parsed(URNS.clicks)), { name: 'clicks', full: 'clicks', container: 'kafka · PROD' });
    assert.equal(symbolText(parsed('urn:li:dataset:(urn:li:dataPlatform:hive,.hidden,PROD)')).name, '.hidden');
    assert.equal(symbolText(parsed('urn:li:dataset:(urn:li:dataPlatform:hive,db.,PROD)')).name, 'db.');
  });

  test('the ML kinds: a feature in its table, a table and a model on their platform', () => {
    assert.deepEqual(symbolText(parsed(URNS.feature)), {
      name: 'user_age',
      full: 'user_age',
      container: 'users_table',
    });
    assert.deepEqual(symbolText(parsed(URNS.table)), { name: 'users_table', full: 'users_table', container: 'feast' });
    assert.deepEqual(symbolText(parsed(URNS.model)), {
      name: 'users_churn',
      full: 'users_churn',
      container: 'sagemaker · PROD',
    });
    assert.deepEqual(symbolText(parsed('urn:li:corpuser:jdoe')), { name: 'jdoe', full: 'jdoe', container: 'user' });
  });

  test('ranks: the own or full name itself, an own name starting with the query, a full name starting with it, the rest', () => {
    // "db.users": its own name starts at 3.
    assert.equal(symbolRank('db.users', 3, 'users'), 0);
    assert.equal(symbolRank('db.users', 3, 'db.users'), 0);
    assert.equal(symbolRank('db.users_legacy', 3, 'users'), 1);
    assert.equal(symbolRank('users_table', 0, 'users'), 1);
    assert.equal(symbolRank('db.users', 3, 'db.'), 2);
    assert.equal(symbolRank('db.users', 3, 'sers'), 3);
    assert.equal(symbolRank('db.users', 3, 'orders'), undefined);
    assert.equal(symbolRank('db.users', 3, ''), 0);
  });
});

describe('workspace symbols over LSP', () => {
  let dir: string;
  let lsp: LspSession;
  const rel = (u: string): string => u.slice(pathToFileURL(dir).toString().length + 1);
  const symbols = (query: string): Promise<SymbolInformation[]> =>
    lsp.connection.sendRequest<SymbolInformation[]>('workspace/symbol', { query });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'catalog-lens-symbols-'));
    for (const [name, content] of Object.entries(FILES)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), content);
    }
    lsp = await startSession({
      initializationOptions: { indexedNotifications: true },
      workspaceFolders: [{ uri: pathToFileURL(dir).toString(), name: 'w' }],
    });
    await lsp.waitForIndexed(() => true);
  });
  after(async () => {
    await lsp?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('"users": db.users first, named users, then the names starting with users, then the rest', async () => {
    const found = await symbols('users');
    assert.deepEqual(
      found.map((s) => `${s.name} (${s.containerName}) ${rel(s.location.uri)}:${s.location.range.start.line + 1}`),
      [
        'users (db · hive · PROD) catalog/datasets.yml:2',
        'users.csv (bucket/exports · s3 · DEV) pipelines/features.py:6',
        'users_churn (sagemaker · PROD) pipelines/features.py:3',
        'users_legacy (db · hive · PROD) catalog/datasets.yml:4',
        'users_table (feast) pipelines/features.py:1',
      ],
    );
    // The icons: a dataset, a model, a feature table.
    assert.deepEqual(
      found.map((s) => s.kind),
      [SymbolKind.Struct, SymbolKind.Struct, SymbolKind.Function, SymbolKind.Struct, SymbolKind.Class],
    );
  });

  test('the full name finds the entity too, in any case; a qualifier lists what it holds', async () => {
    assert.deepEqual(
      (await symbols('DB.Users')).map((s) => `${s.name} (${s.containerName})`),
      ['users (db · hive · PROD)', 'users_legacy (db · hive · PROD)'],
    );
    assert.deepEqual(
      (await symbols('analytics.')).map((s) => s.name),
      ['revenue'],
    );
    assert.deepEqual(
      (await symbols('age')).map((s) => `${s.name} (${s.containerName})`),
      ['user_age (users_table)'],
    );
  });
});
