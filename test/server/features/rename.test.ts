/**
 * Rename, in process (server/src/features/rename.ts): what the caret renames, the URN it becomes,
 * each document's edits (applied to the text) in Python, YAML and SQL, both namespace words, the
 * WorkspaceEdit with and without change annotations, and the refusals with their messages. The
 * service's rename over several documents is in service.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TextDocumentEdit } from 'vscode-languageserver';
import {
  renameAt,
  renamedUrn,
  renameEdits,
  renameWorkspaceEdit,
  type RenameAt,
} from '../../../server/src/features/rename';
import { applyEdits } from '../../support/textEdits';
import { scanned } from './support/document';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const USERS_SVC = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,db.users,PROD)';
const PEOPLE = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.people,PROD)';

/** What the caret of `marked` renames: the part, its text and the text its range covers. */
function at(marked: string, languageId = 'python'): { role: string; text: string; covers: string } | string {
  const s = scanned(marked, languageId);
  const r = renameAt(s.doc, s.scan, s.offset);
  return typeof r === 'string' ? r : { role: r.role, text: r.text, covers: s.text.slice(r.range.start, r.range.end) };
}

function renameTarget(marked: string, languageId: string): RenameAt {
  const s = scanned(marked, languageId);
  const r = renameAt(s.doc, s.scan, s.offset);
  if (typeof r === 'string') throw new Error(r);
  return r;
}

describe('what the caret renames', () => {
  test('the part under the caret — name, platform, env, feature, feature table — else the name', () => {
    assert.deepEqual(at(`x = "${USERS.replace('db.users', 'db.us‸ers')}"`), {
      role: 'name',
      text: 'db.users',
      covers: 'db.users',
    });
    // In a literal the caret on the platform is on the nested platform URN, which is an entity of its own.
    assert.equal(
      at(`x = "${USERS.replace('hive', 'hi‸ve')}"`),
      'A platform URN is not renamed here: datasets and ML entities are.',
    );
    assert.deepEqual(at('x = make_dataset_urn("hi‸ve", "db.users", "PROD")'), {
      role: 'platform',
      text: 'hive',
      covers: 'hive',
    });
    assert.deepEqual(at(`x = "${USERS.replace('PROD', 'PR‸OD')}"`), { role: 'env', text: 'PROD', covers: 'PROD' });
    assert.deepEqual(at(`x = "‸${USERS}"`), { role: 'name', text: 'db.users', covers: 'db.users' });
    assert.deepEqual(at('- urn:svc:mlFeature:(users_ta‸ble,age)', 'yaml'), {
      role: 'table',
      text: 'users_table',
      covers: 'users_table',
    });
    assert.deepEqual(at('- urn:svc:mlFeature:(users_table,a‸ge)', 'yaml'), {
      role: 'feature',
      text: 'age',
      covers: 'age',
    });
    // A builder call: the argument that spells the part.
    assert.deepEqual(at('x = make_dataset_urn("hive", "db.us‸ers", "PROD")'), {
      role: 'name',
      text: 'db.users',
      covers: 'db.users',
    });
  });

  test('refused with a reason: no URN, a malformed or templated one, kinds that are not renamed here', () => {
    assert.equal(at('x = 1‸'), 'Put the cursor on a URN to rename its entity.');
    assert.equal(
      at('x = "urn:li:dataset:(urn:li:dataPlatform:hive,db.us‸ers)"'),
      'This URN does not parse: only an entity the URN names can be renamed.',
    );
    assert.equal(
      at('x = f"urn:li:dataset:(urn:li:dataPlatform:{p},db.us‸ers,PROD)"'),
      'This URN does not parse: only an entity the URN names can be renamed.',
    );
    assert.equal(at('x = "urn:li:corpuser:jd‸oe"'), 'A user URN is not renamed here: datasets and ML entities are.');
    assert.equal(
      at(`datasets:\n  - urn: ${USERS}\n    columns:\n      - name: user‸_id\n`, 'yaml'),
      'Put the cursor on a URN to rename its entity.',
    );
  });

  test('the new URN: the part replaced; refused when empty, when it would not parse, when nothing changes', () => {
    const name = renameTarget(`x = "${USERS.replace('db.users', 'db.us‸ers')}"`, 'python');
    assert.deepEqual(renamedUrn(name, 'db.people'), { urn: PEOPLE });
    assert.deepEqual(renamedUrn(name, ''), { error: 'the new name is empty' });
    assert.deepEqual(renamedUrn(name, 'db.users'), { error: 'the name is already db.users' });
    const bad = renamedUrn(name, 'a,b');
    assert.ok('error' in bad && bad.error.startsWith('a,b cannot be a name in a URN: '), JSON.stringify(bad));
    const env = renameTarget(`x = "${USERS.replace('PROD', 'PR‸OD')}"`, 'python');
    assert.deepEqual(renamedUrn(env, 'DEV'), { urn: USERS.replace('PROD', 'DEV') });
  });
});

