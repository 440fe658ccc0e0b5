/** Ids of the commands the client itself registers for the palette (package.json contributes.commands). */
export const PaletteCommands = {
  setAccessToken: 'catalogLens.setAccessToken',
  clearAccessToken: 'catalogLens.clearAccessToken',
  configure: 'catalogLens.configure',
  startLocalCatalog: 'catalogLens.startLocalCatalog',
  checkWorkspace: 'catalogLens.runCheckWorkspace',
  refresh: 'catalogLens.runRefresh',
  openInCatalog: 'catalogLens.openInCatalog',
  restartServer: 'catalogLens.restartServer',
  showOutput: 'catalogLens.showOutput',
  search: 'catalogLens.search',
} as const;

/** Commands of the lineage view (client/src/lineageView.ts); `show` is also in the palette and behind the hover's lineage link. */
export const LineageCommands = {
  show: 'catalogLens.showLineage',
  openInCatalog: 'catalogLens.lineage.openInCatalog',
  insertUrn: 'catalogLens.lineage.insertUrn',
  copyUrn: 'catalogLens.lineage.copyUrn',
  refresh: 'catalogLens.lineage.refresh',
  showUsages: 'catalogLens.lineage.showUsages',
} as const;
