/**
 * The write tools' input as write commands (agentWriteOf), and what the editor asks the user to
 * confirm before one runs (agentWritePreparation).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentWriteOf, agentWritePreparation } from '../../model/src/agentWrites';
import { ServerCommands } from '../../model/src/commandIds';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const TABLE = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users_table)';
const MODEL = 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn-model-v3,PROD)';
const AGE = 'urn:li:mlFeature:(users_table,age)';
const GROUP = 'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn-model,PROD)';

test('set_description: a dataset, a column, an ML entity, each its own command', () => {
  assert.deepEqual(agentWriteOf('set_description', { urn: USERS, description: 'd' }), {
    command: ServerCommands.setDatasetDescription,
    arg: { urn: USERS, description: 'd' },
  });
  assert.deepEqual(agentWriteOf('set_description', { urn: USERS, column: 'email', description: 'd' }), {
    command: ServerCommands.setColumnDescription,
    arg: { urn: USERS, fieldPath: 'email', description: 'd' },
  });
  assert.deepEqual(agentWriteOf('set_description', { urn: AGE, description: 'd' }), {
    command: ServerCommands.setMlDescription,
    arg: { urn: AGE, description: 'd' },
  });
  assert.match(
    (agentWriteOf('set_description', { urn: 'urn:li:corpuser:jdoe', description: 'd' }) as { error: string }).error,
    /not a corpuser/,
  );
});

test('add_link: the dataset command with a link and no description', () => {
  assert.deepEqual(agentWriteOf('add_link', { urn: USERS, url: 'https://wiki.example/u', label: 'Runbook' }), {
    command: ServerCommands.setDatasetDescription,
    arg: { urn: USERS, link: { url: 'https://wiki.example/u', description: 'Runbook' } },
  });
  assert.ok('error' in agentWriteOf('add_link', { urn: AGE, url: 'https://wiki.example/u' }));
  assert.ok('error' in agentWriteOf('add_link', { urn: USERS, url: 'javascript:alert(1)' }));
});

test('append_members: features to a table or a model, groups to a model; one list per call', () => {
  assert.deepEqual(agentWriteOf('append_members', { urn: TABLE, features: [AGE] }), {
    command: ServerCommands.addFeaturesToTable,
    arg: { table: TABLE, features: [AGE] },
  });
  assert.deepEqual(agentWriteOf('append_members', { urn: MODEL, features: [AGE] }), {
    command: ServerCommands.addFeaturesToModel,
    arg: { model: MODEL, features: [AGE] },
  });
  assert.deepEqual(agentWriteOf('append_members', { urn: MODEL, groups: [GROUP] }), {
    command: ServerCommands.addGroupsToModel,
    arg: { model: MODEL, groups: [GROUP] },
  });
  assert.ok('error' in agentWriteOf('append_members', { urn: TABLE, groups: [GROUP] }));
  assert.ok('error' in agentWriteOf('append_members', { urn: MODEL, features: [AGE], groups: [GROUP] }));
  assert.ok('error' in agentWriteOf('append_members', { urn: MODEL }));
  assert.ok('error' in agentWriteOf('append_members', { urn: USERS, features: [AGE] }));
});

test('the confirmation names what will be written; input that asks for no write gets none', () => {
  const p = agentWritePreparation('set_description', { urn: USERS, description: 'Every user.' });
  assert.equal(p.confirmationMessages?.title, 'Write to the DataHub catalog?');
  assert.match(
    p.confirmationMessages.message,
    /Set the description of urn:li:dataset:.*db\.users.* to:\n\nEvery user\./s,
  );
  assert.match(p.invocationMessage, /^Catalog Lens: Set the description of urn:li:dataset/);
  const links = agentWritePreparation('add_link', { urn: USERS, url: 'https://wiki.example/u' });
  assert.match(links.confirmationMessages!.message, /Add the link https:\/\/wiki\.example\/u to urn:li:dataset/);
  const members = agentWritePreparation('append_members', { urn: TABLE, features: [AGE] });
  assert.match(
    members.confirmationMessages!.message,
    /Add 1 feature\(s\) to urn:li:mlFeatureTable.*: urn:li:mlFeature:\(users_table,age\)/,
  );
  const bad = agentWritePreparation('append_members', { urn: TABLE });
  assert.equal(bad.confirmationMessages, undefined);
  assert.match(bad.invocationMessage, /not run/);
});
