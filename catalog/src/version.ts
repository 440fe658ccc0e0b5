import { PRODUCT_VERSION } from '../../model/src/version';

/** The catalog's version, reported by GET /config: the product's (package.json). */
export const CATALOG_VERSION: string = PRODUCT_VERSION;
