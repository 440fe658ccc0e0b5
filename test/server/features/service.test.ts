/**
 * The language service (server/src/service/languageService.ts), in process, built as server.ts
 * builds it (support/service.ts: the real OpenDocuments over an in-memory documents store, the
 * real SettingsStore, session and index service with no workspace folders, whose WorkspaceIndex is
 * given the documents' texts; a stand-in resolution): what each request asks the resolution, and
 * what it answers in LSP's terms — hover, code actions, rename, references.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CodeActionKind, ResponseError, type Hover, type TextDocumentEdit } from 'vscode-languageserver';
import { DEFAULT_SETTINGS } from '../../../model/src/protocol';
import { diagnosticsFor } from '../../../server/src/features/diagnostics';
import { toLspDiagnostic } from '../../../server/src/lsp';
import { applyEdits } from '../../support/textEdits';
import { caret, marks } from './support/caret';
import { dataset, mlFeature, viewEntity, type CatalogTable } from './support/fakeResolution';
import { serviceUnderTest } from './support/service';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const USERS_SVC = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,db.users,PROD)';
const PEOPLE = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.people,PROD)';
const GHOST = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.ghost,PROD)';
const AGE = 'urn:li:mlFeature:(users_table,age)';
const HIVE = 'urn:li:dataPlatform:hive';

const CATALOG: CatalogTable = {
  answers: {
    [USERS]: dataset(USERS, {
      description: 'One row per registered user.',
      columns: [{ path: 'user_id', description: 'Key.' }],
    }),
    [AGE]: mlFeature(AGE, { description: 'Age in years.' }),
  },
  context: { [USERS]: { owners: ['jdoe'], tags: [], terms: [], upstream: 0, downstream: 2 } },
  endpoint: 'http://catalog.test',
};

const markdown = (h: Hover | null): string => (h?.contents as { value: string } | undefined)?.value ?? '';

describe('doHover', () => {
  test('asks the resolution for the entity and what else it knows, and links to the catalog actually used', async () => {
    const sut = serviceUnderTest(CATALOG);
    const { text, position } = caret(`USERS = "${USERS.replace('db.users', 'db.us‸ers')}"\n`);
    await sut.open('untitled:a.py', 'python', text);
    const h = await sut.service.doHover('untitled:a.py', position, sut.token);
    assert.deepEqual(sut.resolution.asked.answers, [USERS]);
    assert.deepEqual(sut.resolution.asked.context, [USERS]);
    assert.deepEqual(h?.range, { start: { line: 0, character: 9 }, end: { line: 0, character: 9 + USERS.length } });
    assert.equal(
      markdown(h),
      [
        '**Dataset** `db.users` · hive · PROD',
        'One row per registered user.',
        'Owners jdoe · Lineage ↑0 ↓2',
        '`user_id` — Key.',
        `[Open in catalog](http://catalog.test/dataset/${USERS})`,
      ].join('\n\n'),
    );
  });

  test('the session decides the links: link tooltips drop the page link, client commands make the lineage a link', async () => {
    const sut = serviceUnderTest(CATALOG, { session: { linkTooltips: true, clientCommands: true } });
    const { text, position } = caret(`USERS = "${USERS.replace('db.users', 'db.us‸ers')}"\n`);
    await sut.open('untitled:a.py', 'python', text);
    const h = markdown(await sut.service.doHover('untitled:a.py', position, sut.token));
    assert.doesNotMatch(h, /Open in catalog/);
    assert.match(h, /\[Lineage ↑0 ↓2\]\(command:catalogLens\.showLineage\?/);
  });

  test('what the pipeline published for this version decides what the hover leaves to the diagnostic', async () => {
    const sut = serviceUnderTest(CATALOG);
    const { text, position } = caret(`- ${GHOST.replace('db.ghost', 'db.gh‸ost')}\n`);
    const doc = await sut.open('untitled:g.yaml', 'yaml', text);
    assert.doesNotMatch(
      markdown(await sut.service.doHover('untitled:g.yaml', position, sut.token)),
      /Not in the catalog/,
    );
    sut.openDocuments.publish(doc, []);
    assert.match(markdown(await sut.service.doHover('untitled:g.yaml', position, sut.token)), /_Not in the catalog\._/);
    // Off a URN, in a closed document, in a language not scanned: no hover.
    assert.equal(await sut.service.doHover('untitled:g.yaml', { line: 1, character: 0 }, sut.token), null);
    assert.equal(await sut.service.doHover('untitled:closed.py', position, sut.token), null);
    await sut.open('untitled:r.rb', 'ruby', text);
    assert.equal(await sut.service.doHover('untitled:r.rb', position, sut.token), null);
  });
});

describe('doHover on a mistyped platform', () => {
  test("anywhere on the URN, the hover is the dataset's (the platform the catalog lacks names nothing of its own); a known platform hovers on its own", async () => {
    const typo = 'urn:li:dataset:(urn:li:dataPlatform:hiv,db.users,PROD)';
    const sut = serviceUnderTest(CATALOG);
    const { text, position } = caret(`x = "${typo.replace(':hiv', ':h‸iv')}"\n`);
    const doc = await sut.open('untitled:t.py', 'python', text);
    sut.openDocuments.publish(doc, []);
    const h = await sut.service.doHover('untitled:t.py', position, sut.token);
    assert.equal(
      markdown(h),
      '**Dataset** `db.users` · hiv · PROD\n\nplatform: `hiv` · name: `db.users` · env: `PROD`\n\n_Not in the catalog._',
    );
    assert.deepEqual(h?.range, { start: { line: 0, character: 5 }, end: { line: 0, character: 5 + typo.length } });
    assert.deepEqual(sut.resolution.asked.answers, ['urn:li:dataPlatform:hiv', typo]);
    // The platform of a dataset the catalog has hovers as that platform, as before.
    const withHive = serviceUnderTest({
      ...CATALOG,
      answers: { ...CATALOG.answers, [HIVE]: viewEntity('dataPlatform', HIVE, {}) },
    });
    const known = caret(`x = "${USERS.replace(':hive', ':h‸ive')}"\n`);
    await withHive.open('untitled:k.py', 'python', known.text);
    const platform = markdown(await withHive.service.doHover('untitled:k.py', known.position, withHive.token));
    assert.match(platform, /^\*\*Data platform\*\* `hive`/);
  });
});

describe('doHover in an editor whose hover box shows no diagnostics', () => {
  test('the hover starts with the messages of the diagnostics there; off a URN, they are the hover', async () => {
    const sut = serviceUnderTest(CATALOG, { session: { hoverShowsDiagnostics: false } });
    const { text, position } = caret(`- ${GHOST.replace('db.ghost', 'db.gh‸ost')}\n# a note\nx: y: z\n`);
    await sut.open('untitled:g.yaml', 'yaml', text);
    const h = markdown(await sut.service.doHover('untitled:g.yaml', position, sut.token));
    assert.match(h, /^\*\*Warning\*\*: Dataset db\.ghost is not in the catalog\n\n---\n\n\*\*Dataset\*\* `db\.ghost`/);
    assert.doesNotMatch(h, /_Not in the catalog\._/);
    const off = await sut.service.doHover('untitled:g.yaml', { line: 2, character: 3 }, sut.token);
    assert.match(markdown(off), /^\*\*Warning\*\*: /);
    // Off a URN with no diagnostic there: no hover.
    assert.equal(await sut.service.doHover('untitled:g.yaml', { line: 1, character: 3 }, sut.token), null);
  });
});

describe('doCodeActions', () => {
  test("the diagnostics sent back: the session's client commands and trust decide what is offered", async () => {
    const { text, ranges } = marks(`f = "⟦urn:li:mlFeature:(users_table,tenure)⟧"\n`);
    const ask = async (session: { clientCommands: boolean; trusted: boolean }) => {
      const sut = serviceUnderTest(CATALOG, { session });
      const doc = await sut.open('untitled:f.py', 'python', text);
      const open = await sut.openDocuments.open('untitled:f.py');
      const diagnostics = diagnosticsFor(open!.scan!, sut.resolution.answer, DEFAULT_SETTINGS.diagnostics).map((d) =>
        toLspDiagnostic(doc, d),
      );
      const actions = await sut.service.doCodeActions({
        textDocument: { uri: 'untitled:f.py' },
        range: ranges[0]!.range,
        context: { diagnostics, only: [CodeActionKind.QuickFix] },
      });
      return actions.map((a) => [a.title, a.command?.command]);
    };
    assert.deepEqual(await ask({ clientCommands: true, trusted: true }), [
      ['Create ML feature in catalog…', 'catalogLens.createEntityInteractive'],
    ]);
    assert.deepEqual(await ask({ clientCommands: false, trusted: true }), [
      ['Create ML feature in catalog', 'catalogLens.createEntity'],
    ]);
    assert.deepEqual(await ask({ clientCommands: true, trusted: false }), [
      ['Trust this workspace to write to the catalog… (Restricted Mode writes nothing)', 'catalogLens.manageTrust'],
    ]);
    assert.deepEqual(await ask({ clientCommands: false, trusted: false }), []);
  });
});

describe('prepareRename and doRename', () => {
  const A = `USERS = "${USERS}"\nOTHER = "${GHOST}"\n`;
  const B = `datasets:\n  - urn: ${USERS_SVC}\n    description: Users.\n`;

  test('prepareRename: the part and its range; off a URN a request error says why', async () => {
    const sut = serviceUnderTest(CATALOG);
    await sut.open('untitled:a.py', 'python', A);
    assert.deepEqual(await sut.service.prepareRename('untitled:a.py', { line: 0, character: 55 }), {
      range: { start: { line: 0, character: 50 }, end: { line: 0, character: 58 } },
      placeholder: 'db.users',
    });
    await assert.rejects(sut.service.prepareRename('untitled:a.py', { line: 2, character: 0 }), (e: unknown) => {
      assert.ok(e instanceof ResponseError);
      assert.equal(e.message, 'Put the cursor on a URN to rename its entity.');
      return true;
    });
  });

  test('every open document the index names the entity in, each in its own namespace word; the message and the log say so', async () => {
    const sut = serviceUnderTest(CATALOG);
    await sut.open('untitled:a.py', 'python', A);
    await sut.open('untitled:b.yaml', 'yaml', B);
    const { edit, message } = await sut.service.doRename('untitled:a.py', { line: 0, character: 55 }, 'db.people');
    assert.deepEqual(Object.keys(edit.changes ?? {}).sort(), ['untitled:a.py', 'untitled:b.yaml']);
    assert.equal(applyEdits(A, edit.changes!['untitled:a.py']!), `USERS = "${PEOPLE}"\nOTHER = "${GHOST}"\n`);
    assert.equal(
      applyEdits(B, edit.changes!['untitled:b.yaml']!),
      `datasets:\n  - urn: ${PEOPLE.replace(/:li:/g, ':svc:')}\n    description: Users.\n`,
    );
    assert.match(message, /^Catalog Lens: rename of db\.users to db\.people: 2 places in 2 files\. Only files change/);
    assert.deepEqual(sut.log, [`rename: ${USERS} → ${PEOPLE} in 2 places of 2 files`]);
  });

  test('an editor with change annotations gets versioned document changes', async () => {
    const sut = serviceUnderTest(CATALOG, { session: { changeAnnotations: true } });
    await sut.open('untitled:a.py', 'python', A, 7);
    const { edit } = await sut.service.doRename('untitled:a.py', { line: 0, character: 55 }, 'db.people');
    const changes = edit.documentChanges as TextDocumentEdit[];
    assert.deepEqual(
      changes.map((c) => c.textDocument),
      [{ uri: 'untitled:a.py', version: 7 }],
    );
    assert.ok(edit.changeAnnotations?.['catalogLens.rename']);
  });

  test('refused: a new name that cannot be, and a file outside the workspace folders — nothing is renamed', async () => {
    const sut = serviceUnderTest(CATALOG);
    await sut.open('untitled:a.py', 'python', A);
    await assert.rejects(sut.service.doRename('untitled:a.py', { line: 0, character: 55 }, 'db.users'), {
      message: 'Cannot rename: the name is already db.users.',
    });
    // No workspace folders: a file: document is outside them.
    await sut.open('file:///elsewhere/c.py', 'python', `C = "${USERS}"\n`);
    await assert.rejects(sut.service.doRename('untitled:a.py', { line: 0, character: 55 }, 'db.people'), {
      message: 'Cannot rename: c.py is outside the workspace folders. Nothing was renamed.',
    });
    assert.deepEqual(sut.log, []);
  });
});

describe('references', () => {
  test('every place of the workspace index, whichever namespace word; nothing off an entity', async () => {
    const sut = serviceUnderTest(CATALOG);
    await sut.open('untitled:a.py', 'python', `USERS = "${USERS}"\n`);
    await sut.indexFile('untitled:b.yaml', 'yaml', `datasets:\n  - urn: ${USERS_SVC}\n`);
    const refs = await sut.service.references('untitled:a.py', { line: 0, character: 55 });
    assert.deepEqual(refs?.map((r) => [r.uri, r.range.start.line, r.range.start.character]).sort(), [
      ['untitled:a.py', 0, 9],
      ['untitled:b.yaml', 1, 9],
    ]);
    assert.equal(await sut.service.references('untitled:a.py', { line: 1, character: 0 }), null);
  });
});
