/**
 * What the launchers (launch/*.ts, in Node) tell the in-host suite (suite/*.ts, in VS Code's
 * extension host) through the editor's environment, which the extension host inherits.
 */
export const INHOST_ENV = {
  /** The local catalog the launcher started; catalogLens.url names it too. */
  catalogUrl: 'CATALOG_LENS_INHOST_CATALOG_URL',
  /** The file the suite writes its TAP report to; the launcher prints it as it grows. */
  report: 'CATALOG_LENS_INHOST_REPORT',
  /** A JSON array of test name patterns (node:test's testNamePatterns); unset runs everything. */
  namePatterns: 'CATALOG_LENS_INHOST_NAME_PATTERNS',
} as const;
