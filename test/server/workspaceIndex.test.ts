/**
 * The workspace index, through the real server process over LSP, on a real
 * two-root workspace on disk: references and document highlights across files, roots, builder
 * calls and both namespace words; definition (the docs-as-code YAML entry); workspace symbols;
 * code lenses on docs-as-code entries; rename with prepareRename, as a WorkspaceEdit that parses
 * back to the new URN everywhere (and that refuses, naming where, when a place cannot be edited);
 * a file written on disk and one deleted, picked up through workspace/didChangeWatchedFiles;
 * Check Workspace reading the files the index names as holding URNs.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type {
  CodeLens,
  DocumentHighlight,
  Location,
  SymbolInformation,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { scanText } from '../../server/src/pipeline/check';
import { DEFAULT_SETTINGS } from '../../model/src/protocol';
import { applyEdits } from '../support/textEdits';
import { positionOf, startSession, type LspSession } from '../support/lspClient';
import { COMPAT_MODES, S, sampleCatalog, serverFor, type Catalog } from '../support/fixture';

const users = (ns = 'li'): string => `urn:${ns}:dataset:(urn:${ns}:dataPlatform:hive,db.users,PROD)`;
const orders = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const payments = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.payments,PROD)';

const FILES: Record<string, string> = {
  'a/catalog/datasets.yml': `datasets:\n  - urn: ${users()}\n    description: One row per user.\n  - urn: ${orders}\n    description: Orders.\n`,
  'a/pipelines/load.py': `from datahub.emitter.mce_builder import make_dataset_urn\n\nUSERS = "${users()}"\nALSO = make_dataset_urn("hive", "db.users", "PROD")\n`,
  'b/jobs/job.py': `SOURCE = "${users('svc')}"\n`,
  'b/sql/report.sql': `-- reads ${users()}\nSELECT 1;\n`,
  'a/pipelines/pay.py': `PAYMENTS = "${payments}"\n`,
};

describe('the workspace index over LSP', () => {
  let dir: string;
  let lsp: LspSession;
  const uri = (rel: string): string => pathToFileURL(join(dir, rel)).toString();
  const text = (rel: string): string => readFileSync(join(dir, rel), 'utf8');
  const write = (rel: string, content: string): void => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  };
  const opened = new Set<string>();
  /** Opens a file in the editor once (tests run in any order). */
  const open = async (file: string): Promise<void> => {
    if (opened.has(file)) return;
    opened.add(file);
    const language = file.endsWith('.yml') ? 'yaml' : file.endsWith('.sql') ? 'sql' : 'python';
    await lsp.open(uri(file), language, text(file));
  };
  const rel = (u: string): string => u.slice(pathToFileURL(dir).toString().length + 1);
  const references = async (file: string, needle: string): Promise<string[]> => {
    await open(file);
    const locs = await lsp.connection.sendRequest<Location[] | null>('textDocument/references', {
      textDocument: { uri: uri(file) },
      position: positionOf(text(file), needle, 2),
      context: { includeDeclaration: true },
    });
    return (locs ?? []).map((l) => `${rel(l.uri)}:${l.range.start.line + 1}`);
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'catalog-lens-index-'));
    for (const [name, content] of Object.entries(FILES)) write(name, content);
    lsp = await startSession({
      initializationOptions: { indexedNotifications: true },
      workspaceFolders: [
        { uri: pathToFileURL(join(dir, 'a')).toString(), name: 'a' },
        { uri: pathToFileURL(join(dir, 'b')).toString(), name: 'b' },
      ],
      workspaceCapabilities: {
        didChangeWatchedFiles: { dynamicRegistration: true },
        workspaceEdit: { documentChanges: true, changeAnnotationSupport: { groupsOnLabel: true } },
      },
    });
  });
  after(async () => {
    await lsp?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the server watches the files it indexes', async () => {
    // The registration is asked in the server's `initialized` handler, before it builds or reads any
    // file: any notification of the index comes after it.
    await lsp.waitForIndexed(() => true);
    assert.ok(
      lsp.logs.some((l) => l.startsWith('registerCapability:') && l.includes('workspace/didChangeWatchedFiles')),
      lsp.logs.join('\n'),
    );
  });

  test('references: every place db.users is named, in both roots, in literals, YAML, SQL, a builder call and the svc word', async () => {
    assert.deepEqual(await references('a/pipelines/load.py', 'db.users'), [
      'a/catalog/datasets.yml:2',
      'a/pipelines/load.py:3',
      'a/pipelines/load.py:4',
      'b/jobs/job.py:1',
      'b/sql/report.sql:1',
    ]);
  });

  test('document highlights: the literal and the builder call of the open document', async () => {
    await open('a/pipelines/load.py');
    const hs = await lsp.connection.sendRequest<DocumentHighlight[]>('textDocument/documentHighlight', {
      textDocument: { uri: uri('a/pipelines/load.py') },
      position: positionOf(text('a/pipelines/load.py'), 'db.users', 2),
    });
    assert.deepEqual(
      hs.map((h) => h.range.start.line + 1),
      [3, 4],
    );
  });

  test('definition: the docs-as-code entry of db.users', async () => {
    const job = 'b/jobs/job.py';
    await open(job);
    const defs = await lsp.connection.sendRequest<Location[] | null>('textDocument/definition', {
      textDocument: { uri: uri(job) },
      position: positionOf(text(job), 'db.users', 2),
    });
    assert.deepEqual(
      (defs ?? []).map((l) => `${rel(l.uri)}:${l.range.start.line + 1}:${l.range.start.character}`),
      ['a/catalog/datasets.yml:2:9'],
    );
  });

  test('workspace symbols: entities by a part of their name, with qualifier, platform and env', async () => {
    const found = await lsp.connection.sendRequest<SymbolInformation[]>('workspace/symbol', { query: 'users' });
    assert.deepEqual(
      found.map((s) => `${s.name} (${s.containerName}) ${rel(s.location.uri)}:${s.location.range.start.line + 1}`),
      ['users (db · hive · PROD) a/catalog/datasets.yml:2'],
    );
    const all = await lsp.connection.sendRequest<SymbolInformation[]>('workspace/symbol', { query: 'DB.' });
    assert.deepEqual(
      all.map((s) => s.name),
      ['orders', 'payments', 'users'],
    );
  });

  test('catalogLens/usages: the places of an entity by URN alone (the lineage view), in either namespace word; bad params get an error', async () => {
    const usages = (urn: unknown) =>
      lsp.connection.sendRequest<{
        places?: Array<{ uri: string; range: { start: { line: number } }; entry: boolean }>;
        files?: number;
        error?: string;
      }>('catalogLens/usages', { urn });
    const found = await usages(users('svc'));
    assert.deepEqual(
      found.places?.map((p) => `${rel(p.uri)}:${p.range.start.line + 1}${p.entry ? ' entry' : ''}`),
      [
        'a/catalog/datasets.yml:2 entry',
        'a/pipelines/load.py:3',
        'a/pipelines/load.py:4',
        'b/jobs/job.py:1',
        'b/sql/report.sql:1',
      ],
    );
    assert.equal(found.files, 4);
    assert.deepEqual(await usages('urn:li:dataset:(urn:li:dataPlatform:hive,db.nowhere,PROD)'), {
      places: [],
      files: 0,
    });
    assert.match((await usages('urn:li:dataset:(')).error ?? '', /catalogLens\/usages: .* is not a URN/);
    assert.match((await usages(42)).error ?? '', /urn must be a string/);
  });

  test('code lenses on the docs-as-code entries: how many other files use each', async () => {
    const yml = 'a/catalog/datasets.yml';
    await open(yml);
    const lenses = await lsp.connection.sendRequest<CodeLens[]>('textDocument/codeLens', {
      textDocument: { uri: uri(yml) },
    });
    assert.deepEqual(
      lenses.map((l) => `${l.range.start.line + 1}: ${l.command?.title}`),
      ['2: used in 3 files', '4: not used elsewhere in the workspace'],
    );
    // An editor without the extension's commands gets the count only, nothing to run.
    assert.deepEqual(
      lenses.map((l) => l.command?.command),
      ['', ''],
    );
  });

  test("with the extension's commands, a click on a count peeks the references there", async () => {
    const peek = await startSession({
      initializationOptions: { indexedNotifications: true, clientCommands: true },
      workspaceFolders: [
        { uri: pathToFileURL(join(dir, 'a')).href, name: 'a' },
        { uri: pathToFileURL(join(dir, 'b')).href, name: 'b' },
      ],
    });
    try {
      const yml = 'a/catalog/datasets.yml';
      await peek.open(uri(yml), 'yaml', readFileSync(join(dir, yml), 'utf8'));
      const lenses = await peek.connection.sendRequest<CodeLens[]>('textDocument/codeLens', {
        textDocument: { uri: uri(yml) },
      });
      assert.deepEqual(
        lenses.map((l) => [l.command?.title, l.command?.command, l.command?.arguments]),
        [
          ['used in 3 files', 'catalogLens.showReferences', [{ uri: uri(yml), position: lenses[0]!.range.start }]],
          ['not used elsewhere in the workspace', '', undefined],
        ],
      );
    } finally {
      await peek.stop();
    }
  });

  test('a file written on disk, then deleted, through watched-file events', async () => {
    const added = 'b/jobs/new_job.py';
    write(added, `X = "${users()}"\n`);
    const created = lsp.nextIndexed((p) => p.reason === 'file');
    await lsp.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: uri(added), type: 1 }],
    });
    await created;
    assert.ok((await references('a/pipelines/load.py', 'db.users')).includes('b/jobs/new_job.py:1'));
    unlinkSync(join(dir, added));
    const deleted = lsp.nextIndexed((p) => p.reason === 'file');
    await lsp.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: uri(added), type: 3 }],
    });
    await deleted;
    assert.ok(!(await references('a/pipelines/load.py', 'db.users')).includes('b/jobs/new_job.py:1'));
  });

  test('rename: prepareRename offers the name; the WorkspaceEdit, applied, names db.people everywhere and says the catalog is not changed', async () => {
    const file = 'a/pipelines/load.py';
    await open(file);
    const position = positionOf(text(file), 'db.users', 3);
    const prepared = await lsp.connection.sendRequest<{ placeholder: string; range: { start: { character: number } } }>(
      'textDocument/prepareRename',
      { textDocument: { uri: uri(file) }, position },
    );
    assert.equal(prepared.placeholder, 'db.users');
    assert.equal(prepared.range.start.character, text(file).split('\n')[2]!.indexOf('db.users'));
    const edit = await lsp.connection.sendRequest<WorkspaceEdit>('textDocument/rename', {
      textDocument: { uri: uri(file) },
      position,
      newName: 'db.people',
    });
    assert.match(JSON.stringify(edit.changeAnnotations), /the catalog still has db\.users as it was/);
    // Not marked as needing confirmation: VS Code would leave the edits unchecked in its preview.
    assert.equal(edit.changeAnnotations?.['catalogLens.rename']?.needsConfirmation, false);
    const said = (): boolean =>
      lsp.logs.some(
        (l) =>
          l.includes('Catalog Lens: rename of db.users to db.people: 5 places in 4 files.') &&
          l.includes('the catalog still has db.users as it was'),
      );
    // Nothing is said before the edit is applied (VS Code may hold it in its Refactor Preview).
    assert.ok(!said(), lsp.logs.join('\n'));
    const byFile = new Map<string, TextEdit[]>();
    for (const c of edit.documentChanges ?? []) {
      if (!('textDocument' in c)) continue;
      byFile.set(rel(c.textDocument.uri), c.edits as TextEdit[]);
    }
    // The editor applies the edit to the renamed document: now the message comes.
    await lsp.change(uri(file), applyEdits(text(file), byFile.get(file)!));
    await lsp.waitUntil(said, 'the rename message, once the edit is applied');
    assert.ok(said(), lsp.logs.join('\n'));
    await lsp.change(uri(file), text(file));
    assert.deepEqual(
      [...byFile.keys()],
      ['a/catalog/datasets.yml', 'a/pipelines/load.py', 'b/jobs/job.py', 'b/sql/report.sql'],
    );
    for (const [name, edits] of byFile) {
      const after = applyEdits(text(name), edits);
      const language = name.endsWith('.yml') ? 'yaml' : name.endsWith('.sql') ? 'sql' : 'python';
      const urns = scanText(after, language, { ...DEFAULT_SETTINGS }).occurrences.filter((o) => o.parent === undefined);
      assert.ok(urns.length > 0, name);
      for (const o of urns) assert.ok(!o.urn.includes('db.users'), `${name} still names db.users: ${o.urn}`);
      assert.ok(after.includes('db.people'), name);
    }
    // The svc spelling and the builder's other arguments stay as they were.
    assert.equal(
      applyEdits(text('b/jobs/job.py'), byFile.get('b/jobs/job.py')!),
      `SOURCE = "${users('svc').replace('db.users', 'db.people')}"\n`,
    );
    assert.match(applyEdits(text(file), byFile.get(file)!), /make_dataset_urn\("hive", "db\.people", "PROD"\)/);
  });

  test('rename refuses, naming where, when a place spells the entity in a way no edit can change', async () => {
    const escaped = 'b/payments.json';
    write(escaped, `{"urn": "${payments.replace('db.payments', 'db.paym\\u0065nts')}"}\n`);
    const indexed = lsp.nextIndexed((p) => p.reason === 'file');
    await lsp.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: uri(escaped), type: 1 }],
    });
    const file = 'a/pipelines/pay.py';
    await indexed;
    assert.ok((await references(file, 'db.payments')).includes('b/payments.json:1'));
    const rename = (newName: string): Promise<unknown> =>
      lsp.connection.sendRequest('textDocument/rename', {
        textDocument: { uri: uri(file) },
        position: positionOf(text(file), 'db.payments', 3),
        newName,
      });
    await assert.rejects(
      rename('db.purchases'),
      /Cannot rename: 1 place writes it in a way no edit can change safely .*payments\.json:1\. Nothing was renamed\./,
    );
    await assert.rejects(rename('db,payments'), /Cannot rename: db,payments cannot be a name in a URN/);
  });
});

