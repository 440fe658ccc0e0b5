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
import { diagnose, scanText } from '../../server/src/pipeline/check';
import { resolvableItems, resolveItems, type Resolver } from '../../server/src/resolution/resolve';
import { checkWorkspace, type WorkspaceDeps } from '../../server/src/workspace';
import { hoverAt } from '../../server/src/features/hover';

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

  test('across scans each URN is asked once, in order of appearance; a column is asked as its dataset; templates are not asked, users are', () => {
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
      { urn: 'urn:li:corpuser:jdoe', kind: 'corpuser' },
      { urn: ORDERS, kind: 'dataset' },
    ]);
  });
});

describe('deprecation details: the named read of the client', () => {
  const deprecated = (note?: string): Resolution => ({
    state: 'found',
    kind: 'dataset',
    entity: {
      urn: USERS,
      exists: true,
      properties: { description: 'Users.' },
      editableProperties: null,
      schemaMetadata: null,
      editableSchemaMetadata: null,
      deprecation: note === undefined ? { deprecated: true } : { deprecated: true, note },
    },
  });

  test('a deprecated entity without a note gets the details the client reads for it, and only those are asked', async () => {
    const asked: string[][] = [];
    const client: Resolver = {
      ...answering({ [USERS]: deprecated(), [ORDERS]: deprecated('already known') }),
      readDeprecationDetails: (items) => {
        asked.push(items.map((i) => i.urn));
        return Promise.resolve(
          new Map([[USERS, { deprecated: true, note: 'Use db.people.', decommissionTime: 5, replacement: null }]]),
        );
      },
    };
    const resolved = await resolveItems(client, [
      { urn: USERS, kind: 'dataset' },
      { urn: ORDERS, kind: 'dataset' },
    ]);
    assert.deepEqual(asked, [[USERS]]);
    const users = resolved(USERS);
    assert.equal(users?.state === 'found' ? users.entity.deprecation?.note : undefined, 'Use db.people.');
    const orders = resolved(ORDERS);
    assert.equal(orders?.state === 'found' ? orders.entity.deprecation?.note : undefined, 'already known');
  });

  test('a client without the named read leaves the flag alone', async () => {
    const resolved = await resolveItems(answering({ [USERS]: deprecated() }), [{ urn: USERS, kind: 'dataset' }]);
    const users = resolved(USERS);
    assert.deepEqual(users?.state === 'found' ? users.entity.deprecation : undefined, { deprecated: true });
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
    const context: WorkspaceDeps = {
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

describe('Check Workspace asks about one chunk while it reads the next', () => {
  test('the next chunk is read while the catalog answers, no further; every file gets its diagnostics, each URN asked once', async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'catalog-lens-chunks-'));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const files = 1_300;
    const urn = (i: number): string => `urn:li:dataset:(urn:li:dataPlatform:hive,db.t_${i},PROD)`;
    // File k names its own dataset and a shared one (missing from the catalog in every chunk).
    for (let k = 0; k < files; k++) writeFileSync(join(root, `f_${k}.py`), `A = "${urn(k)}"\nB = "${USERS}"\n`);
    let visited = 0;
    const atAnswer: number[] = [];
    const asked: string[][] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const client: Resolver = {
      resolve: async (items) => {
        asked.push(items.map((i) => i.urn));
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        // The first answer comes once the check has read on through the next chunk (or it never
        // would: then after a second), so how far it read while waiting is seen.
        const until = Date.now() + 1000;
        while (asked.length === 1 && visited < 1_000 && Date.now() < until)
          await new Promise((resolve) => setImmediate(resolve));
        for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
        atAnswer.push(visited);
        inFlight--;
        return new Map(items.map((i) => [i.urn, { state: 'missing' }]));
      },
      cached: () => undefined,
    };
    const published = new Map<string, string[]>();
    const result = await checkWorkspace(
      {
        settingsFor: async () => DEFAULT_SETTINGS,
        clientFor: () => client,
        log: () => undefined,
        workspaceFolders: () => [pathToFileURL(root).toString()],
        openDocument: () => {
          visited++;
          return undefined;
        },
        scanOf: () => undefined,
        publish: (doc, diagnostics) => published.set(doc.uri, described(doc.getText(), diagnostics)),
        clear: (uri) => published.set(uri, []),
      },
      { cancelled: () => false },
    );
    assert.deepEqual(result, { files, skipped: 0, urns: files + 1, diagnostics: 2 * files, cancelled: false });
    assert.equal(asked.length, 3, 'a chunk of 500 files at a time');
    assert.equal(asked.flat().length, files + 1, 'each URN asked once');
    assert.equal(mostInFlight, 1, 'one chunk asked about at a time');
    assert.equal(atAnswer[0], 1_000, 'the second chunk read while the first was asked about, not the third');
    assert.equal(published.size, files);
    for (let k = 0; k < files; k++)
      assert.deepEqual(
        published.get(pathToFileURL(join(root, `f_${k}.py`)).toString()),
        [`unknown-urn ${USERS}`, `unknown-urn ${urn(k)}`].sort(),
      );
  });
});

describe('Check Workspace keeps only files whose answers are settled', () => {
  test('a deprecation whose details are still to come, a dataset with siblings, an error: read again; plain answers kept', async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'catalog-lens-settled-'));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const ds = (name: string, extra: Record<string, unknown> = {}): Resolution => ({
      state: 'found',
      kind: 'dataset',
      entity: {
        urn: `urn:li:dataset:(urn:li:dataPlatform:hive,db.${name},PROD)`,
        exists: true,
        properties: { description: `${name}.` },
        editableProperties: null,
        schemaMetadata: null,
        editableSchemaMetadata: null,
        ...extra,
      },
    });
    const urnOf = (name: string): string => `urn:li:dataset:(urn:li:dataPlatform:hive,db.${name},PROD)`;
    const answers: Record<string, Resolution> = {
      [urnOf('plain')]: ds('plain'),
      [urnOf('old')]: ds('old', { deprecation: { deprecated: true } }),
      [urnOf('twin')]: ds('twin', { siblings: { isPrimary: true, siblings: [{ urn: urnOf('plain') }] } }),
      [urnOf('down')]: { state: 'error', error: { kind: 'unreachable', message: 'down' } },
      [urnOf('ghost')]: { state: 'missing' },
    };
    for (const name of Object.keys(answers).map((u) => /db\.(\w+)/.exec(u)![1]!))
      writeFileSync(join(root, `${name}.py`), `X = "${urnOf(name)}"\n`);
    // Changed more than two seconds before the first check: files a check may keep.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const expires = Date.now() + 300_000;
    const client: Resolver = {
      resolve: async (items) => new Map(items.flatMap((i) => (answers[i.urn] ? [[i.urn, answers[i.urn]!]] : []))),
      cached: (urn) => answers[urn],
      answersReplaced: 0,
      answerExpires: (urn) => (answers[urn] && answers[urn].state !== 'error' ? expires : undefined),
      // The details of a deprecation are not to be had yet.
      readDeprecationDetails: async () => new Map(),
    };
    const logs: string[] = [];
    const ctx: WorkspaceDeps = {
      settingsFor: async () => DEFAULT_SETTINGS,
      clientFor: () => client,
      log: (m) => logs.push(m),
      workspaceFolders: () => [pathToFileURL(root).toString()],
      openDocument: () => undefined,
      scanOf: () => undefined,
      publish: () => undefined,
      clear: () => undefined,
      reuse: { kept: undefined, stillShown: () => true },
    };
    const first = await checkWorkspace(ctx, { cancelled: () => false });
    assert.equal(ctx.reuse!.kept?.size, 2, 'plain.py and ghost.py');
    assert.deepEqual(await checkWorkspace(ctx, { cancelled: () => false }), first);
    assert.match(logs.at(-1)!, /2 of 5 files as they were/);
    // A replaced answer anywhere: nothing kept is used.
    (client as { answersReplaced: number }).answersReplaced = 1;
    assert.deepEqual(await checkWorkspace(ctx, { cancelled: () => false }), first);
    assert.match(logs.at(-1)!, /0 of 5 files as they were/);
  });
});

