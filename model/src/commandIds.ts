/**
 * Every command id of Catalog Lens, grouped by who registers it:
 *
 * - `ServerCommands`: the language server's (`workspace/executeCommand`, listed in its
 *   `executeCommandProvider`). Each takes one object argument; model/src/protocol.ts types the
 *   arguments and results (`ServerCommandTypes`). None is contributed in package.json:
 *   vscode-languageclient registers them in the editor itself.
 * - `ClientCommands`: the VS Code extension's, every one contributed in package.json
 *   (`contributes.commands`): the palette, the interactive writes that code actions name, and the
 *   lineage view's rows.
 *
 * The naming rule: a constant's key is its id without `catalogLens.`, each further dot dropped and
 * the letter after it upper-cased (`catalogLens.checkWorkspace` is `ServerCommands.checkWorkspace`,
 * `catalogLens.lineage.copyUrn` is `ClientCommands.lineageCopyUrn`). The ids are public (users bind
 * keys to them, other extensions run them), so where a name reads oddly the id stays and the key
 * follows it: the palette's Check Workspace, which runs the server's `checkWorkspace`, is
 * `ClientCommands.runCheckWorkspace`. No id is in both groups, so no key is either.
 * test/model/commandIds.test.ts checks the rule and that `ClientCommands` is package.json's commands.
 */

/** Server commands (`workspace/executeCommand`); each takes one object argument. */
export const ServerCommands = {
  /** `{urn, description?, link?: {url, description}}` → WriteResult (a description, a link, or both) */
  setDatasetDescription: 'catalogLens.setDatasetDescription',
  /** `{urn, fieldPath, description}` → WriteResult */
  setColumnDescription: 'catalogLens.setColumnDescription',
  /** `{table, features: [urn…]}` → WriteResult */
  addFeaturesToTable: 'catalogLens.addFeaturesToTable',
  /** `{model, features: [urn…]}` → WriteResult */
  addFeaturesToModel: 'catalogLens.addFeaturesToModel',
  /** `{model, groups: [urn…]}` → WriteResult */
  addGroupsToModel: 'catalogLens.addGroupsToModel',
  /** `{table, features: [urn…]}` → WriteResult: the inverse of addFeaturesToTable (Undo) */
  removeFeaturesFromTable: 'catalogLens.removeFeaturesFromTable',
  /** `{model, features: [urn…]}` → WriteResult: the inverse of addFeaturesToModel (Undo) */
  removeFeaturesFromModel: 'catalogLens.removeFeaturesFromModel',
  /** `{model, groups: [urn…]}` → WriteResult: the inverse of addGroupsToModel (Undo) */
  removeGroupsFromModel: 'catalogLens.removeGroupsFromModel',
  /** `{urn, properties, overwrite?}` → WriteResult (ML kinds only) */
  createEntity: 'catalogLens.createEntity',
  /** `{urn, description}` → WriteResult: the description of an ML feature, feature table, model or model group. */
  setMlDescription: 'catalogLens.setMlDescription',
  /** `{urn, description}` → WriteResult: the description of a glossary term, glossary node (term group), data product or structured property. */
  setDescription: 'catalogLens.setDescription',
  /** `{urn, tags: [urn…], fieldPath?}` → WriteResult: appends tags to a dataset (or one of its columns), through DataHub's addTags */
  addTags: 'catalogLens.addTags',
  /** `{urn, tags: [urn…], fieldPath?}` → WriteResult: the inverse of addTags (Undo), through removeTag */
  removeTags: 'catalogLens.removeTags',
  /** `{urn, terms: [urn…], fieldPath?}` → WriteResult: appends glossary terms to a dataset (or one of its columns), through addTerms */
  addTerms: 'catalogLens.addTerms',
  /** `{urn, terms: [urn…], fieldPath?}` → WriteResult: the inverse of addTerms (Undo), through removeTerm */
  removeTerms: 'catalogLens.removeTerms',
  /** `{urn, owners: [urn…], ownershipType}` → WriteResult: appends owners of one ownership type to a dataset, through addOwners */
  addOwners: 'catalogLens.addOwners',
  /** `{urn, owners: [urn…], ownershipType}` → WriteResult: the inverse of addOwners (Undo), through removeOwner of that type */
  removeOwners: 'catalogLens.removeOwners',
  /** `{}` → CheckWorkspaceResult: scan every matching file of the workspace folders. */
  checkWorkspace: 'catalogLens.checkWorkspace',
  /** `{}` → RefreshResult: drop the cache and re-diagnose open documents. */
  refresh: 'catalogLens.refresh',
  /** `{uri?}` → ConnectionTestResult: ask the catalog now (a connection test). */
  testConnection: 'catalogLens.testConnection',
  /**
   * `{uri, entry?}` → PushDataHubYamlResult: the writes a push of a DataHub YAML file makes,
   * listed to the user with `window/showMessageRequest` and run once they say so (other editors).
   */
  pushDataHubYaml: 'catalogLens.pushDataHubYaml',
} as const;

