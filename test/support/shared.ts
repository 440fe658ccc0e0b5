/**
 * `../shared` beside the repository: the team's fixtures (DataHub's aspect payloads and GraphQL
 * SDL) and spec, which the repository does not hold. A test that needs it skips when it is missing,
 * through `needsShared`, so that every such skip gives a reason starting "needs ../shared/": CI
 * (scripts/ciSummary.mjs, from .ci/run) fails when one skipped while ../shared is there.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The repository root: the nearest folder above this file with a package.json (tests run from out/). */
function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${__dirname}`);
    dir = up;
  }
  return dir;
}

export const REPO_ROOT = repoRoot();
export const SHARED_DIR = resolve(REPO_ROOT, '..', 'shared');

/** The skip reason when `../shared/<sub>` is missing, else false: for a `skip` option or `t.skip`. */
export function needsShared(sub: string): string | false {
  const dir = join(SHARED_DIR, sub);
  return existsSync(dir) ? false : `needs ../shared/${sub} (not found at ${dir})`;
}