describe('the hover reads what the editor shows', () => {
  const ghost = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.ghost,PROD)';
  const text = `GHOST = "${ghost}"\n`;
  const scan = scanText(text, 'python', DEFAULT_SETTINGS);
  const offset = text.indexOf('db.ghost');
  const resolved = (): Resolution => ({ state: 'missing' });

  test('the published diagnostics decide what the hover leaves out; without them it checks the document itself', () => {
    const own = hoverAt(scan, offset, DEFAULT_SETTINGS, resolved);
    assert.ok(own, 'a hover over the URN');
    assert.doesNotMatch(own.markdown, /Not in the catalog/, 'its own check flags it: the diagnostic says it');
    // The editor shows no diagnostic there (none published for this version says so): the hover says it.
    const shownNone = hoverAt(scan, offset, DEFAULT_SETTINGS, resolved, { shown: [] });
    assert.match(shownNone?.markdown ?? '', /_Not in the catalog\._/);
    const shownUnknown = hoverAt(scan, offset, DEFAULT_SETTINGS, resolved, {
      shown: diagnose(scan, resolved, DEFAULT_SETTINGS),
    });
    assert.doesNotMatch(shownUnknown?.markdown ?? '', /Not in the catalog/);
  });

  test('over a URN with a page the link is left out in an editor that shows link tooltips, and kept elsewhere', () => {
    // Not answered yet: the hover links to the page (a page of an entity the catalog lacks is not offered).
    const s = { ...DEFAULT_SETTINGS, url: 'http://127.0.0.1:9' };
    const unanswered = (): undefined => undefined;
    assert.match(hoverAt(scan, offset, s, unanswered, { shown: [] })?.markdown ?? '', /\[Open in catalog\]\(http:/);
    assert.doesNotMatch(
      hoverAt(scan, offset, s, unanswered, { shown: [], linkTooltips: true })?.markdown ?? '',
      /Open in catalog/,
    );
    // Past the URN's end there is no link, and no hover.
    assert.equal(hoverAt(scan, text.indexOf('"\n'), s, unanswered, { linkTooltips: true }), undefined);
  });
});
