/**
 * Completion, in process: the URN's shape as it is typed (server/src/features/completion.ts:
 * kinds, platforms, envs) and catalog names (server/src/features/completeNames.ts) through the
 * language service, whose stand-in resolution's search returns canned items — what is asked, the
 * labels, and the text each item writes in Python, YAML and SQL. The spawned server against the
 * local catalog is test/server/completeNames.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CompletionItem, CompletionList, TextEdit } from 'vscode-languageserver';
import { SEARCH_PAGE, type SearchItem } from '../../../model/src/protocol';
import type { NamedItem } from '../../../server/src/catalogClient/search';
import { completionsAt } from '../../../server/src/features/completion';
import { caret, positionAt } from './support/caret';
import { serviceUnderTest } from './support/service';

const NS = ['li', 'svc'];

/** The items at the caret of one line. */
function shapeItems(marked: string, platformsSeen: string[] = [], namespaces = NS): CompletionItem[] {
  const { text, position } = caret(marked);
  return completionsAt(text.slice(0, position.character), position, namespaces, platformsSeen);
}
const edit = (item: CompletionItem | undefined): TextEdit => item?.textEdit as TextEdit;

describe('completion of the URN shape', () => {
  test('after urn:li: the entity kinds, each a snippet of its parts in that namespace word', () => {
    const items = shapeItems('x = "urn:li:‸"');
    assert.deepEqual(
      items.slice(0, 5).map((i) => i.label),
      ['dataset', 'mlFeature', 'mlFeatureTable', 'mlModel', 'mlModelGroup'],
    );
    const ds = items.find((i) => i.label === 'dataset');
    assert.equal(ds?.detail, 'urn:li:dataset:…');
    assert.equal(ds?.insertTextFormat, 2);
    assert.deepEqual(edit(ds), {
      range: { start: { line: 0, character: 12 }, end: { line: 0, character: 12 } },
      newText: 'dataset:(urn:li:dataPlatform:${1:platform},${2:name},${3:PROD})',
    });
    // Kinds of DataHub's registry beyond the spec's come after them.
    assert.ok(items.some((i) => i.label === 'chart' && i.sortText === '1chart'));
  });

  test('urn:svc: with a kind half typed: the item replaces what is typed', () => {
    const items = shapeItems('f = "urn:svc:mlF‸');
    const feature = items.find((i) => i.label === 'mlFeature');
    assert.deepEqual(edit(feature), {
      range: { start: { line: 0, character: 13 }, end: { line: 0, character: 16 } },
      newText: 'mlFeature:(${1:feature_table},${2:feature})',
    });
    assert.equal(items.find((i) => i.label === 'mlModel')?.detail, 'urn:svc:mlModel:…');
  });

  test("after '(' the platform URN: platforms seen in the workspace first, then common ones", () => {
    const items = shapeItems('  - urn:svc:dataset:(urn:svc:dataPlatform:sn‸', ['trino']);
    assert.deepEqual(
      items.slice(0, 2).map((i) => [i.label, i.detail, i.sortText]),
      [
        ['urn:svc:dataPlatform:trino', 'seen in the workspace', '0trino'],
        ['urn:svc:dataPlatform:hive', 'common platform', '1hive'],
      ],
    );
    const snowflake = items.find((i) => i.label === 'urn:svc:dataPlatform:snowflake');
    // What is typed of the platform URN is replaced: from after '(' to the caret.
    assert.deepEqual(edit(snowflake).range, {
      start: { line: 0, character: 21 },
      end: { line: 0, character: 44 },
    });
  });

  test('after the name the envs, PROD first; outside a URN, or another namespace word, nothing', () => {
    const items = shapeItems("WHERE urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PR‸");
    assert.equal(items.find((i) => i.sortText === '0')?.label, 'PROD');
    assert.deepEqual(edit(items.find((i) => i.label === 'DEV')).range, {
      start: { line: 0, character: 63 },
      end: { line: 0, character: 65 },
    });
    assert.deepEqual(shapeItems('x = "urn:acme:‸"'), []);
    assert.equal(shapeItems('x = "urn:acme:‸"', [], ['acme'])[0]?.detail, 'urn:acme:dataset:…');
    assert.deepEqual(shapeItems('print("hello ‸")'), []);
  });
});

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const FOUND: SearchItem[] = [
  { urn: USERS, kind: 'dataset', name: 'db.users', platform: 'hive', description: 'One row per registered user.' },
  {
    urn: "urn:li:dataset:(urn:li:dataPlatform:hive,db.o'brien,PROD)",
    kind: 'dataset',
    name: "db.o'brien",
    platform: 'hive',
  },
  // Another platform than the slot's: a catalog may ignore the filter; the item is not offered.
  {
    urn: 'urn:li:dataset:(urn:li:dataPlatform:kafka,db.users_events,PROD)',
    kind: 'dataset',
    name: 'db.users_events',
    platform: 'kafka',
  },
  // Not a URN the literal can hold: refused, and the log says why.
  { urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD', kind: 'dataset', name: 'broken' },
];

/** The catalog-name completion at the caret of a document, through the language service. */
async function completeNames(marked: string, languageId: string, uri = `untitled:names.${languageId}`) {
  const sut = serviceUnderTest({ search: FOUND });
  const { text, offset, position } = caret(marked);
  await sut.open(uri, languageId, text);
  const result = (await sut.service.doComplete(uri, position, sut.token)) as CompletionList;
  const byLabel = (label: string) => result.items.find((i) => i.label === label);
  /** The document with the item applied. */
  const applied = (item: CompletionItem | undefined): string => {
    const e = edit(item);
    const at = (p: { line: number; character: number }) =>
      text
        .split('\n')
        .slice(0, p.line)
        .reduce((n, l) => n + l.length + 1, 0) + p.character;
    return text.slice(0, at(e.range.start)) + e.newText + text.slice(at(e.range.end));
  };
  return { sut, result, byLabel, applied, offset };
}

describe('completion of catalog names, through the language service', () => {
  test('Python, a URN literal after its platform: the search asked, the items, the whole URN written with its env', async () => {
    const { sut, result, byLabel, applied } = await completeNames(
      'USERS = "urn:li:dataset:(urn:li:dataPlatform:hive,db.us‸,PROD)"\n',
      'python',
    );
    assert.deepEqual(sut.resolution.asked.searches, [
      { query: 'db.us', kinds: ['dataset'], platform: 'hive', count: SEARCH_PAGE, mode: 'complete' },
    ]);
    assert.equal(result.isIncomplete, false);
    // The name with a quote cannot be written inside Python's "…": refused with the other bad one.
    assert.deepEqual(
      result.items.map((i) => i.label),
      ['db.users'],
    );
    const item = byLabel('db.users');
    assert.equal(item?.detail, 'hive dataset');
    assert.deepEqual(item?.documentation, {
      kind: 'markdown',
      value: `One row per registered user.\n\n\`${USERS}\``,
    });
    assert.equal(applied(item), `USERS = "${USERS}"\n`);
    assert.equal(sut.log.filter((l) => l.startsWith('completion: not offering')).length, 2);
  });

  test("urn:svc: in YAML: the catalog's urn:li: answer is written in the document's namespace word", async () => {
    const { applied, byLabel } = await completeNames(
      'datasets:\n  - urn: urn:svc:dataset:(urn:svc:dataPlatform:hive,db.‸\n',
      'yaml',
    );
    assert.equal(
      applied(byLabel('db.users')),
      'datasets:\n  - urn: urn:svc:dataset:(urn:svc:dataPlatform:hive,db.users,PROD)\n',
    );
  });

  test("SQL: a name with a quote is written with SQL's doubled quote inside '…'", async () => {
    const { applied, byLabel, result } = await completeNames(
      "SELECT * FROM t WHERE urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.‸'",
      'sql',
    );
    assert.deepEqual(
      result.items.map((i) => i.label),
      ['db.users', "db.o'brien"],
    );
    assert.equal(
      applied(byLabel("db.o'brien")),
      "SELECT * FROM t WHERE urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.o''brien,PROD)'",
    );
  });

  test("a builder call's name argument: the name alone, the platform taken from the call", async () => {
    const { sut, applied, byLabel } = await completeNames('urn = make_dataset_urn("hive", "db.u‸")\n', 'python');
    assert.equal(sut.resolution.asked.searches[0]?.platform, 'hive');
    assert.equal(applied(byLabel('db.users')), 'urn = make_dataset_urn("hive", "db.users")\n');
  });

  test('a search that fails: no items, more to come, one line in the log however often it is asked', async () => {
    const sut = serviceUnderTest({ search: () => ({ error: 'the catalog is unreachable' }) });
    const text = 'x = "urn:li:dataset:(urn:li:dataPlatform:hive,db.u';
    await sut.open('untitled:f.py', 'python', text);
    const at = positionAt(text, text.length);
    assert.deepEqual(await sut.service.doComplete('untitled:f.py', at, sut.token), { isIncomplete: true, items: [] });
    await sut.service.doComplete('untitled:f.py', at, sut.token);
    assert.deepEqual(sut.log, ['completion: no names from the catalog: the catalog is unreachable']);
  });

  test('no name slot: the URN shape, with the platforms of the open documents; a language not scanned: nothing', async () => {
    const sut = serviceUnderTest({ search: FOUND });
    await sut.open('untitled:seen.py', 'python', 'x = "urn:li:dataset:(urn:li:dataPlatform:trino,a.b,PROD)"');
    await sut.service.doHover('untitled:seen.py', { line: 0, character: 50 }, sut.token);
    const text = 'y = "urn:li:dataset:(';
    await sut.open('untitled:g.py', 'python', text);
    const items = (await sut.service.doComplete(
      'untitled:g.py',
      positionAt(text, text.length),
      sut.token,
    )) as CompletionItem[];
    assert.equal(items[0]?.label, 'urn:li:dataPlatform:trino');
    assert.deepEqual(sut.resolution.asked.searches, []);
    await sut.open('untitled:h.rb', 'ruby', text);
    assert.deepEqual(await sut.service.doComplete('untitled:h.rb', positionAt(text, text.length), sut.token), []);
  });
});

describe('completion of looked-up-only kinds, through the language service', () => {
  const NAMED: NamedItem[] = [
    { urn: 'urn:li:tag:pii', kind: 'tag', displayName: 'PII', description: 'Personal data.' },
    { urn: 'urn:li:corpuser:jdoe', kind: 'corpuser', displayName: 'Jane Doe' },
    { urn: 'urn:li:corpGroup:eng', kind: 'corpGroup', displayName: 'Engineering' },
    { urn: 'urn:li:domain:0f6c1a2e-9b1d-4e0a-8c5f-3a7d2b9e4c11', kind: 'domain', displayName: 'Finance' },
  ];
  async function complete(marked: string, languageId: string) {
    const sut = serviceUnderTest({ search: FOUND, named: NAMED });
    const { text, position } = caret(marked);
    const uri = `untitled:named.${languageId}`;
    await sut.open(uri, languageId, text);
    const result = (await sut.service.doComplete(uri, position, sut.token)) as CompletionList;
    return { sut, result };
  }

  test('one search of that kind per completion, nothing typed yet included; no dataset search', async () => {
    const { sut, result } = await complete('x = "urn:li:tag:‸"\n', 'python');
    assert.deepEqual(sut.resolution.asked.named, [{ kinds: ['tag'], query: '' }]);
    assert.deepEqual(sut.resolution.asked.searches, []);
    assert.deepEqual(
      result.items.map((i) => [i.label, i.detail, edit(i).newText, i.filterText]),
      [['PII', 'Tag pii', 'urn:li:tag:pii', 'urn:li:tag:PII pii']],
    );
    assert.equal(result.isIncomplete, false);
  });

  test('YAML owners: users and groups asked in one search; a GUID domain found by its name, written by it', async () => {
    const owners = await complete('owners:\n  - j‸\n', 'yaml');
    assert.deepEqual(owners.sut.resolution.asked.named, [{ kinds: ['corpuser', 'corpGroup'], query: 'j' }]);
    assert.deepEqual(
      owners.result.items.map((i) => edit(i).newText),
      ['jdoe', 'urn:li:corpGroup:eng'],
    );
    const domain = await complete('domain: Fin‸\n', 'yaml');
    assert.deepEqual(
      domain.result.items.map((i) => [i.label, edit(i).newText]),
      [['Finance', 'Finance']],
    );
    const urn = await complete('x = "urn:li:domain:Fin‸"\n', 'python');
    assert.deepEqual(
      urn.result.items.map((i) => [i.label, edit(i).newText, i.filterText]),
      [
        [
          'Finance',
          'urn:li:domain:0f6c1a2e-9b1d-4e0a-8c5f-3a7d2b9e4c11',
          'urn:li:domain:Finance 0f6c1a2e-9b1d-4e0a-8c5f-3a7d2b9e4c11',
        ],
      ],
    );
  });
});