describe("one document's edits", () => {
  test('Python: literals in either namespace word keep their own word; a builder argument changes alone', () => {
    const s = scanned(
      [
        `A = "${USERS}"`,
        `B = "${USERS_SVC}"`,
        'C = make_dataset_urn("hive", "db.users", "PROD")',
        `D = "${USERS.replace('users', 'orders')}"`,
        '',
      ].join('\n'),
      'python',
    );
    const r = renameEdits(s.doc, s.scan, USERS, PEOPLE);
    assert.deepEqual(r.refused, []);
    assert.equal(
      applyEdits(s.text, r.edits),
      [
        `A = "${PEOPLE}"`,
        `B = "${PEOPLE.replace(/:li:/g, ':svc:')}"`,
        'C = make_dataset_urn("hive", "db.people", "PROD")',
        `D = "${USERS.replace('users', 'orders')}"`,
        '',
      ].join('\n'),
    );
  });

  test('YAML: plain and quoted scalars, a list item and a mapping value', () => {
    const s = scanned(`datasets:\n  - urn: ${USERS_SVC}\n  - "${USERS}"\nupstream: '${USERS}'\n`, 'yaml');
    const r = renameEdits(s.doc, s.scan, USERS_SVC, PEOPLE);
    assert.equal(
      applyEdits(s.text, r.edits),
      `datasets:\n  - urn: ${PEOPLE.replace(/:li:/g, ':svc:')}\n  - "${PEOPLE}"\nupstream: '${PEOPLE}'\n`,
    );
  });

  test("SQL: a name with a quote is written with SQL's doubled quote", () => {
    const s = scanned(`SELECT * FROM lineage WHERE urn = '${USERS}';\n`, 'sql');
    const to = "urn:li:dataset:(urn:li:dataPlatform:hive,db.o'brien,PROD)";
    assert.equal(
      applyEdits(s.text, renameEdits(s.doc, s.scan, USERS, to).edits),
      "SELECT * FROM lineage WHERE urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.o''brien,PROD)';\n",
    );
  });

  test('a place no edit can change safely is refused, by its offset; the others still get their edits', () => {
    const s = scanned(
      `A = "${USERS}"\nB = "urn:li:dataset:(urn:li:dataPlatform:hive,db.us\\u0065rs,PROD)"\n`,
      'python',
    );
    const r = renameEdits(s.doc, s.scan, USERS, PEOPLE);
    assert.equal(r.edits.length, 1);
    assert.deepEqual(r.refused, [s.text.indexOf('urn:li', s.text.indexOf('B = '))]);
  });
});

describe('the WorkspaceEdit', () => {
  const target = renameTarget(`x = "${USERS.replace('db.users', 'db.us‸ers')}"`, 'python');
  const edit = (line: number, newText: string) => ({
    range: { start: { line, character: 5 }, end: { line, character: 61 } },
    newText,
  });
  const files = [
    { uri: 'file:///w/a.py', version: 3, edits: [edit(0, PEOPLE), edit(2, PEOPLE)] },
    { uri: 'file:///w/b.yaml', version: null, edits: [edit(1, PEOPLE)] },
    { uri: 'file:///w/c.py', version: null, edits: [] },
  ];
  const NOTE =
    'Only files change: the catalog still has db.users as it was. Rename it there too, or keep the files pointing at an entity the catalog does not know.';

  test('without change annotations: changes by URI, the files without edits left out, and the message', () => {
    const made = renameWorkspaceEdit(target, 'db.people', files, [], { changeAnnotations: false, indexFull: false });
    assert.ok(!('error' in made));
    assert.deepEqual(made.edit, {
      changes: { 'file:///w/a.py': files[0]!.edits, 'file:///w/b.yaml': files[1]!.edits },
    });
    assert.equal(made.places, 3);
    assert.equal(made.message, `Catalog Lens: rename of db.users to db.people: 3 places in 2 files. ${NOTE}`);
  });

  test('with change annotations: versioned document changes, each edit annotated, the note not needing confirmation', () => {
    const made = renameWorkspaceEdit(target, 'db.people', files, [], { changeAnnotations: true, indexFull: true });
    assert.ok(!('error' in made));
    const changes = made.edit.documentChanges as TextDocumentEdit[];
    assert.deepEqual(
      changes.map((c) => [c.textDocument.uri, c.textDocument.version, c.edits.length]),
      [
        ['file:///w/a.py', 3, 2],
        ['file:///w/b.yaml', null, 1],
      ],
    );
    assert.ok(
      changes.every((c) => c.edits.every((e) => 'annotationId' in e && e.annotationId === 'catalogLens.rename')),
    );
    const full = ' The workspace index is full, so files it left out are not renamed (the log names the first).';
    assert.deepEqual(made.edit.changeAnnotations, {
      'catalogLens.rename': {
        label: 'Rename in the workspace',
        description: `${NOTE}${full}`,
        needsConfirmation: false,
      },
    });
    assert.equal(made.edit.changes, undefined);
  });

  test('refused as a whole when a place cannot be edited, naming the first five', () => {
    const places = ['a.py:2', 'a.py:9', 'b.sql:1', 'c.py:4', 'd.py:5', 'e.py:6'];
    assert.deepEqual(
      renameWorkspaceEdit(target, 'db.people', files, places.slice(0, 1), {
        changeAnnotations: true,
        indexFull: false,
      }),
      {
        error:
          'Cannot rename: 1 place writes it in a way no edit can change safely (an escape, a joined or formatted string, a variable): a.py:2. Nothing was renamed.',
      },
    );
    assert.deepEqual(
      renameWorkspaceEdit(target, 'db.people', files, places, { changeAnnotations: false, indexFull: false }),
      {
        error:
          'Cannot rename: 6 places write it in a way no edit can change safely (an escape, a joined or formatted string, a variable): a.py:2, a.py:9, b.sql:1, c.py:4, d.py:5, …. Nothing was renamed.',
      },
    );
  });
});
