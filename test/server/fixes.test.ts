/**
 * A fix for every diagnostic that has one, and writes that report in the user's words. Through the
 * real server process against the real local catalog, in both of its modes and on both write paths:
 * the description of an ML entity (setMlDescription), the env typo's quick fix, no write
 * offered on an entity the catalog does not have, and the code actions of descriptions, ML lists,
 * YAML list members and YAML docs as code (push and pull).
 */
import assert from 'node:assert/strict';
import { parseDocument } from 'yaml';
import { beforeEach, describe, test } from 'node:test';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { applyEdits } from '../support/textEdits';
import { aspects, ingest } from '../support/catalogHttp';
import { positionOf } from '../support/lspClient';
import { COMPAT_MODES, S, sampleCatalog, serverFor, useSampleServerPerTest } from '../support/fixture';
import type { WriteResult } from '../../model/src/protocol';

const SET = 'catalogLens.setMlDescription';

for (const compat of COMPAT_MODES)
  for (const writePath of ['aspects', 'graphql'] as const)
    describe(`the description of an ML entity (${writePath} path, ${compat} catalog)`, () => {
      const env = useSampleServerPerTest(
        { settings: { writePath, actor: 'urn:li:corpuser:alice' }, initializationOptions: { clientCommands: true } },
        compat,
      );
      beforeEach(() => env.catalog.stats.reset());
      const run = (arg: unknown): Promise<WriteResult> => env.lsp.command<WriteResult>(SET, arg);
      // Where the description lands: DataHub's updateDescription writes the edited aspect; the spec
      // mode takes it for dataset fields only, so the server writes the properties aspect.
      const viaEditable = writePath === 'graphql' && compat === 'datahub';

      test('a feature without a description gets one; every other field of its aspect is kept; the diagnostic goes', async () => {
        const uri = 'file:///w/feature.py';
        await env.lsp.open(uri, 'python', `f = "${S.signupDays}"\n`);
        await env.lsp.diagnostics(uri, (ds) => ds.some((d) => d.code === 'missing-description'));
        const r = await run({ urn: S.signupDays, description: 'Days since the user signed up.' });
        assert.equal(r.status, 'written', r.message);
        const a = await aspects(env.catalog.url, S.signupDays, ['mlFeatureProperties', 'editableMlFeatureProperties']);
        if (viaEditable) {
          assert.equal(r.message, 'Wrote the description of ML feature signup_days');
          assert.deepEqual(r.aspects, ['editableMlFeatureProperties']);
          assert.deepEqual(a['editableMlFeatureProperties'], { description: 'Days since the user signed up.' });
          assert.deepEqual(
            a['mlFeatureProperties'],
            { customProperties: {}, dataType: 'COUNT' },
            'ingested aspect untouched',
          );
        } else {
          assert.deepEqual(r.aspects, ['mlFeatureProperties']);
          assert.deepEqual(a['mlFeatureProperties'], {
            customProperties: {},
            dataType: 'COUNT',
            description: 'Days since the user signed up.',
          });
          assert.equal(a['editableMlFeatureProperties'], undefined);
          if (writePath === 'aspects') assert.equal(r.message, 'Wrote the description of ML feature signup_days');
          else
            assert.match(
              r.message,
              /^Wrote the description of ML feature signup_days \(through the aspect path: this catalog's updateDescription does not describe ML entities\)$/,
            );
        }
        assert.doesNotMatch(r.message, /Properties/, 'no aspect name in the message');
        // What was written is what the reads show: the diagnostic goes.
        await env.lsp.diagnostics(uri, (ds) => !ds.some((d) => d.code === 'missing-description'));
      });

      test('every ML kind: a changed description keeps the other fields; the same one again writes nothing', async () => {
        const cases = [
          [S.usersTable, 'mlFeatureTableProperties', 'editableMlFeatureTableProperties', 'feature table users_table'],
          [S.churnModel, 'mlModelProperties', 'editableMlModelProperties', 'ML model churn-model-v3'],
          [S.ltvGroup, 'mlModelGroupProperties', 'editableMlModelGroupProperties', 'model group ltv-model'],
        ] as const;
        for (const [urn, properties, editable, label] of cases) {
          const before = (await aspects(env.catalog.url, urn, [properties]))[properties];
          const r = await run({ urn, description: `About ${label}.` });
          assert.equal(r.status, 'written', r.message);
          assert.match(r.message, new RegExp(`^Wrote the description of ${label.replace(/[.()-]/g, '\\$&')}`));
          const after = await aspects(env.catalog.url, urn, [properties, editable]);
          if (viaEditable) {
            assert.deepEqual(after[properties], before, `${properties} untouched`);
            assert.equal(after[editable].description, `About ${label}.`);
          } else {
            assert.deepEqual(after[properties], { ...before, description: `About ${label}.` }, `${properties} kept`);
          }
          env.catalog.stats.reset();
          const again = await run({ urn, description: `About ${label}.` });
          assert.equal(again.status, 'unchanged', again.message);
          assert.equal(again.message, `Nothing written to ${label}: the description is already so`);
          assert.equal(env.catalog.stats.aspectWrites, 0);
        }
      });

      test('refused on an entity the catalog does not have: nothing is created', async () => {
        const r = await run({ urn: S.ghostFeature, description: 'A ghost.' });
        assert.equal(r.status, 'failed');
        assert.equal(r.kind, 'notFound');
        assert.equal(
          r.message,
          'ML feature ghost is not in the catalog; nothing was written (an ML feature must exist before it is described)',
        );
        assert.deepEqual(
          await aspects(env.catalog.url, S.ghostFeature, ['mlFeatureProperties', 'editableMlFeatureProperties']),
          {},
        );
        assert.equal(env.catalog.stats.aspectWrites, 0);
      });

      test('the other namespace word: the same entity in the spec mode, another (absent) one in the DataHub mode', async () => {
        const svc = S.signupDays.replace('urn:li:', 'urn:svc:');
        const r = await run({ urn: svc, description: 'Days since signup.' });
        if (compat === 'spec') {
          assert.equal(r.status, 'written', r.message);
          const a = await aspects(env.catalog.url, S.signupDays, ['mlFeatureProperties']);
          assert.equal(a['mlFeatureProperties'].description, 'Days since signup.');
        } else {
          // DataHub compares URNs as strings: urn:svc:… names no entity it holds, and none is made.
          assert.equal(r.kind, 'notFound', r.message);
          assert.deepEqual(
            await aspects(env.catalog.url, svc, ['mlFeatureProperties', 'editableMlFeatureProperties']),
            {},
          );
        }
      });

      test('a dataset, or no description, is bad input', async () => {
        const r = await run({ urn: S.orders, description: 'x' });
        assert.equal(r.kind, 'badInput');
        assert.match(
          r.message,
          /must name an ML feature, feature table, ML model or model group.*setDatasetDescription/,
        );
        assert.equal((await run({ urn: S.age })).kind, 'badInput');
      });
    });

describe('the aspect path writes where the description shown comes from (DataHub mode)', () => {
  test('an entity with an edited description gets the edited one changed, not the ingested one under it', async (t) => {
    const catalog = await sampleCatalog({ compat: 'datahub' });
    const lsp = await serverFor(catalog.url, { settings: { writePath: 'aspects' } });
    t.after(async () => {
      await lsp.stop();
      await catalog.close();
    });
    assert.equal(
      await ingest(catalog.url, 'mlFeature', S.age, 'editableMlFeatureProperties', {
        description: 'Edited in the UI.',
      }),
      200,
    );
    const r = await lsp.command<WriteResult>(SET, { urn: S.age, description: 'Age, whole years.' });
    assert.equal(r.status, 'written', r.message);
    assert.deepEqual(r.aspects, ['editableMlFeatureProperties']);
    const a = await aspects(catalog.url, S.age, ['mlFeatureProperties', 'editableMlFeatureProperties']);
    assert.equal(a['editableMlFeatureProperties'].description, 'Age, whole years.');
    assert.equal(a['mlFeatureProperties'].description, 'Age of the user in years.', 'the ingested one is kept');
    const uri = 'file:///w/age.py';
    const text = `f = "${S.age}"\n`;
    await lsp.open(uri, 'python', text);
    const hover = await lsp.hover(uri, positionOf(text, 'age'));
    assert.match(JSON.stringify(hover), /Age, whole years\./, 'the hover shows the edited description');
  });
});

describe("dataset writes speak in the user's words", () => {
  const env = useSampleServerPerTest({});
  test('the description, the description and a link, a link', async () => {
    const run = (arg: unknown): Promise<WriteResult> =>
      env.lsp.command<WriteResult>('catalogLens.setDatasetDescription', arg);
    const link = { url: 'https://wiki.example.com/orders', description: 'Runbook' };
    assert.equal(
      (await run({ urn: S.orders, description: 'Orders.' })).message,
      'Wrote the description of dataset db.orders',
    );
    const both = await run({ urn: S.users, description: 'Users.', link });
    assert.equal(both.message, 'Wrote the description and a link of dataset db.users');
    assert.deepEqual(both.aspects, ['editableDatasetProperties', 'institutionalMemory']);
    const onlyLink = await run({ urn: S.orders, description: 'Orders.', link });
    assert.equal(onlyLink.message, 'Added a link to dataset db.orders');
  });
});

describe('the env typo quick fix', () => {
  const env = useSampleServerPerTest({});
  const fixesAt = async (uri: string, lang: string, text: string): Promise<{ d: Diagnostic; fixes: CodeAction[] }> => {
    await env.lsp.open(uri, lang, text);
    const ds = await env.lsp.diagnostics(uri, (all) => all.some((d) => d.code === 'unknown-env'));
    const d = ds.find((x) => x.code === 'unknown-env')!;
    const fixes = (await env.lsp.codeActions(uri, d.range, [d])).filter((a) => a.title.startsWith('Replace with'));
    return { d, fixes };
  };

  const forms: Array<[string, string, string, string]> = [
    [
      'a URN literal',
      'python',
      'x = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PRDO)"\n',
      'x = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)"\n',
    ],
    [
      "a builder call's argument",
      'python',
      'from datahub.emitter.mce_builder import make_dataset_urn\nx = make_dataset_urn("hive", "db.users", "PRDO")\n',
      'from datahub.emitter.mce_builder import make_dataset_urn\nx = make_dataset_urn("hive", "db.users", "PROD")\n',
    ],
    [
      'a YAML value, and the other namespace word',
      'yaml',
      'datasets:\n  - urn: urn:svc:dataset:(urn:svc:dataPlatform:hive,db.users,prod)\n',
      'datasets:\n  - urn: urn:svc:dataset:(urn:svc:dataPlatform:hive,db.users,PROD)\n',
    ],
  ];
  for (const [name, lang, text, fixed] of forms) {
    test(`in ${name}: "Replace with PROD" edits the env alone`, async () => {
      const uri = `file:///w/env-${lang}-${forms.findIndex((f) => f[0] === name)}.${lang === 'yaml' ? 'yml' : 'py'}`;
      const { d, fixes } = await fixesAt(uri, lang, text);
      assert.equal(fixes.length, 1, JSON.stringify(d));
      const [fix] = fixes;
      assert.equal(fix!.title, 'Replace with PROD');
      assert.equal(fix!.kind, 'quickfix');
      assert.equal(fix!.isPreferred, true);
      assert.equal(fix!.command, undefined, 'an edit of the file, no write to the catalog');
      const edits = fix!.edit!.changes![uri]!;
      assert.equal(edits.length, 1);
      assert.equal(edits[0]!.newText, 'PROD');
      assert.equal(applyEdits(text, edits), fixed);
    });
  }

  test('not offered once the range no longer holds the env, nor where an escape spells it', async () => {
    const uri = 'file:///w/env-stale.py';
    const text = 'x = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PRDO)"\n';
    const { d } = await fixesAt(uri, 'python', text);
    // The diagnostic is the one made before this edit: the range now holds other text.
    await env.lsp.change(uri, text.replace('PRDO', 'QADO'));
    const stale = await env.lsp.codeActions(uri, d.range, [d]);
    assert.ok(!stale.some((a) => a.title.startsWith('Replace with')), JSON.stringify(stale));

    const json = '{"entityUrn": "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PR\\u0044O)"}\n';
    const escaped = await fixesAt('file:///w/env-escaped.json', 'json', json);
    assert.equal(escaped.fixes.length, 0, 'the escape is not replaced');
  });

  test('no suggestion, no fix', async () => {
    const { d, fixes } = await fixesAt(
      'file:///w/env-far.py',
      'python',
      'x = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,NOWHERE)"\n',
    );
    assert.doesNotMatch(String(d.message), /did you mean/);
    assert.equal(fixes.length, 0);
  });
});

describe('writes offered only on entities the catalog has', () => {
  const env = useSampleServerPerTest({ initializationOptions: { clientCommands: true } });
  const titlesAt = async (uri: string, text: string, needle: string): Promise<string[]> => {
    const at = positionOf(text, needle);
    return (await env.lsp.codeActions(uri, { start: at, end: at }, [])).map((a) => a.title);
  };

  test('a dataset, a column, a feature, a model the catalog lacks: no write refactor; ones it has: offered', async () => {
    const uri = 'file:///w/offered.py';
    const ghostModel = 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,ghost-model,PROD)';
    const text = [
      `a = "${S.orders}"`,
      `b = "${S.ghost}"`,
      `c = "urn:li:schemaField:(${S.users},email)"`,
      `d = "urn:li:schemaField:(${S.ghost},email)"`,
      `e = "${S.age}"`,
      `f = "${S.ghostFeature}"`,
      `g = "${S.ltvModel}"`,
      `h = "${ghostModel}"`,
      '',
    ].join('\n');
    await env.lsp.open(uri, 'python', text);
    // Every URN answered: three unknown (the ghost column's dataset among them).
    await env.lsp.diagnostics(uri, (ds) => ds.filter((d) => d.code === 'unknown-urn').length === 4);
    assert.ok((await titlesAt(uri, text, 'db.orders')).includes('Write dataset description…'));
    assert.ok(!(await titlesAt(uri, text, 'db.ghost')).includes('Write dataset description…'));
    assert.ok((await titlesAt(uri, text, 'email)"\nd')).includes('Write column description…'));
    assert.ok(!(await titlesAt(uri, text, 'email)"\ne')).includes('Write column description…'));
    const onFeature = await titlesAt(uri, text, 'age)');
    assert.deepEqual(
      onFeature.filter((t) => t.startsWith('Add') || t.startsWith('Write')),
      ['Add feature to feature table…', 'Add feature to model…', 'Write ML feature description…'],
    );
    const at = positionOf(text, 'age)');
    const writeAge = (await env.lsp.codeActions(uri, { start: at, end: at }, [])).find(
      (a) => a.title === 'Write ML feature description…',
    );
    assert.equal(writeAge?.kind, 'refactor.catalogLens');
    assert.deepEqual(
      writeAge?.command?.arguments,
      [{ urn: S.age, current: 'Age of the user in years.' }],
      "the input box starts from the catalog's text",
    );
    const onGhostFeature = await titlesAt(uri, text, 'ghost)');
    assert.deepEqual(
      onGhostFeature.filter((t) => t.startsWith('Add') || t.startsWith('Write')),
      [],
    );
    assert.ok((await titlesAt(uri, text, 'ltv-model-v1')).includes('Add model group…'));
    assert.ok(!(await titlesAt(uri, text, 'ghost-model')).includes('Add model group…'));
    // The unknown ML entity keeps its Create… fix.
    const ds = await env.lsp.diagnostics(uri);
    const unknownFeature = ds.find(
      (d) => d.code === 'unknown-urn' && (d.data as { urn?: string }).urn === S.ghostFeature,
    )!;
    const create = await env.lsp.codeActions(uri, unknownFeature.range, [unknownFeature]);
    assert.ok(create.some((a) => a.title === 'Create ML feature in catalog…'));
    assert.ok(!create.some((a) => a.title.startsWith('Add') || a.title.startsWith('Write')));
  });

  test('a missing ML description offers "Write … description…" as the preferred quick fix, once', async () => {
    const uri = 'file:///w/ml-missing.py';
    await env.lsp.open(uri, 'python', `g = "${S.ltvGroup}"\n`);
    const [d] = await env.lsp.diagnostics(uri, (ds) => ds.some((x) => x.code === 'missing-description'));
    const actions = await env.lsp.codeActions(uri, d!.range, [d!]);
    const write = actions.filter((a) => a.title === 'Write model group description…');
    assert.equal(write.length, 1, 'offered once, not again as a refactor');
    assert.equal(write[0]!.kind, 'quickfix');
    assert.equal(write[0]!.isPreferred, true);
    assert.equal(write[0]!.command?.command, 'catalogLens.writeDescription');
    assert.deepEqual(write[0]!.command?.arguments, [{ urn: S.ltvGroup }]);
  });
});

