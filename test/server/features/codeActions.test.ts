/**
 * Code actions, in process (server/src/features/codeActions.ts): the diagnostics of a scan and a
 * stand-in catalog's cached answers in; titles, kinds, edits (applied to the text) and commands
 * out — quick fixes per diagnostic code, refactors at the caret, and what an editor without the
 * client's commands, or an untrusted workspace, is offered. The spawned server's are
 * test/server/fixes.test.ts and test/server/writes.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CodeActionKind, type CodeAction, type Range, type TextEdit } from 'vscode-languageserver';
import { ClientCommands, ServerCommands as Commands } from '../../../model/src/commandIds';
import { DEFAULT_SETTINGS } from '../../../model/src/protocol';
import type { ResolutionLookup } from '../../../server/src/catalogClient/client';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { codeActionsFor, editedTextKey, REFACTOR_KIND } from '../../../server/src/features/codeActions';
import { seededRandom } from '../../support/random';
import { diagnosticsFor } from '../../../server/src/features/diagnostics';
import { toLspDiagnostic } from '../../../server/src/lsp';
import { applyEdits } from '../../support/textEdits';
import { NEAR, SNOWFLAKE_USERS } from './support/nearMisses';
import { scanned } from './support/document';
import { dataset, fakeResolution, mlFeature, mlFeatureTable, type CatalogTable } from './support/fakeResolution';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const OLD_SVC = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,db.users_old,PROD)';
const V2 = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users_v2,PROD)';
const GHOST = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.usres,PROD)';
const AGE = 'urn:li:mlFeature:(users_table,age)';
const SIGNUP = 'urn:li:mlFeature:(users_table,signup_days)';
const NEW_FEATURE = 'urn:li:mlFeature:(users_table,tenure)';
const TABLE_URN = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users_table)';

const CATALOG: CatalogTable = {
  answers: {
    [USERS]: dataset(USERS, {
      description: 'One row per registered user.',
      columns: [
        { path: 'user_id', description: 'Primary key.' },
        { path: 'age' },
        { path: 'email', description: 'Login.' },
      ],
    }),
    [OLD_SVC]: dataset(OLD_SVC, {
      description: 'Old.',
      deprecation: { deprecated: true, note: 'Moved', replacement: { urn: V2 } },
    }),
    [AGE]: mlFeature(AGE, { description: 'Age in years.' }),
    [SIGNUP]: mlFeature(SIGNUP),
    [TABLE_URN]: mlFeatureTable(TABLE_URN, { description: 'Users.', features: [AGE] }),
  },
  suggestions: {
    [GHOST]: [USERS, 'urn:li:dataset:(urn:li:dataPlatform:hive,db.uses,PROD)'],
    [NEAR.env]: [USERS],
    [NEAR.dev]: [USERS],
    [NEAR.platform]: [USERS, SNOWFLAKE_USERS],
    [NEAR.case]: [USERS],
    [NEAR.twoParts]: [USERS],
    [NEAR.table]: [AGE],
  },
};
const cached = fakeResolution(CATALOG).cached(DEFAULT_SETTINGS);

interface Options {
  /** What the catalog client has cached (default: the table above, every other URN missing). */
  cached?: ResolutionLookup;
  clientCommands?: boolean;
  trusted?: boolean;
  only?: string[];
}

/** The code actions at the caret of `marked` (or over its `⟦…⟧` range), with the document's diagnostics there. */
function actionsAt(marked: string, languageId: string, opts: Options = {}) {
  const s = scanned(marked, languageId);
  const range: Range = s.ranges[0]?.range ?? { start: s.position, end: s.position };
  const [from, to] = s.ranges[0] ? [s.ranges[0].start, s.ranges[0].end] : [s.offset, s.offset];
  const diagnostics = diagnosticsFor(s.scan, cached, DEFAULT_SETTINGS.diagnostics, (u) => CATALOG.suggestions?.[u])
    .filter((d) => d.start <= to && from <= d.end)
    .map((d) => toLspDiagnostic(s.doc, d));
  const actions = codeActionsFor({
    doc: s.doc,
    scan: s.scan,
    params: {
      textDocument: { uri: s.doc.uri },
      range,
      context: { diagnostics, ...(opts.only ? { only: opts.only } : {}) },
    },
    trusted: opts.trusted ?? true,
    clientCommands: opts.clientCommands ?? true,
    cached: opts.cached ?? cached,
  });
  /** The document after the action's edit. */
  const applied = (a: CodeAction | undefined): string => {
    const edits: TextEdit[] | undefined = a?.edit?.changes?.[s.doc.uri];
    assert.ok(edits, `an edit of ${s.doc.uri}`);
    return applyEdits(s.text, edits);
  };
  return { actions, applied, text: s.text };
}

