/**
 * What the local catalog (catalog/) and whoever starts it (the extension, `npm start`, the tests)
 * agree on: the line it prints once it listens, and the environment variable of its token.
 */

/** How the local catalog's banner starts; its URL follows: `catalog-lens catalog listening on http://127.0.0.1:9410`. */
export const LISTENING_PREFIX = 'catalog-lens catalog listening on ';

/** The first line the local catalog prints: whoever started it reads its URL there, and may stop it at once. */
export function listeningLine(url: string): string {
  return `${LISTENING_PREFIX}${url}`;
}

/** The listening line in the catalog's output: its URL (group 1) and port (group 2). */
export const LISTENING_RE = new RegExp(`${LISTENING_PREFIX}(http://[^\\s:]+:(\\d+))`);

/** The environment variable the local catalog reads its token from: never its command line, which `ps` shows. */
export const LOCAL_CATALOG_TOKEN_ENV = 'CATALOG_LENS_CATALOG_TOKEN';