describe('without client commands (Neovim) there is no text to ask for', () => {
  const env = useSampleServerPerTest({});
  test('a missing ML description offers no write', async () => {
    const uri = 'file:///w/ml-nvim.py';
    await env.lsp.open(uri, 'python', `g = "${S.ltvGroup}"\n`);
    const [d] = await env.lsp.diagnostics(uri, (ds) => ds.some((x) => x.code === 'missing-description'));
    const actions = await env.lsp.codeActions(uri, d!.range, [d!]);
    assert.deepEqual(
      actions.filter((a) => a.title.startsWith('Write')),
      [],
    );
  });
});

describe('code actions', () => {
  // Two of these tests write: each test has a catalog and server of its own.
  const env = useSampleServerPerTest({ initializationOptions: { clientCommands: true } });

  const actionsFor = async (uri: string, d: Diagnostic): Promise<CodeAction[]> =>
    env.lsp.codeActions(uri, d.range, [d]);

  test('a missing description offers "Write dataset description…" as the preferred quick fix, never source.fixAll', async () => {
    const uri = 'file:///w/ca.py';
    await env.lsp.open(uri, 'python', `x = "${S.orders}"\n`);
    const [d] = await env.lsp.diagnostics(uri, (ds) => ds.some((x) => x.code === 'missing-description'));
    const actions = await actionsFor(uri, d!);
    const write = actions.find((a) => a.title === 'Write dataset description…')!;
    assert.equal(write.kind, 'quickfix');
    assert.equal(write.isPreferred, true);
    assert.deepEqual(write.command?.arguments, [{ urn: S.orders }]);
    assert.ok(actions.every((a) => !String(a.kind).startsWith('source')));
    assert.equal(
      actions.filter((a) => a.title === 'Write dataset description…').length,
      1,
      'offered once, not again as a refactor',
    );
  });

  test('on a feature URN: add to feature table or model; on a model: add group; on an unknown ML URN: create it', async () => {
    const text = `f = "${S.avgAmount}"\nm = "${S.ltvModel}"\ng = "urn:li:mlFeature:(users_table,brand_new)"\n`;
    const uri = 'file:///w/ca2.py';
    await env.lsp.open(uri, 'python', text);
    const ds = await env.lsp.diagnostics(uri, (x) => x.some((d) => d.code === 'unknown-urn'));
    const at = (needle: string) => ({ start: positionOf(text, needle), end: positionOf(text, needle) });
    const onFeature = (await env.lsp.codeActions(uri, at('avg_amount'), [])).map((a) => a.title);
    assert.deepEqual(
      onFeature.filter((t) => t.startsWith('Add')),
      ['Add feature to feature table…', 'Add feature to model…'],
    );
    const onModel = (await env.lsp.codeActions(uri, at('ltv-model-v1'), [])).map((a) => a.title);
    assert.ok(onModel.includes('Add model group…'));
    const unknown = ds.find((d) => d.code === 'unknown-urn')!;
    const create = (await actionsFor(uri, unknown)).find((a) => a.title === 'Create ML feature in catalog…');
    assert.ok(create, 'create action offered');
    assert.equal(create.kind, 'quickfix');
  });

  test('YAML list members the catalog lacks: "Append to catalog" writes them', async () => {
    const yaml = `feature_tables:\n  - urn: ${S.usersTable}\n    features:\n      - ${S.age}\n      - ${S.signupDays}\n`;
    const uri = 'file:///w/ft.yml';
    await env.lsp.open(uri, 'yaml', yaml);
    const ds = await env.lsp.diagnostics(uri, (x) => x.some((d) => d.code === 'missing-list-member'));
    const d = ds.find((x) => x.code === 'missing-list-member')!;
    const append = (await actionsFor(uri, d)).find((a) => a.title === 'Append to catalog')!;
    const r = await env.lsp.command<WriteResult>(append.command!.command, append.command!.arguments![0]);
    assert.equal(r.status, 'written');
    const { mlFeatureTableProperties: t } = await aspects(env.catalog.url, S.usersTable, ['mlFeatureTableProperties']);
    assert.deepEqual(t.mlFeatures, [S.age, S.country, S.signupDays]);
    await env.lsp.diagnostics(uri, (x) => !x.some((y) => y.code === 'missing-list-member'));
  });

  test('pull inserts a missing column description in a flow mapping as valid YAML (quoted: the text has a comma)', async () => {
    const yaml = `datasets:\n  - urn: ${S.users}\n    columns:\n      - {name: email, type: string}   # flow\n`;
    const uri = 'file:///w/flow.yml';
    await env.lsp.open(uri, 'yaml', yaml);
    const at = positionOf(yaml, 'email');
    // The action reads the catalog's answer from the cache: a hover waits for it (the first
    // diagnostics may come before it, when the catalog is slow).
    await env.lsp.hover(uri, positionOf(yaml, 'db.users'));
    const pull = (await env.lsp.codeActions(uri, { start: at, end: at }, [])).find(
      (a) => a.title === 'Pull description from catalog',
    );
    assert.ok(pull, 'pull offered');
    const pulled = applyEdits(yaml, pull.edit!.changes![uri]!);
    assert.equal(
      pulled,
      yaml.replace(
        '{name: email, type: string}',
        '{name: email, type: string, description: "Login e-mail address, unique."}',
      ),
    );
    assert.deepEqual(parseDocument(pulled).errors, []);
  });

  test('YAML docs as code: push uses the YAML text; pull edits keep comments and block scalars', async () => {
    const yaml = [
      '# Dataset docs, reviewed in PRs',
      'datasets:',
      `  - urn: ${S.users}   # the users table`,
      '    description: |',
      '      Users of the product.',
      '      One row each.',
      '    columns:',
      '      - name: email  # login',
      "        description: 'E-mail address'",
      `  - urn: ${S.orders}`,
      '    description: >',
      '      Orders placed',
      '      by users.',
      '',
    ].join('\n');
    const uri = 'file:///w/docs.yml';
    await env.lsp.open(uri, 'yaml', yaml);
    const ds = await env.lsp.diagnostics(uri, (x) => x.filter((d) => String(d.code).endsWith('mismatch')).length === 3);
    const dsDesc = ds.find((d) => d.code === 'description-mismatch' && (d.data as { urn: string }).urn === S.users)!;
    const pull = (await actionsFor(uri, dsDesc)).find((a) => a.title === 'Pull description from catalog')!;
    const pulled = applyEdits(yaml, pull.edit!.changes![uri]!);
    assert.equal(
      pulled,
      yaml.replace(
        '|\n      Users of the product.\n      One row each.',
        '|-\n      One row per registered user of the product.',
      ),
    );
    const col = ds.find((d) => d.code === 'column-description-mismatch')!;
    const colPull = (await actionsFor(uri, col)).find((a) => a.title === 'Pull description from catalog')!;
    assert.equal(
      applyEdits(yaml, colPull.edit!.changes![uri]!),
      yaml.replace("'E-mail address'", "'Login e-mail address, unique.'"),
    );
    const orders = ds.find((d) => d.code === 'description-mismatch' && (d.data as { urn: string }).urn === S.orders)!;
    const push = (await actionsFor(uri, orders)).find((a) => a.title === 'Push description to catalog')!;
    const r = await env.lsp.command<WriteResult>(push.command!.command, push.command!.arguments![0]);
    assert.equal(r.status, 'written');
    const { editableDatasetProperties: e } = await aspects(env.catalog.url, S.orders, ['editableDatasetProperties']);
    assert.equal(e.description, 'Orders placed by users.\n');
  });
});