const summary = (actions: readonly CodeAction[]) =>
  actions.map((a) => ({
    title: a.title,
    kind: a.kind,
    ...(a.isPreferred ? { isPreferred: true } : {}),
    ...(a.command ? { command: a.command.command, arguments: a.command.arguments } : {}),
    ...(a.edit ? { edit: true } : {}),
  }));

describe('quick fixes', () => {
  test('a missing ML description: "Write ML feature description…" (the client asks for the text); none without client commands', () => {
    const marked = `f = "${SIGNUP.replace('signup', 'sig‸nup')}"`;
    assert.deepEqual(summary(actionsAt(marked, 'python', { only: [CodeActionKind.QuickFix] }).actions), [
      {
        title: 'Write ML feature description…',
        kind: CodeActionKind.QuickFix,
        isPreferred: true,
        command: ClientCommands.writeDescription,
        arguments: [{ urn: SIGNUP }],
      },
    ]);
    assert.deepEqual(
      actionsAt(marked, 'python', { only: [CodeActionKind.QuickFix], clientCommands: false }).actions,
      [],
    );
  });

  test('YAML that disagrees with the catalog: push it (a server command) or pull the catalog text (an edit)', () => {
    const { actions, applied } = actionsAt(
      `datasets:\n  - urn: ${USERS}\n    description: Every user, ‸one row each.\n`,
      'yaml',
      { only: [CodeActionKind.QuickFix] },
    );
    assert.deepEqual(summary(actions), [
      {
        title: 'Push description to catalog',
        kind: CodeActionKind.QuickFix,
        command: Commands.setDatasetDescription,
        arguments: [{ urn: USERS, description: 'Every user, one row each.' }],
      },
      { title: 'Pull description from catalog', kind: CodeActionKind.QuickFix, edit: true },
    ]);
    assert.equal(applied(actions[1]), `datasets:\n  - urn: ${USERS}\n    description: One row per registered user.\n`);
  });

  test('a URN cut by a YAML flow comma: "Quote the URN"', () => {
    const { actions, applied } = actionsAt(`datasets: [${USERS.replace('hive', 'hi‸ve')}]\n`, 'yaml');
    assert.equal(actions[0]?.title, 'Quote the URN');
    assert.equal(actions[0]?.isPreferred, true);
    assert.equal(applied(actions[0]), `datasets: ["${USERS}"]\n`);
  });

  test('SQL: an env DataHub does not know is replaced by the one it is near, and nothing else changes', () => {
    const { actions, applied } = actionsAt(
      `SELECT 1 WHERE urn = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,db.orders,pr‸od)';`,
      'sql',
      { only: [CodeActionKind.QuickFix] },
    );
    assert.deepEqual(
      actions.map((a) => a.title),
      ['Replace with PROD'],
    );
    assert.equal(
      applied(actions[0]),
      `SELECT 1 WHERE urn = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,db.orders,PROD)';`,
    );
  });

  test("a deprecated urn:svc: entity is replaced by the one the catalog names, in the document's namespace word", () => {
    const { actions, applied } = actionsAt(`old = "${OLD_SVC.replace('users_old', 'users_o‸ld')}"\n`, 'python', {
      only: [CodeActionKind.QuickFix],
    });
    assert.deepEqual(
      actions.map((a) => [a.title, a.isPreferred]),
      [['Replace with db.users_v2', true]],
    );
    assert.equal(applied(actions[0]), `old = "${V2.replace(/:li:/g, ':svc:')}"\n`);
  });

  test('did-you-mean: each near entity is a replacement, the nearest preferred', () => {
    const { actions, applied } = actionsAt(`x = "${GHOST.replace('usres', 'us‸res')}"\n`, 'python', {
      only: [CodeActionKind.QuickFix],
    });
    assert.deepEqual(
      actions.map((a) => [a.title, a.isPreferred ?? false]),
      [
        ['Replace with db.users', true],
        ['Replace with db.uses', false],
      ],
    );
    assert.equal(applied(actions[0]), `x = "${USERS}"\n`);
  });

  test('did-you-mean: each title names what the replacement changes, never the same name', () => {
    const titlesAt = (urn: string, caret: [string, string] = ['urn:li:', 'urn:l‸i:']): Array<[string, boolean]> =>
      actionsAt(`x = "${urn.replace(...caret)}"\n`, 'python', { only: [CodeActionKind.QuickFix] })
        .actions.filter((a) => a.title.startsWith('Replace'))
        .map((a) => [a.title, a.isPreferred ?? false]);
    assert.deepEqual(titlesAt(NEAR.env), [['Replace env PORD with PROD', true]]);
    // On the env, the unknown-env diagnostic's own fix makes the same edit: offered once, with its title.
    assert.deepEqual(titlesAt(NEAR.env, ['PORD', 'PO‸RD']), [['Replace with PROD', true]]);
    assert.deepEqual(titlesAt(NEAR.dev), [['Replace env DEV with PROD', true]]);
    assert.deepEqual(titlesAt(NEAR.platform), [
      ['Replace platform hiv with hive', true],
      ['Replace platform hiv with snowflake', false],
    ]);
    assert.deepEqual(titlesAt(NEAR.case), [['Replace with db.users', true]]);
    assert.deepEqual(titlesAt(NEAR.twoParts), [['Replace with db.users on platform hive in env PROD', true]]);
    assert.deepEqual(titlesAt(NEAR.table), [['Replace feature table user_table with users_table', true]]);
    const { actions, applied } = actionsAt(`x = "${NEAR.platform.replace('hiv,', 'h‸iv,')}"\n`, 'python', {
      only: [CodeActionKind.QuickFix],
    });
    assert.equal(applied(actions.find((a) => a.title === 'Replace platform hiv with hive')), `x = "${USERS}"\n`);
  });

  test('an unknown column: "Replace with email" for the near name, in a schemaField URN and in YAML', () => {
    const field = `urn:li:schemaField:(${USERS},emial)`;
    const literal = actionsAt(`c = "${field.replace('emial', 'em‸ial')}"\n`, 'python', {
      only: [CodeActionKind.QuickFix],
    });
    assert.deepEqual(
      literal.actions.map((a) => [a.title, a.isPreferred ?? false]),
      [['Replace with email', true]],
    );
    assert.equal(literal.applied(literal.actions[0]), `c = "urn:li:schemaField:(${USERS},email)"\n`);
    const yaml = actionsAt(`datasets:\n  - urn: ${USERS}\n    columns:\n      - name: "emi‸al"\n`, 'yaml', {
      only: [CodeActionKind.QuickFix],
    });
    assert.deepEqual(
      yaml.actions.map((a) => a.title),
      ['Replace with email'],
    );
    assert.equal(yaml.applied(yaml.actions[0]), `datasets:\n  - urn: ${USERS}\n    columns:\n      - name: "email"\n`);
  });

  test('an unknown column offers no "Write column description…": the catalog has no such column to describe', () => {
    // A client caches the dataset a schemaField names, not the schemaField itself.
    const datasetsOnly = fakeResolution({ ...CATALOG, unlisted: 'unanswered' }).cached(DEFAULT_SETTINGS);
    const at = (column: string) =>
      actionsAt(`c = "urn:li:schemaField:(${USERS},${column.replace(/^(.)/, '$1‸')})"\n`, 'python', {
        only: [REFACTOR_KIND],
        cached: datasetsOnly,
      }).actions.map((a) => a.title);
    assert.deepEqual(at('emial'), []);
    assert.deepEqual(at('age'), ['Write column description…']);
  });

  test('a mistyped entity type: "Replace datset with dataset"; a dataset without its env: "Add env PROD"', () => {
    const kind = actionsAt(`x = "urn:li:dat‸set:(urn:li:dataPlatform:hive,db.users,PROD)"\n`, 'python', {
      only: [CodeActionKind.QuickFix],
    });
    assert.deepEqual(
      kind.actions.map((a) => [a.title, a.isPreferred ?? false]),
      [['Replace datset with dataset', true]],
    );
    assert.equal(kind.applied(kind.actions[0]), `x = "${USERS}"\n`);
    const env = actionsAt(`datasets:\n  - urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.us‸ers)\n`, 'yaml', {
      only: [CodeActionKind.QuickFix],
    });
    assert.deepEqual(
      env.actions.map((a) => [a.title, a.isPreferred ?? false]),
      [['Add env PROD', true]],
    );
    assert.equal(env.applied(env.actions[0]), `datasets:\n  - urn: ${USERS}\n`);
    // Nothing when one change does not make the URN well-formed (the platform is what is missing).
    assert.deepEqual(
      actionsAt(`x = "urn:li:dataset:(db.us‸ers,PROD)"\n`, 'python', { only: [CodeActionKind.QuickFix] }).actions,
      [],
    );
  });

  test('URNs cut by YAML flow commas: the one here quoted, or all of the file at once', () => {
    const text = `a: [${USERS.replace('hive', 'hi‸ve')}]\nb: [${USERS}, x]\nc: "${USERS}"\n`;
    const { actions, applied } = actionsAt(text, 'yaml', { only: [CodeActionKind.QuickFix] });
    assert.deepEqual(
      actions.map((a) => [a.title, a.isPreferred ?? false]),
      [
        ['Quote the URN', true],
        ['Quote all 2 URNs cut at a comma in the whole file', false],
      ],
    );
    assert.equal(applied(actions[1]), `a: ["${USERS}"]\nb: ["${USERS}", x]\nc: "${USERS}"\n`);
    // One cut URN in the file: no "all".
    assert.deepEqual(
      actionsAt(`a: [${USERS.replace('hive', 'hi‸ve')}]\n`, 'yaml', { only: [CodeActionKind.QuickFix] }).actions.map(
        (a) => a.title,
      ),
      ['Quote the URN'],
    );
  });

  test('an ML entity the catalog lacks: Create… through the client, or the server command with no properties elsewhere', () => {
    const marked = `f = "${NEW_FEATURE.replace('tenure', 'ten‸ure')}"`;
    assert.deepEqual(summary(actionsAt(marked, 'python', { only: [CodeActionKind.QuickFix] }).actions), [
      {
        title: 'Create ML feature in catalog…',
        kind: CodeActionKind.QuickFix,
        command: ClientCommands.createEntityInteractive,
        arguments: [{ urn: NEW_FEATURE }],
      },
    ]);
    assert.deepEqual(
      summary(actionsAt(marked, 'python', { only: [CodeActionKind.QuickFix], clientCommands: false }).actions),
      [
        {
          title: 'Create ML feature in catalog',
          kind: CodeActionKind.QuickFix,
          command: Commands.createEntity,
          arguments: [{ urn: NEW_FEATURE, properties: {} }],
        },
      ],
    );
  });

  test('a feature the table does not list: "Append to catalog" adds it to that table', () => {
    const yaml = `feature_tables:\n  - urn: ${TABLE_URN}\n    features:\n      - ${AGE}\n      - ${SIGNUP.replace('signup', 'sign‸up')}\n`;
    const actions = actionsAt(yaml, 'yaml', { only: [CodeActionKind.QuickFix] }).actions;
    const append = actions.find((a) => a.title === 'Append to catalog');
    assert.deepEqual(append?.command, {
      title: 'Append to catalog',
      command: Commands.addFeaturesToTable,
      arguments: [{ table: TABLE_URN, features: [SIGNUP] }],
    });
    assert.equal(append?.isPreferred, true);
  });
});

