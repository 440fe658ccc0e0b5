/**
 * Catalog Lens's language features as VS Code itself asks for them: the built-in
 * `vscode.execute*Provider` commands go through the editor's provider registry, the extension's
 * language client and the real language server, against the local catalog with the sample data.
 * What the UI suite (test/e2e) checks on screen, these check in the answers behind it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as vscode from 'vscode';
import {
  catalogUrl,
  codeActionsAt,
  codeOf,
  diagnosticAt,
  hoverAt,
  openFile,
  openNewFile,
  positionOf,
  URNS,
  waitForDiagnostics,
} from './support';

const USERS_DESCRIPTION = 'One row per registered user of the product.';

describe('language features through the VS Code API', () => {
  test('a Python file gets diagnostics for the malformed URN and the URN the catalog does not hold', async () => {
    const doc = await openFile('pipelines/features.py');
    const broken = positionOf(doc, 'BROKEN = "', 'db.users)');
    const ghost = positionOf(doc, 'GHOST = "', 'db.ghost');
    const ds = await waitForDiagnostics(
      doc.uri,
      (all) =>
        all.some((d) => codeOf(d) === 'malformed-urn' && d.range.contains(broken)) &&
        all.some((d) => codeOf(d) === 'unknown-urn' && d.range.contains(ghost)),
      'the malformed and the unknown URN of features.py',
    );
    const malformed = ds.find((d) => codeOf(d) === 'malformed-urn' && d.range.contains(broken))!;
    const unknown = ds.find((d) => codeOf(d) === 'unknown-urn' && d.range.contains(ghost))!;
    // The severities are the settings' defaults (catalogLens.diagnostics.*).
    assert.equal(malformed.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(unknown.severity, vscode.DiagnosticSeverity.Warning);
    assert.match(unknown.message, /db\.ghost/);
    assert.equal(doc.getText(unknown.range), URNS.ghost);
  });

  test('hovering a dataset URN in Python shows its catalog description', async () => {
    const doc = await openFile('pipelines/features.py');
    const hover = await hoverAt(doc, positionOf(doc, `USERS = "${URNS.users}"`, 'db.users'));
    assert.ok(hover.includes(USERS_DESCRIPTION), hover);
    assert.match(hover, /hive/);
  });

  test('hovering a dataset URN in YAML shows its catalog description', async () => {
    const doc = await openFile('catalog/datasets.yml');
    const hover = await hoverAt(doc, positionOf(doc, `urn: ${URNS.users}`, 'db.users'));
    assert.ok(hover.includes(USERS_DESCRIPTION), hover);
  });

  test('hovering a dataset URN in a SQL comment shows the description edited in the catalog', async () => {
    const doc = await openFile('sql/revenue.sql');
    const hover = await hoverAt(doc, positionOf(doc, '-- target: urn:li:dataset:', 'analytics.public.revenue'));
    assert.ok(hover.includes('Daily revenue per country, in EUR, after refunds.'), hover);
  });

  test('hovering a feature URN shows the feature and its description', async () => {
    const doc = await openFile('pipelines/features.py');
    const hover = await hoverAt(doc, positionOf(doc, `AGE = "${URNS.age}"`, 'users_table,age'));
    assert.ok(hover.includes('Age of the user in years.'), hover);
  });

  test('hovering a DataHub builder call resolves the URN it builds', async () => {
    const doc = await openNewFile(
      'pipelines/builder_call.py',
      'from datahub.emitter.mce_builder import make_dataset_urn\n\nUSERS = make_dataset_urn("hive", "db.users", "PROD")\n',
    );
    const hover = await hoverAt(doc, positionOf(doc, 'USERS = make_dataset_urn(', 'make_dataset_urn'));
    assert.ok(hover.includes(USERS_DESCRIPTION), hover);
    assert.match(hover, /make_dataset_urn/);
  });

  test('an undocumented dataset offers the "Write dataset description…" quick fix with its URN', async () => {
    const doc = await openFile('catalog/datasets.yml');
    const at = positionOf(doc, `urn: "${URNS.orders}"`, 'db.orders');
    const missing = await diagnosticAt(doc, at, 'missing-description');
    const actions = await codeActionsAt(doc, missing.range);
    const fix = actions.find((a) => a.title === 'Write dataset description…' && a.kind?.value === 'quickfix');
    assert.ok(fix, `code actions: ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.equal(fix.isPreferred, true);
    assert.equal(fix.command?.command, 'catalogLens.writeDatasetDescription');
    assert.deepEqual(fix.command?.arguments, [{ urn: URNS.orders }]);
  });

  test('an undocumented ML feature offers the "Write ML feature description…" quick fix with its URN', async () => {
    const urn = 'urn:li:mlFeature:(users_table,signup_days)';
    const doc = await openNewFile('pipelines/undocumented_feature.py', `SIGNUP_DAYS = "${urn}"\n`);
    const missing = await diagnosticAt(doc, positionOf(doc, urn, 'signup_days'), 'missing-description');
    const actions = await codeActionsAt(doc, missing.range);
    const fix = actions.find((a) => a.title === 'Write ML feature description…' && a.kind?.value === 'quickfix');
    assert.ok(fix, `code actions: ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.equal(fix.isPreferred, true);
    assert.equal(fix.command?.command, 'catalogLens.writeDescription');
    assert.deepEqual(fix.command?.arguments, [{ urn }]);
  });

  test('an env typo offers "Replace with PROD", which edits the env alone', async () => {
    const doc = await openNewFile(
      'pipelines/env_typo.py',
      'from datahub.emitter.mce_builder import make_dataset_urn\n\nUSERS = make_dataset_urn("hive", "db.users", "PRDO")\n',
    );
    const typo = await diagnosticAt(doc, positionOf(doc, '"PRDO"', 'PRDO'), 'unknown-env');
    const fix = (await codeActionsAt(doc, typo.range)).find((a) => a.title === 'Replace with PROD');
    assert.ok(fix?.edit, 'a "Replace with PROD" action with an edit');
    assert.equal(fix.isPreferred, true);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.equal(doc.lineAt(2).text, 'USERS = make_dataset_urn("hive", "db.users", "PROD")');
  });

  test('an ML feature the catalog does not hold offers to create it', async () => {
    const urn = 'urn:li:mlFeature:(users_table,ghost)';
    const doc = await openNewFile('pipelines/new_feature.py', `GHOST_FEATURE = "${urn}"\n`);
    const unknown = await diagnosticAt(doc, positionOf(doc, urn, 'ghost'), 'unknown-urn');
    const actions = await codeActionsAt(doc, unknown.range);
    const create = actions.find((a) => a.title === 'Create ML feature in catalog…');
    assert.ok(create, `code actions: ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.equal(create.kind?.value, 'quickfix');
    assert.equal(create.command?.command, 'catalogLens.createEntityInteractive');
    assert.deepEqual(create.command?.arguments, [{ urn }]);
  });

  test('"Quote the URN" edits a URN that a YAML flow comma cuts, and the diagnostic goes', async () => {
    const doc = await openNewFile('catalog/flow.yml', `tables: [${URNS.users}]\n`);
    const cut = await diagnosticAt(doc, positionOf(doc, URNS.users, 'db.users'), 'malformed-urn');
    assert.equal(doc.getText(cut.range), URNS.users);
    const quote = (await codeActionsAt(doc, cut.range)).find((a) => a.title === 'Quote the URN');
    assert.ok(quote?.edit, 'a "Quote the URN" action with an edit');
    assert.equal(await vscode.workspace.applyEdit(quote.edit), true);
    assert.equal(doc.getText(), `tables: ["${URNS.users}"]\n`);
    await waitForDiagnostics(
      doc.uri,
      (all) => !all.some((d) => codeOf(d) === 'malformed-urn'),
      'the malformed-urn diagnostic gone after the edit',
    );
  });

  test('completion inside a URN being typed offers the entity kinds, then the platforms', async () => {
    const doc = await openNewFile('pipelines/typing.py', 'A = "urn:li:\nB = "urn:li:dataset:(\n');
    const kinds = await completionLabels(doc, new vscode.Position(0, 'A = "urn:li:'.length));
    for (const kind of ['dataset', 'mlFeature', 'mlFeatureTable', 'mlModel', 'mlModelGroup']) {
      assert.ok(kinds.includes(kind), `${kind} among ${JSON.stringify(kinds.slice(0, 20))}`);
    }
    const platforms = await completionLabels(doc, new vscode.Position(1, 'B = "urn:li:dataset:('.length), '(');
    assert.ok(platforms.includes('urn:li:dataPlatform:hive'), JSON.stringify(platforms.slice(0, 20)));
  });

  test('completion after the platform lists the datasets of hive with their platform; the picked one writes the whole URN', async () => {
    // What the UI suite's complete-name scenario shows in the suggestions and the editor.
    const typed = 'ORDERS = "urn:li:dataset:(urn:li:dataPlatform:hive,db.or"';
    const doc = await openNewFile('pipelines/complete_names.py', `${typed}\n`);
    // Before the closing quote, after `db.or`.
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      new vscode.Position(0, typed.length - 1),
    );
    const labelOf = (i: vscode.CompletionItem): string => (typeof i.label === 'string' ? i.label : i.label.label);
    const orders = list.items.find((i) => labelOf(i) === 'db.orders');
    assert.ok(orders, `items: ${JSON.stringify(list.items.map(labelOf).slice(0, 20))}`);
    assert.match(`${labelOf(orders)} ${orders.detail ?? ''}`, /db\.orders.*hive/);
    // Picking it applies its text over its range (the insert range: editor.suggest.insertMode's default).
    const range = orders.range instanceof vscode.Range ? orders.range : orders.range?.inserting;
    const text = typeof orders.insertText === 'string' ? orders.insertText : orders.insertText?.value;
    assert.ok(range && text !== undefined, 'the item says what it writes where');
    const editor = await vscode.window.showTextDocument(doc);
    assert.ok(await editor.edit((b) => b.replace(range, text)));
    assert.equal(doc.getText(), `ORDERS = "${URNS.orders}"\n`);
  });

  test('Go to Symbol in Workspace: "users" answers db.users as users (db · hive · PROD) before users_table', async () => {
    // The extension starts on a YAML file; its first diagnostics say the server is running.
    const doc = await openFile('catalog/datasets.yml');
    await waitForDiagnostics(doc.uri, (all) => all.length > 0, 'the diagnostics of catalog/datasets.yml');
    const symbols = await vscode.commands.executeCommand<vscode.SymbolInformation[]>(
      'vscode.executeWorkspaceSymbolProvider',
      'users',
    );
    const shown = symbols.map((s) => `${s.name} (${s.containerName})`);
    // VS Code's Ctrl+T sorts by its fuzzy score of the name: the name that is the query comes first.
    const users = shown.indexOf('users (db · hive · PROD)');
    const table = shown.indexOf('users_table (feast)');
    assert.ok(users >= 0 && table >= 0, `symbols: ${JSON.stringify(shown)}`);
    assert.ok(users < table, `db.users before users_table: ${JSON.stringify(shown)}`);
    const found = symbols[users]!;
    assert.equal(found.kind, vscode.SymbolKind.Struct);
    // It opens the docs-as-code entry.
    assert.match(found.location.uri.path, /catalog\/datasets\.yml$/);
  });

  test("document links open an entity's page in the catalog", async () => {
    const doc = await openFile('catalog/datasets.yml');
    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', doc.uri);
    const users = links.find((l) => doc.getText(l.range) === URNS.users);
    assert.ok(users?.target, `links: ${JSON.stringify(links.map((l) => doc.getText(l.range)))}`);
    const target = users.target.toString(true);
    assert.ok(target.startsWith(`${catalogUrl()}/dataset/`), target);
    assert.match(target, /db\.users/);
  });

  test('the "used in N files" code lens runs a peek of the references at its URN', async () => {
    const doc = await openFile('catalog/datasets.yml');
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
    const used = lenses.find((l) => /^used in \d+ files?$/.test(l.command?.title ?? ''));
    assert.ok(used?.command, `lenses: ${JSON.stringify(lenses.map((l) => l.command?.title))}`);
    assert.equal(used.command.command, 'catalogLens.showReferences');
    const [arg] = (used.command.arguments ?? []) as Array<{ uri: string; position: vscode.Position }>;
    assert.equal(arg?.uri, doc.uri.toString());
    // The same places as the references VS Code finds there, and the command runs without an error.
    const position = new vscode.Position(arg.position.line, arg.position.character);
    const refs = await vscode.commands.executeCommand<vscode.Location[]>(
      'vscode.executeReferenceProvider',
      doc.uri,
      position,
    );
    const files = new Set(refs.map((r) => r.uri.toString()));
    files.delete(doc.uri.toString());
    assert.equal(used.command.title, `used in ${files.size} file${files.size === 1 ? '' : 's'}`);
    await vscode.commands.executeCommand(used.command.command, ...(used.command.arguments ?? []));
    await vscode.commands.executeCommand('closeReferenceSearch');
  });
});

async function completionLabels(
  doc: vscode.TextDocument,
  position: vscode.Position,
  trigger?: string,
): Promise<string[]> {
  const list = await vscode.commands.executeCommand<vscode.CompletionList>(
    'vscode.executeCompletionItemProvider',
    doc.uri,
    position,
    trigger,
  );
  return list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
}
