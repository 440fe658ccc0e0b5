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
} as const;