describe('Check Workspace reads from the workspace index', () => {
  let catalog: Catalog;
  let dir: string;
  before(async () => {
    catalog = await sampleCatalog();
    dir = mkdtempSync(join(tmpdir(), 'catalog-lens-index-check-'));
  });
  after(async () => {
    await catalog.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('only the files the index names are read; a file the watcher has not reported is not checked until it is; excluded folders stay out', async () => {
    const put = (rel: string, content: string): string => {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), content);
      return pathToFileURL(join(dir, rel)).toString();
    };
    const flagged = put('flagged.py', `x = "${S.ghost}"\n`);
    put('plain.py', 'print("no urns here")\n');
    put('big.py', `x = "${S.ghost}"\n` + '#'.repeat(4096) + '\n');
    const vendored = put('node_modules/dep/vendored.py', `x = "${S.ghost}"\n`);
    const lsp = await serverFor(catalog.url, {
      initializationOptions: { indexedNotifications: true },
      workspaceFolders: [{ uri: pathToFileURL(dir).toString(), name: 'w' }],
      settings: { maxFileSize: 2048 },
      workspaceCapabilities: { didChangeWatchedFiles: { dynamicRegistration: true } },
    });
    try {
      const check = (): Promise<unknown> => lsp.command('catalogLens.checkWorkspace', {});
      // Check Workspace waits for the build and for the editor's answer to the watcher's registration.
      assert.deepEqual(await check(), { files: 2, skipped: 1, urns: 1, diagnostics: 1, cancelled: false });
      assert.ok(lsp.logs.includes('workspace index: watching the files of the workspace'), lsp.logs.join('\n'));
      assert.ok(
        lsp.logs.some((l) => /Check Workspace: .*: the workspace index names 1 of 2 files as holding URNs/.test(l)),
        lsp.logs.join('\n'),
      );
      assert.deepEqual(
        lsp.latestDiagnostics(flagged)!.map((d) => d.code),
        ['unknown-urn'],
      );

      // Written on disk, not (yet) reported: the index does not know it, so the check does not read it.
      const late = put('late.py', `y = "${S.ghost}"\n`);
      const vendoredLate = put('node_modules/dep/late.py', `y = "${S.ghost}"\n`);
      assert.deepEqual(await check(), { files: 2, skipped: 1, urns: 1, diagnostics: 1, cancelled: false });
      assert.equal(lsp.latestDiagnostics(late), undefined);

      // Reported: checked from then on; the file in node_modules is reported too, and stays out.
      let reported = 0;
      const both = lsp.nextIndexed((p) => p.reason === 'file' && ++reported === 2);
      await lsp.connection.sendNotification('workspace/didChangeWatchedFiles', {
        changes: [
          { uri: late, type: 1 },
          { uri: vendoredLate, type: 1 },
        ],
      });
      await both;
      const third = await check();
      assert.deepEqual(third, { files: 3, skipped: 1, urns: 1, diagnostics: 2, cancelled: false });
      assert.deepEqual(
        lsp.latestDiagnostics(late)!.map((d) => d.code),
        ['unknown-urn'],
      );
      assert.equal(lsp.latestDiagnostics(vendored), undefined);
      assert.equal(lsp.latestDiagnostics(vendoredLate), undefined);

      // Settings other than those the index was built with: the check lists and reads the folder
      // itself (big.py is no longer too large; a file never reported is found).
      const unreported = put('unreported.py', `z = "${S.ghost}"\n`);
      lsp.settings['maxFileSize'] = 8192;
      await lsp.configurationChanged();
      assert.deepEqual(await check(), { files: 5, skipped: 0, urns: 1, diagnostics: 4, cancelled: false });
      assert.deepEqual(
        lsp.latestDiagnostics(unreported)!.map((d) => d.code),
        ['unknown-urn'],
      );
    } finally {
      await lsp.stop();
    }
  });
});

