/**
 * The buttons of a write's result message (client/src/writeButtons.ts): Retry only where a second
 * try can end differently, the fix the failure calls for, and Undo on a written append with
 * exactly the members it added.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { type CatalogErrorKind, type WriteResult } from '../../model/src/protocol';
import { ServerCommands } from '../../model/src/commandIds';
import {
  afterFix,
  CONFIGURE_CATALOG,
  RETRY,
  messageButtons,
  resultButtons,
  SET_ACCESS_TOKEN,
  SHOW_LOG,
  UNDO,
  undoOf,
} from '../../client/src/writeButtons';

const failed = (kind: CatalogErrorKind): WriteResult => ({ status: 'failed', kind, message: 'why' });
const TABLE = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users_table)';
const MODEL = 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn,PROD)';
const F = 'urn:li:mlFeature:(users_table,country)';

describe('failures', () => {
  test('Retry where a second try can succeed, with the fix its kind calls for', () => {
    const expected: Record<CatalogErrorKind, string[]> = {
      unreachable: [RETRY, CONFIGURE_CATALOG],
      timeout: [RETRY],
      conflict: [RETRY],
      badResponse: [RETRY],
      unauthorized: [RETRY, SET_ACCESS_TOKEN],
      forbidden: [RETRY, SET_ACCESS_TOKEN],
      notConfigured: [RETRY, CONFIGURE_CATALOG],
      notFound: [RETRY],
      badInput: [],
      rejected: [],
      cancelled: [],
    };
    for (const [kind, buttons] of Object.entries(expected))
      assert.deepEqual(
        resultButtons(ServerCommands.setDatasetDescription, failed(kind as CatalogErrorKind)),
        buttons,
        kind,
      );
  });
});

describe('Undo', () => {
  test('a written append offers Undo; unchanged, other writes and an append that added nothing do not', () => {
    const added: WriteResult = { status: 'written', aspects: ['x'], message: 'Added', added: [F] };
    assert.deepEqual(resultButtons(ServerCommands.addFeaturesToTable, added), [UNDO]);
    assert.deepEqual(resultButtons(ServerCommands.addFeaturesToTable, { status: 'unchanged', message: 'none' }), []);
    assert.deepEqual(
      resultButtons(ServerCommands.setDatasetDescription, { status: 'written', aspects: ['x'], message: 'w' }),
      [],
    );
    assert.deepEqual(resultButtons(ServerCommands.addFeaturesToTable, { ...added, added: [] }), []);
    assert.deepEqual(
      resultButtons(ServerCommands.removeFeaturesFromTable, {
        status: 'written',
        aspects: ['x'],
        message: 'Removed',
        removed: [F],
      }),
      [],
    );
  });

  test('the undo is the matching remove with exactly the added members, the target and the document', () => {
    const r = (added: string[]): WriteResult => ({ status: 'written', aspects: ['x'], message: 'Added', added });
    const uri = 'file:///w/features.yaml';
    assert.deepEqual(
      undoOf(ServerCommands.addFeaturesToTable, r([F]), {
        table: TABLE,
        features: [F, 'urn:li:mlFeature:(users_table,age)'],
        uri,
      }),
      { command: ServerCommands.removeFeaturesFromTable, arg: { uri, table: TABLE, features: [F] } },
    );
    assert.deepEqual(undoOf(ServerCommands.addFeaturesToModel, r([F]), { model: MODEL, features: [F] }), {
      command: ServerCommands.removeFeaturesFromModel,
      arg: { model: MODEL, features: [F] },
    });
    const g = 'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn,PROD)';
    assert.deepEqual(undoOf(ServerCommands.addGroupsToModel, r([g]), { model: MODEL, groups: [g] }), {
      command: ServerCommands.removeGroupsFromModel,
      arg: { model: MODEL, groups: [g] },
    });
    assert.equal(undoOf(ServerCommands.createEntity, r([F]), { urn: F }), undefined);
  });
});

describe('Undo of an answer that is not a list of URN texts', () => {
  test('no undo: nothing but strings is sent back to the server', () => {
    const odd = { status: 'written', aspects: ['x'], message: 'Added', added: [1, {}] } as unknown as WriteResult;
    assert.equal(undoOf(ServerCommands.addFeaturesToTable, odd, { table: TABLE }), undefined);
    assert.deepEqual(resultButtons(ServerCommands.addFeaturesToTable, odd), []);
  });
});

describe('a failed write after its fix', () => {
  test('Set Access Token or Configure Catalog made: the write runs again; abandoned: the failure is offered again', () => {
    assert.equal(afterFix(true), 'retry');
    for (const abandoned of [false, undefined, null, 'yes'])
      assert.equal(afterFix(abandoned), 'showAgain', String(abandoned));
  });
});

describe('Undo of a written description', () => {
  const written = (previous: string | null | undefined): WriteResult => ({
    status: 'written',
    aspects: ['editableDatasetProperties'],
    message: 'Wrote the description of db.users',
    ...(previous !== undefined ? { previous } : {}),
  });
  const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';

  test('the same command with the text it replaced; an empty text where there was none; a link is not undone', () => {
    const arg = { urn: USERS, description: 'new', link: { url: 'https://x', description: 'x' }, uri: 'file:///a.py' };
    assert.deepEqual(resultButtons(ServerCommands.setDatasetDescription, written('old'), arg), [UNDO]);
    assert.deepEqual(undoOf(ServerCommands.setDatasetDescription, written('old'), arg), {
      command: ServerCommands.setDatasetDescription,
      arg: { uri: 'file:///a.py', urn: USERS, description: 'old', restoring: true },
    });
    assert.deepEqual(undoOf(ServerCommands.setDatasetDescription, written(null), arg)?.arg, {
      uri: 'file:///a.py',
      urn: USERS,
      description: '',
      restoring: true,
    });
    assert.deepEqual(
      undoOf(ServerCommands.setColumnDescription, written('a'), { urn: USERS, fieldPath: 'age', description: 'b' }),
      {
        command: ServerCommands.setColumnDescription,
        arg: { urn: USERS, fieldPath: 'age', description: 'a', restoring: true },
      },
    );
    assert.equal(
      undoOf(ServerCommands.setMlDescription, written('x'), { urn: 'urn:li:mlFeature:(t,f)' })?.arg['description'],
      'x',
    );
    assert.deepEqual(
      undoOf(ServerCommands.setDescription, written(null), { uri: 'file:///g.yaml', urn: 'urn:li:glossaryTerm:T' }),
      {
        command: ServerCommands.setDescription,
        arg: { uri: 'file:///g.yaml', urn: 'urn:li:glossaryTerm:T', description: '', restoring: true },
      },
    );
  });

  test('no Undo without previous (a link only, another server), or with an odd previous', () => {
    const arg = { urn: USERS, description: 'new' };
    assert.deepEqual(resultButtons(ServerCommands.setDatasetDescription, written(undefined), arg), []);
    const odd = { ...written('x'), previous: 42 } as unknown as WriteResult;
    assert.deepEqual(resultButtons(ServerCommands.setDatasetDescription, odd, arg), []);
    assert.equal(undoOf(ServerCommands.setDatasetDescription, written('x'), undefined), undefined);
  });

  test("an undo's own message offers no Undo: it restored the earlier text", () => {
    const undo = undoOf(ServerCommands.setDatasetDescription, written('old'), { urn: USERS, description: 'new' });
    assert.deepEqual(resultButtons(ServerCommands.setDatasetDescription, written('new'), undo!.arg), []);
  });
});

describe('every result message has a button', () => {
  test('Show Log where no other button fits (VS Code shows a message without one collapsed, cut to one line)', () => {
    const unchanged: WriteResult = { status: 'unchanged', message: 'Nothing written' };
    assert.deepEqual(messageButtons(ServerCommands.addFeaturesToTable, unchanged), [SHOW_LOG]);
    assert.deepEqual(
      messageButtons(ServerCommands.createEntity, { status: 'written', aspects: ['x'], message: 'Created' }),
      [SHOW_LOG],
    );
    assert.deepEqual(
      messageButtons(ServerCommands.setDatasetDescription, { status: 'failed', kind: 'badInput', message: 'no' }),
      [SHOW_LOG],
    );
    const added: WriteResult = { status: 'written', aspects: ['x'], message: 'Added', added: [F] };
    assert.deepEqual(messageButtons(ServerCommands.addFeaturesToTable, added), [UNDO]);
    assert.deepEqual(
      messageButtons(ServerCommands.setDatasetDescription, { status: 'failed', kind: 'timeout', message: 'slow' }),
      [RETRY],
    );
    // A cancelled write shows no message at all.
    assert.deepEqual(
      messageButtons(ServerCommands.setDatasetDescription, { status: 'failed', kind: 'cancelled', message: 'c' }),
      [],
    );
  });
});

describe('Undo of a tag, glossary term or owner added to a dataset', () => {
  const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
  const written = (added: string[]): WriteResult => ({ status: 'written', message: 'm', aspects: ['x'], added });

  test('removes exactly what was added, from the same column, with the document uri', () => {
    assert.deepEqual(
      undoOf(ServerCommands.addTags, written(['urn:li:tag:pii']), {
        urn: DS,
        tags: ['urn:li:tag:pii', 'urn:li:tag:gold'],
        fieldPath: 'email',
        uri: 'file:///w/a.yaml',
      }),
      {
        command: ServerCommands.removeTags,
        arg: { uri: 'file:///w/a.yaml', urn: DS, tags: ['urn:li:tag:pii'], fieldPath: 'email' },
      },
    );
    assert.deepEqual(undoOf(ServerCommands.addTerms, written(['urn:li:glossaryTerm:T']), { urn: DS, terms: [] }), {
      command: ServerCommands.removeTerms,
      arg: { urn: DS, terms: ['urn:li:glossaryTerm:T'] },
    });
    assert.deepEqual(resultButtons(ServerCommands.addTags, written(['urn:li:tag:pii']), { urn: DS }), [UNDO]);
  });

  test('an owner is removed as an owner of the type it was added as', () => {
    assert.deepEqual(
      undoOf(ServerCommands.addOwners, written(['urn:li:corpuser:jdoe']), {
        urn: DS,
        owners: ['urn:li:corpuser:jdoe'],
        ownershipType: 'BUSINESS_OWNER',
      }),
      {
        command: ServerCommands.removeOwners,
        arg: { urn: DS, owners: ['urn:li:corpuser:jdoe'], ownershipType: 'BUSINESS_OWNER' },
      },
    );
  });

  test('nothing added (unchanged), or a removal: no Undo', () => {
    assert.equal(undoOf(ServerCommands.addTags, written([]), { urn: DS }), undefined);
    assert.equal(
      undoOf(ServerCommands.removeTags, { status: 'written', message: 'm', aspects: ['x'], removed: ['t'] }, {}),
      undefined,
    );
  });
});
