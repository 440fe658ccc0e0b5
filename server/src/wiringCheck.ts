/**
 * The check, before the `initialize` result, that the server's second bundle can be loaded: used by
 * server.ts (dist/server-core.js) and, before the LSP library is loaded, by dist/server.js
 * (earlyInitialize.ts). Free of the library.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';

/**
 * In the server's first bundle, written in by scripts/build.mjs: the wiring's bundle beside it and
 * the build both were made by. Not defined when the wiring is a module of this process (out/).
 */
declare const CATALOG_LENS_WIRING_FILE: string | undefined;
/** The first line of that bundle, which names the build (scripts/build.mjs). */
declare const CATALOG_LENS_BUILD_LINE: string;

/**
 * Why the wiring's bundle cannot be loaded, told before the `initialize` result (an editor shows
 * an error answer to the user): the file is not beside this bundle, or its first line names
 * another build. A cheap check (the file's first bytes), made only when the wiring is a file of
 * its own.
 */
export function wiringProblem(dir: string = __dirname): string | undefined {
  if (typeof CATALOG_LENS_WIRING_FILE !== 'string') return undefined;
  return bundleProblem(join(dir, CATALOG_LENS_WIRING_FILE));
}

/**
 * In dist/server.js only (scripts/build.mjs): the server's first bundle beside it, which makes the
 * connection that takes over after an early `initialize` result (earlyInitialize.ts).
 */
declare const CATALOG_LENS_CORE_FILE: string | undefined;

/**
 * Why dist/server.js cannot answer `initialize` for the bundles beside it: the first bundle or the
 * wiring's is missing or from another build (a half-updated install). The answer is then left to
 * the first bundle, which fails as it would have (its own check, or its load).
 */
export function bundlesProblem(dir: string = __dirname): string | undefined {
  if (typeof CATALOG_LENS_CORE_FILE === 'string') {
    const core = bundleProblem(join(dir, CATALOG_LENS_CORE_FILE));
    if (core !== undefined) return core;
  }
  return wiringProblem(dir);
}

/** Why `file` is not a bundle of this build: missing, unreadable, or its first line names another build. */
function bundleProblem(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    return `catalog-lens-server: ${file} is missing (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); reinstall the extension`;
  }
  const head = Buffer.alloc(CATALOG_LENS_BUILD_LINE.length);
  try {
    readSync(fd, head, 0, head.length, 0);
  } catch (e) {
    return `catalog-lens-server: ${file} cannot be read (${(e as Error).message}); reinstall the extension`;
  } finally {
    closeSync(fd);
  }
  if (head.toString('latin1') !== CATALOG_LENS_BUILD_LINE)
    return `catalog-lens-server: ${file} is from another build than ${__filename}; reinstall the extension`;
  return undefined;
}
