/**
 * Workspace trust at the protocol level: a server initialized with `{trusted: false}` (VS Code's
 * Restricted Mode) refuses every write command with a clear message, sends the catalog nothing
 * for them (no read, no write, on either write path), and offers no code action that writes —
 * for every diagnostic that would offer one in a trusted workspace, and for the refactorings at
 * every URN — while reading (hover) still works. The same requests to a trusted server do offer
 * writing actions, so the comparison is not empty.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { S, sampleCatalog, type Catalog } from '../support/fixture';
import { hoverText, positionOf, startSession, type LspSession } from '../support/lspClient';
import type { WriteResult } from '../../model/src/protocol';
import { ClientCommands } from '../../model/src/commandIds';

const WRITES: Array<[string, unknown]> = [
  [
    'catalogLens.setDatasetDescription',
    { urn: S.orders, description: 'x', link: { url: 'https://wiki.example.com/x', description: 'x' } },
  ],
  ['catalogLens.setColumnDescription', { urn: S.users, fieldPath: 'age', description: 'x' }],
  ['catalogLens.addFeaturesToTable', { table: S.usersTable, features: [S.signupDays] }],
  ['catalogLens.addFeaturesToModel', { model: S.churnModel, features: [S.avgAmount] }],
  ['catalogLens.addGroupsToModel', { model: S.ltvModel, groups: [S.ltvGroup] }],
  ['catalogLens.removeFeaturesFromTable', { table: S.usersTable, features: [S.age] }],
  ['catalogLens.removeFeaturesFromModel', { model: S.churnModel, features: [S.age] }],
  ['catalogLens.removeGroupsFromModel', { model: S.churnModel, groups: [S.churnGroup] }],
  ['catalogLens.createEntity', { urn: 'urn:li:mlFeature:(users_table,new_one)', properties: { description: 'x' } }],
  ['catalogLens.createEntity', { urn: S.age, properties: { description: 'x' }, overwrite: true }],
];

const PYTHON = `a = "${S.orders}"\nb = "urn:li:mlFeature:(users_table,brand_new)"\nc = "${S.avgAmount}"\nd = "${S.ltvModel}"\ne = "${S.users}"\n`;
const YAML = [
  'datasets:',
  `  - urn: ${S.users}`,
  '    description: Not what the catalog says.',
  '    columns:',
  '      - name: age',
  '      - name: email',
  "        description: Not the catalog's either.",
  `  - urn: ${S.orders}`,
  '    description: Orders placed by users.',
  'feature_tables:',
  `  - urn: ${S.usersTable}`,
  '    features:',
  `      - ${S.signupDays}`,
  'models:',
  `  - urn: ${S.churnModel}`,
  `    groups: ["${S.ltvGroup}"]`,
  '',
].join('\n');
const WRITING_DIAGNOSTICS = [
  'missing-description',
  'unknown-urn',
  'description-mismatch',
  'column-description-mismatch',
  'missing-column-description',
  'missing-list-member',
];

describe('a server in an untrusted workspace (initializationOptions.trusted: false)', () => {
  let catalog: Catalog;
  let restricted: LspSession;
  let restrictedPlain: LspSession;
  let restrictedGraphql: LspSession;
  let trusted: LspSession;
  before(async () => {
    catalog = await sampleCatalog();
    restricted = await startSession({
      settings: { url: catalog.url },
      initializationOptions: { trusted: false, clientCommands: true },
    });
    restrictedPlain = await startSession({ settings: { url: catalog.url }, initializationOptions: { trusted: false } });
    restrictedGraphql = await startSession({
      settings: { url: catalog.url, writePath: 'graphql' },
      initializationOptions: { trusted: false, clientCommands: true },
    });
    trusted = await startSession({ settings: { url: catalog.url }, initializationOptions: { clientCommands: true } });
  });
  after(async () => {
    console.log(
      `restricted mode: ${WRITES.length} write commands refused on both write paths; ${WRITING_DIAGNOSTICS.length} kinds of diagnostic with no writing action`,
    );
    for (const s of [restricted, restrictedPlain, restrictedGraphql, trusted]) await s.stop();
    await catalog.close();
  });

  for (const [command, arg] of WRITES) {
    test(`${command} ${JSON.stringify(arg).slice(0, 60)}…: refused with a clear message, and the catalog hears nothing of it (both write paths)`, async () => {
      for (const lsp of [restricted, restrictedGraphql]) {
        catalog.stats.reset();
        const r = await lsp.command<WriteResult>(command, arg);
        assert.equal(r.status, 'failed');
        assert.equal(r.kind, 'rejected');
        assert.equal(
          r.message,
          'This workspace is not trusted (Restricted Mode): Catalog Lens writes nothing to the catalog here.',
        );
        assert.deepEqual(
          [catalog.stats.graphql, catalog.stats.aspectReads, catalog.stats.aspectWrites],
          [0, 0, 0],
          'no request reached the catalog',
        );
      }
    });
  }

  /** Every code action offered for `lsp`'s diagnostics of both documents and at every URN. */
  async function allActions(lsp: LspSession): Promise<{ actions: CodeAction[]; diagnostics: Diagnostic[] }> {
    const actions: CodeAction[] = [];
    const diagnostics: Diagnostic[] = [];
    for (const [uri, languageId, text] of [
      ['file:///w/r.py', 'python', PYTHON],
      ['file:///w/r.yml', 'yaml', YAML],
    ] as const) {
      await lsp.open(uri, languageId, text);
      const ds = await lsp.diagnostics(uri, (d) =>
        d.some((x) => x.code === (languageId === 'yaml' ? 'missing-list-member' : 'unknown-urn')),
      );
      diagnostics.push(...ds);
      for (const d of ds) actions.push(...(await lsp.codeActions(uri, d.range, [d])));
      for (let i = text.indexOf('urn:'); i >= 0; i = text.indexOf('urn:', i + 1)) {
        const at = positionOf(text, text.slice(i, i + 20), 8);
        actions.push(...(await lsp.codeActions(uri, { start: at, end: at }, [])));
      }
    }
    return { actions, diagnostics };
  }

  test('no code action that writes is offered for any diagnostic or URN, with or without client commands; a trusted server offers them for the same', async () => {
    const open = await allActions(trusted);
    const codes = new Set(open.diagnostics.map((d) => String(d.code)));
    for (const code of WRITING_DIAGNOSTICS) assert.ok(codes.has(code), `the documents raise ${code}`);
    const writing = open.actions.filter((a) => a.command);
    assert.ok(
      writing.length >= 8,
      `a trusted server offers writing actions (${writing.map((a) => a.title).join(', ')})`,
    );
    for (const lsp of [restricted, restrictedPlain]) {
      const { actions, diagnostics } = await allActions(lsp);
      assert.deepEqual(new Set(diagnostics.map((d) => String(d.code))), codes, 'the same diagnostics');
      assert.deepEqual(
        actions
          .filter((a) => a.command && a.command.command !== ClientCommands.manageTrust)
          .map((a) => `${a.title} → ${a.command!.command}`),
        [],
      );
      // Where a write is withheld, the extension's client is told why and offered the trust editor; others are not.
      const trust = actions.filter((a) => a.command?.command === ClientCommands.manageTrust);
      if (lsp === restricted) {
        assert.ok(trust.length > 0, 'the trust action is offered where a write would be');
        for (const a of trust) assert.match(a.title, /^Trust this workspace to write to the catalog/);
        assert.ok(
          trust.some((a) => a.kind === 'quickfix' && (a.diagnostics ?? []).length > 0),
          'as a quick fix of the diagnostic the write belonged to',
        );
      } else assert.deepEqual(trust, []);
      assert.ok(
        actions.some((a) => a.title === 'Pull description from catalog' && a.edit),
        'edits of the file itself are still offered',
      );
    }
  });

  test('reading still works in Restricted Mode: the hover shows what the catalog says', async () => {
    const text = `x = "${S.users}"\n`;
    await restricted.open('file:///w/read.py', 'python', text);
    assert.match(
      hoverText(await restricted.hover('file:///w/read.py', positionOf(text, 'db.users'))),
      /One row per registered user/,
    );
  });
});
