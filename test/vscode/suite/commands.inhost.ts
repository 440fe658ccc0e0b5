/**
 * Catalog Lens's commands run through `vscode.commands.executeCommand`, end to end: the quick
 * fixes' commands with the arguments the server gave them, the palette commands, and what each
 * changed, read back from the local catalog over HTTP or from what the editor shows next.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as vscode from 'vscode';
import {
  catalogGraphql,
  catalogDiagnostics,
  codeActionsAt,
  codeOf,
  diagnosticAt,
  editedDatasetDescription,
  EXTENSION_ID,
  hoverAt,
  openFile,
  openNewFile,
  positionOf,
  runActionCommand,
  URNS,
  waitForDiagnostics,
  workspaceUri,
} from './support';

/** What a server write command answers (model/src/protocol.ts WriteResult). */
interface WriteResult {
  status: 'written' | 'unchanged' | 'failed';
  message: string;
}

describe('commands through the VS Code API', () => {
  test('every command the manifest contributes is registered once the extension is active', async () => {
    await openFile('catalog/datasets.yml');
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is loaded`);
    await extension.activate();
    const manifest = extension.packageJSON as { contributes: { commands: { command: string }[] } };
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = manifest.contributes.commands.map((c) => c.command).filter((id) => !registered.has(id));
    assert.deepEqual(missing, []);
    // The server's commands come through the language client (executeCommandProvider).
    for (const id of [
      'catalogLens.setDatasetDescription',
      'catalogLens.addFeaturesToTable',
      'catalogLens.createEntity',
    ]) {
      assert.ok(registered.has(id), `${id} is registered`);
    }
  });

  test('"Push description to catalog" writes the YAML description to the catalog', async () => {
    const text = 'Clicks of the web and mobile apps, as the docs in this repository put it.';
    const doc = await openNewFile(
      'catalog/clicks_docs.yml',
      `datasets:\n  - urn: ${URNS.clicks}\n    description: ${text}\n`,
    );
    const mismatch = await diagnosticAt(doc, positionOf(doc, 'description: ', text), 'description-mismatch');
    const push = (await codeActionsAt(doc, mismatch.range)).find((a) => a.title === 'Push description to catalog');
    assert.ok(push, 'a "Push description to catalog" quick fix');
    assert.notEqual(await editedDatasetDescription(URNS.clicks), text);
    const result = await runActionCommand<WriteResult>(push);
    assert.equal(result.status, 'written', result.message);
    assert.equal(await editedDatasetDescription(URNS.clicks), text);
    // The write re-checks open documents: the YAML and the catalog agree now.
    await waitForDiagnostics(
      doc.uri,
      (all) => !all.some((d) => codeOf(d) === 'description-mismatch'),
      'the description-mismatch diagnostic gone after the push',
    );
  });

  test('"Append to catalog" adds the feature the YAML lists to the feature table', async () => {
    const doc = await openFile('catalog/feature_tables.yml');
    const listed = await diagnosticAt(doc, positionOf(doc, URNS.signupDays, 'signup_days'), 'missing-list-member');
    const append = (await codeActionsAt(doc, listed.range)).find((a) => a.title === 'Append to catalog');
    assert.ok(append, 'an "Append to catalog" quick fix');
    assert.ok(!(await tableFeatures(URNS.usersTable)).includes(URNS.signupDays), 'the sample table lacks signup_days');
    const result = await runActionCommand<WriteResult>(append);
    assert.equal(result.status, 'written', result.message);
    assert.ok((await tableFeatures(URNS.usersTable)).includes(URNS.signupDays));
    await waitForDiagnostics(
      doc.uri,
      (all) => !all.some((d) => codeOf(d) === 'missing-list-member' && d.range.intersection(listed.range)),
      'the missing-list-member diagnostic gone after the append',
    );
  });

  test('a write VS Code runs answers its result while its message (with Retry on a failure) is still open', async () => {
    await openFile('catalog/feature_tables.yml');
    // Nobody answers the notifications here: a write that waited for its message would never return.
    const failed = await vscode.commands.executeCommand<WriteResult & { kind?: string }>(
      'catalogLens.addFeaturesToTable',
      { table: URNS.usersTable, features: ['urn:li:mlFeature:(users_table,not_in_the_catalog)'] },
    );
    assert.equal(failed.status, 'failed', failed.message);
    assert.equal(failed.kind, 'notFound');
    assert.match(failed.message, /not in the catalog, create it first/);
    const unchanged = await vscode.commands.executeCommand<WriteResult>('catalogLens.addFeaturesToTable', {
      table: URNS.usersTable,
      features: [URNS.age],
    });
    assert.equal(unchanged.status, 'unchanged', unchanged.message);
    assert.match(unchanged.message, /Nothing written to .*users_table: every feature is already there/);
  });

  test('a server command runs with its arguments: createEntity puts a new ML feature in the catalog', async () => {
    const urn = 'urn:li:mlFeature:(users_table,created_in_host)';
    const doc = await openNewFile('pipelines/created.py', `CREATED = "${urn}"\n`);
    await diagnosticAt(doc, positionOf(doc, urn, 'created_in_host'), 'unknown-urn');
    const result = await vscode.commands.executeCommand<WriteResult>('catalogLens.createEntity', {
      urn,
      properties: { description: 'Made by the in-host suite.' },
    });
    assert.equal(result.status, 'written', result.message);
    const data = await catalogGraphql<{ mlFeature: { properties: { description: string | null } | null } | null }>(
      'query ($urn: String!) { mlFeature(urn: $urn) { properties { description } } }',
      { urn },
    );
    assert.equal(data.mlFeature?.properties?.description, 'Made by the in-host suite.');
    await waitForDiagnostics(
      doc.uri,
      (all) => !all.some((d) => codeOf(d) === 'unknown-urn'),
      'the unknown-urn diagnostic gone once the feature exists',
    );
    assert.match(await hoverAt(doc, positionOf(doc, urn, 'created_in_host')), /Made by the in-host suite\./);
  });

  test('"Catalog Lens: Refresh" drops what the catalog answered: a description changed elsewhere shows after it', async (t) => {
    const doc = await openNewFile('pipelines/refresh.py', `USERS = "${URNS.users}"\n`);
    const at = positionOf(doc, URNS.users, 'db.users');
    // The first column: the hover lists it whatever else it shows (owners, lineage … take rows since issue 17).
    const before = 'Primary key of the user.';
    const setUserId = (d: string): Promise<unknown> =>
      catalogGraphql(
        'mutation ($urn: String!, $d: String!) { updateDescription(input: { resourceUrn: $urn, subResourceType: DATASET_FIELD, subResource: "user_id", description: $d }) }',
        { urn: URNS.users, d },
      );
    const first = await hoverAt(doc, at);
    assert.ok(first.includes(before), `the hover lists the user_id column: ${first}`);
    // A colleague edits a column description in the catalog's UI (put back after the test).
    const changed = 'Primary key of the user, never reused.';
    t.after(async () => {
      await setUserId(before);
      await vscode.commands.executeCommand('catalogLens.runRefresh');
    });
    await setUserId(changed);
    // Within catalogLens.cache.ttlSeconds (300 s) the editor keeps what it read …
    const cached = await hoverAt(doc, at);
    assert.ok(cached.includes(before) && !cached.includes(changed), 'the cached description until Refresh');
    await vscode.commands.executeCommand('catalogLens.runRefresh');
    // … and reads the catalog again after Refresh.
    const after = await hoverAt(doc, at);
    assert.ok(after.includes(changed), after);
  });

  test('"Catalog Lens: Check Workspace" reports the problems of files no editor has open', async () => {
    // No test opens models.yml: only the workspace check can have diagnosed it.
    const models = workspaceUri('catalog/models.yml');
    assert.ok(
      !vscode.workspace.textDocuments.some((d) => d.uri.toString() === models.toString()),
      'models.yml is not open',
    );
    assert.deepEqual(catalogDiagnostics(models), []);
    // The command ends when its result notification is closed; the diagnostics come before that.
    void vscode.commands.executeCommand('catalogLens.runCheckWorkspace');
    const ds = await waitForDiagnostics(
      models,
      (all) => all.some((d) => codeOf(d) === 'missing-list-member'),
      "the workspace check's diagnostics of models.yml",
    );
    const missing = ds.find((d) => codeOf(d) === 'missing-list-member')!;
    assert.match(missing.message, /churn-model-v3/);
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(models));
    const lines = text.split('\n');
    assert.equal(
      lines[missing.range.start.line]!.slice(missing.range.start.character, missing.range.end.character),
      'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,ltv-model,PROD)',
    );
  });
});

async function tableFeatures(urn: string): Promise<string[]> {
  const data = await catalogGraphql<{
    mlFeatureTable: { properties: { mlFeatures: { urn: string }[] | null } | null } | null;
  }>('query ($urn: String!) { mlFeatureTable(urn: $urn) { properties { mlFeatures { urn } } } }', { urn });
  return (data.mlFeatureTable?.properties?.mlFeatures ?? []).map((f) => f.urn);
}