describe('refactors at the caret', () => {
  test('an ML feature: add it to a table or a model, write its description from the one the catalog shows', () => {
    const { actions } = actionsAt(`f = "${AGE.replace('age', 'a‸ge')}"`, 'python', { only: [REFACTOR_KIND] });
    assert.deepEqual(summary(actions), [
      {
        title: 'Add feature to feature table…',
        kind: REFACTOR_KIND,
        command: ClientCommands.addFeatureToTable,
        arguments: [{ feature: AGE }],
      },
      {
        title: 'Add feature to model…',
        kind: REFACTOR_KIND,
        command: ClientCommands.addFeatureToModel,
        arguments: [{ feature: AGE }],
      },
      {
        title: 'Write ML feature description…',
        kind: REFACTOR_KIND,
        command: ClientCommands.writeDescription,
        arguments: [{ urn: AGE, current: 'Age in years.' }],
      },
    ]);
  });

  test("a YAML entry without a description pulls the catalog's in; a dataset the catalog lacks offers no write", () => {
    const { actions, applied } = actionsAt(`datasets:\n  - urn: ${USERS.replace('db.users', 'db.us‸ers')}\n`, 'yaml', {
      only: [REFACTOR_KIND],
    });
    assert.deepEqual(
      actions.map((a) => a.title),
      ['Write dataset description…', 'Pull description from catalog'],
    );
    assert.equal(applied(actions[1]), `datasets:\n  - urn: ${USERS}\n    description: One row per registered user.\n`);
    assert.deepEqual(
      actionsAt(`x = "${GHOST.replace('usres', 'us‸res')}"`, 'python', { only: [REFACTOR_KIND] }).actions,
      [],
    );
  });

  test('in an untrusted workspace only edits are offered, nothing that writes to the catalog', () => {
    const yaml = `datasets:\n  - urn: ${USERS}\n    description: Every user, ‸one row each.\n`;
    // The extension (client commands) is told why the write is missing and offered the trust editor.
    assert.deepEqual(
      actionsAt(yaml, 'yaml', { trusted: false }).actions.map((a) => [a.title, a.command?.command]),
      [
        ['Pull description from catalog', undefined],
        ['Trust this workspace to write to the catalog… (Restricted Mode writes nothing)', 'catalogLens.manageTrust'],
      ],
    );
    assert.deepEqual(
      actionsAt(yaml, 'yaml', { trusted: false, clientCommands: false }).actions.map((a) => a.title),
      ['Pull description from catalog'],
    );
    // Where nothing would write, nothing is said about trust.
    assert.deepEqual(
      actionsAt(`x = "${GHOST.replace('usres', 'us‸res')}"`, 'python', { trusted: false, only: [REFACTOR_KIND] })
        .actions,
      [],
    );
  });
});