for (const compat of COMPAT_MODES)
  describe(`Check Workspace through the index: a DataHub dataset file that names no URN (${compat} catalog)`, () => {
    let catalog: Catalog;
    let dir: string;
    before(async () => {
      catalog = await sampleCatalog({ compat });
      dir = mkdtempSync(join(tmpdir(), 'cl-index-datahub-'));
    });
    after(async () => {
      await catalog?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    test('is read and checked: its entry stands for db.users, whose schema has no column emial', async () => {
      const file = join(dir, 'users_dataset.yaml');
      writeFileSync(file, 'id: db.users\nplatform: hive\nschema:\n  fields:\n    - id: emial\n');
      const uri = pathToFileURL(file).toString();
      const lsp = await serverFor(catalog.url, {
        workspaceFolders: [{ uri: pathToFileURL(dir).toString(), name: 'w' }],
        workspaceCapabilities: { didChangeWatchedFiles: { dynamicRegistration: true } },
      });
      try {
        await lsp.command('catalogLens.checkWorkspace', {});
        // The index vouched for the folder (the watcher is on) and still named the file.
        assert.ok(
          lsp.logs.some((l) => /Check Workspace: .*the workspace index names 1 of 1 files as holding URNs/.test(l)),
          lsp.logs.join('\n'),
        );
        const messages = (lsp.latestDiagnostics(uri) ?? []).map((d) => String(d.message));
        assert.ok(
          messages.some((m) => /Column 'emial' is not in the catalog's schema of db\.users/.test(m)),
          messages.join('\n'),
        );
      } finally {
        await lsp.stop();
      }
    });
  });