/** The VS Code extension's commands (package.json `contributes.commands`). */
export const ClientCommands = {
  // The palette.
  configure: 'catalogLens.configure',
  setAccessToken: 'catalogLens.setAccessToken',
  clearAccessToken: 'catalogLens.clearAccessToken',
  startLocalCatalog: 'catalogLens.startLocalCatalog',
  /** Runs the server's checkWorkspace with progress, then offers the Problems view. */
  runCheckWorkspace: 'catalogLens.runCheckWorkspace',
  /** Runs the server's refresh. */
  runRefresh: 'catalogLens.runRefresh',
  openInCatalog: 'catalogLens.openInCatalog',
  restartServer: 'catalogLens.restartServer',
  showOutput: 'catalogLens.showOutput',
  /** Asks the catalog now (the status item's click when it is unreachable): Retry, Show Log on failure. */
  retryConnection: 'catalogLens.retryConnection',
  /** Restricted Mode only: opens VS Code's Workspace Trust editor (writes need a trusted workspace). */
  manageTrust: 'catalogLens.manageTrust',
  search: 'catalogLens.search',
  /** `{urn}` or the URN under the cursor: the lineage view; also behind a hover's lineage link. */
  showLineage: 'catalogLens.showLineage',
  /** `{uri, position}`: peeks the references of the URN there (the "used in N files" code lens). */
  showReferences: 'catalogLens.showReferences',
  /** `{uri?, entry?}`: a diff view of a DataHub YAML file (or one entry) against the file as the catalog would have it. */
  compareYamlWithCatalog: 'catalogLens.compareYamlWithCatalog',
  /** `{uri?, entry?}`: the catalog's values into a DataHub YAML file, as one edit through the refactor preview. */
  pullYamlFromCatalog: 'catalogLens.pullYamlFromCatalog',

  // Interactive writes (CLIENT_WRITE_COMMANDS): code actions name them when the client says it
  // has them (`initializationOptions.clientCommands: true`). They ask the user for text or a
  // target, then call the server command. Each takes one object argument.
  /** `{urn, current?}` → asks for the text, then setDatasetDescription */
  writeDatasetDescription: 'catalogLens.writeDatasetDescription',
  /** `{urn, fieldPath, current?}` → asks for the text, then setColumnDescription */
  writeColumnDescription: 'catalogLens.writeColumnDescription',
  /** `{feature}` → picks a feature table, then addFeaturesToTable */
  addFeatureToTable: 'catalogLens.addFeatureToTable',
  /** `{feature}` → picks a model, then addFeaturesToModel */
  addFeatureToModel: 'catalogLens.addFeatureToModel',
  /** `{model}` → picks a model group, then addGroupsToModel */
  addGroupToModel: 'catalogLens.addGroupToModel',
  /** `{urn}` → asks for a description, then createEntity */
  createEntityInteractive: 'catalogLens.createEntityInteractive',
  /** `{urn, current?}` → asks for the text, then setMlDescription (ML kinds) */
  writeDescription: 'catalogLens.writeDescription',
  /** `{table?}` → picks a feature table and features it lists, then removeFeaturesFromTable */
  removeFeatureFromTable: 'catalogLens.removeFeatureFromTable',
  /** `{model?}` → picks a model and features it lists, then removeFeaturesFromModel */
  removeFeatureFromModel: 'catalogLens.removeFeatureFromModel',
  /** `{model?}` → picks a model and groups it lists, then removeGroupsFromModel */
  removeGroupFromModel: 'catalogLens.removeGroupFromModel',
  /** `{uri?, entry?}` → lists the writes a push of a DataHub YAML file makes, asks once, then each write */
  pushYamlToCatalog: 'catalogLens.pushYamlToCatalog',

  // The lineage view's: each row command takes a row or `{urn}` (the search picker's buttons run two).
  lineageOpenInCatalog: 'catalogLens.lineage.openInCatalog',
  lineageInsertUrn: 'catalogLens.lineage.insertUrn',
  lineageCopyUrn: 'catalogLens.lineage.copyUrn',
  lineageShowUsages: 'catalogLens.lineage.showUsages',
  /** The view's title button: reads the root's lineage again. */
  lineageRefresh: 'catalogLens.lineage.refresh',
} as const;

export type ServerCommandId = (typeof ServerCommands)[keyof typeof ServerCommands];
export type ClientCommandId = (typeof ClientCommands)[keyof typeof ClientCommands];

/** The client commands that write to the catalog (through a server command): hidden where the workspace is not trusted. */
export const CLIENT_WRITE_COMMANDS: readonly ClientCommandId[] = [
  ClientCommands.writeDatasetDescription,
  ClientCommands.writeColumnDescription,
  ClientCommands.addFeatureToTable,
  ClientCommands.addFeatureToModel,
  ClientCommands.addGroupToModel,
  ClientCommands.createEntityInteractive,
  ClientCommands.writeDescription,
  ClientCommands.removeFeatureFromTable,
  ClientCommands.removeFeatureFromModel,
  ClientCommands.removeGroupFromModel,
  ClientCommands.pushYamlToCatalog,
];