describe('quick fixes over a selection of many diagnostics', () => {
  test('200 env typos selected at once: one "Replace with PROD" per line (its two same edits one fix), each editing its own line', () => {
    const lines = Array.from({ length: 200 }, (_, i) => `x${i} = "${NEAR.env}"`);
    const { actions, applied, text } = actionsAt(`⟦${lines.join('\n')}⟧\n`, 'python', {
      only: [CodeActionKind.QuickFix],
    });
    const replaced = actions.filter((a) => a.title.startsWith('Replace'));
    assert.deepEqual([...new Set(replaced.map((a) => `${a.title} ${a.isPreferred}`))], ['Replace with PROD true']);
    assert.equal(replaced.length, 200);
    const edited = replaced.map((a) => applied(a));
    assert.deepEqual(
      edited,
      lines.map((_, i) => text.replace(`x${i} = "${NEAR.env}"`, `x${i} = "${USERS}"`)),
    );
  });

  test('150 URNs cut by YAML flow commas selected at once: each quoted on its own, and one "Quote all" that quotes every one', () => {
    const cut = (i: number): string => USERS.replace('db.users', `db.t${i}`);
    const lines = Array.from({ length: 150 }, (_, i) => `k${i}: [${cut(i)}]`);
    const { actions, applied, text } = actionsAt(`⟦${lines.join('\n')}⟧\n`, 'yaml', {
      only: [CodeActionKind.QuickFix],
    });
    const one = actions.filter((a) => a.title === 'Quote the URN');
    assert.equal(one.length, 150);
    assert.deepEqual(
      one.map((a) => applied(a)),
      lines.map((_, i) => text.replace(`[${cut(i)}]`, `["${cut(i)}"]`)),
    );
    const all = actions.filter((a) => a.title.startsWith('Quote all'));
    assert.deepEqual(
      all.map((a) => a.title),
      ['Quote all 150 URNs cut at a comma in the whole file'],
    );
    assert.equal(applied(all[0]), lines.map((l, i) => l.replace(cut(i), `"${cut(i)}"`)).join('\n') + '\n');
  });

  test('editedTextKey: two edit lists have the same key exactly when TextDocument.applyEdits makes the same text of them', () => {
    const random = seededRandom(2811);
    const pick = (n: number): number => Math.floor(random() * n);
    const word = (n: number): string => Array.from({ length: n }, () => 'ab\n'[pick(3)]).join('');
    for (let round = 0; round < 300; round++) {
      const doc = TextDocument.create('untitled:k.txt', 'plaintext', 1, word(pick(14)));
      const lines = doc.lineCount;
      // Positions past a line's end and reversed ranges too: applyEdits makes them well-formed.
      const position = () => ({ line: pick(lines + 1), character: pick(6) });
      const lists: TextEdit[][] = [[]];
      for (let k = 0; k < 40; k++) {
        const list: TextEdit[] = [];
        for (let e = 0, n = 1 + pick(3); e < n; e++)
          list.push({
            range: { start: position(), end: pick(3) === 0 ? position() : position() },
            newText: word(pick(4)),
          });
        lists.push(list);
      }
      const outcome = (edits: TextEdit[]): { text?: string; key?: string; threw?: string } => {
        let applied: string | undefined;
        try {
          applied = TextDocument.applyEdits(doc, edits);
        } catch (e) {
          assert.throws(() => editedTextKey(doc, edits), { message: (e as Error).message });
          return { threw: (e as Error).message };
        }
        return { text: applied, key: editedTextKey(doc, edits) };
      };
      const outcomes = lists.map(outcome).filter((o) => o.threw === undefined);
      for (const a of outcomes)
        for (const b of outcomes)
          assert.equal(
            a.key === b.key,
            a.text === b.text,
            `${JSON.stringify(doc.getText())}: ${JSON.stringify(a)} / ${JSON.stringify(b)}`,
          );
    }
  });
});
