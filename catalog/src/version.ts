/** The catalog's version, reported by GET /config (kept in step with package.json). */
export const CATALOG_VERSION = '0.1.0';
