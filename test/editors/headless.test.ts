/**
 * Real editors, headless, against the real server and a real local catalog: Neovim's built-in LSP
 * client (test/editors/nvim/drive.lua) and Emacs' eglot (test/editors/emacs/drive.el). Each opens a
 * Python and a YAML file of a copy of the demo workspace (examples/), waits for the diagnostics,
 * hovers a dataset (its description appears) and an unknown URN (the hover says it is not in the
 * catalog), asks for the code actions of a YAML description that differs from the catalog's, runs
 * "Push description to catalog" (the server command catalogLens.setDatasetDescription, through
 * workspace/executeCommand), and the catalog then holds the new description. Each step's log is
 * printed.
 *
 * Code lenses are not run: the server's "used in N files" lens has an empty command id (a title
 * only); a client's "run code lens" would send that id to workspace/executeCommand.
 *
 * Skipped, naming the missing program, where an editor is not installed; CI (.ci/run) installs
 * Debian's neovim, emacs-nox and elpa-eglot, and there (CI=true) a missing editor fails the test.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { aspects } from '../support/catalogHttp';
import { SERVER_BUNDLE } from '../support/lspClient';
import { sampleCatalog, S, type Catalog } from '../support/fixture';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const HERE = path.join(ROOT, 'test', 'editors');
/** Each editor's whole run; it takes a few seconds. */
const RUN_TIMEOUT_MS = 90_000;

function installed(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

function skipUnless(program: string, pkg: string): string | false {
  return !installed(program) && process.env.CI !== 'true'
    ? `${program} is not installed (apt-get install ${pkg}); CI installs it`
    : false;
}

/** The demo workspace, with db.users described differently in its YAML than in the catalog. */
function demoCopy(editor: string): { root: string; description: string } {
  const root = mkdtempSync(path.join(tmpdir(), `catalog-lens-${editor}-`));
  cpSync(path.join(ROOT, 'examples'), root, { recursive: true });
  const yml = path.join(root, 'catalog', 'datasets.yml');
  const text = readFileSync(yml, 'utf8');
  const description = `One row per registered user, as written from ${editor}.`;
  const changed = text.replace('One row per registered user of the product.', description);
  assert.notEqual(changed, text, 'examples/catalog/datasets.yml no longer describes db.users as the test expects');
  writeFileSync(yml, changed);
  return { root, description };
}

interface Results {
  ok: boolean;
  error: string | null;
  version: string;
  python_codes: string[];
  yaml_codes: string[];
  hover_dataset: string;
  hover_unknown: string;
  actions: string[];
  command: string;
  write: { status: string; message: string };
  mismatch_gone: boolean;
}

/** Runs the editor, prints its step log, and answers what its driver wrote to `out`. */
async function drive(
  label: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  out: string,
): Promise<Results> {
  const started = Date.now();
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (log += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (log += s));
  const code = await new Promise<number | string>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve('timeout');
    }, RUN_TIMEOUT_MS);
    child.on('error', (e) => {
      clearTimeout(timer);
      log += `${command} did not start: ${e.message}\n`;
      resolve('not started');
    });
    child.on('exit', (c, signal) => {
      clearTimeout(timer);
      resolve(c ?? String(signal));
    });
  });
  const took = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `--- ${label}: ${command} ${args.join(' ')} (exit ${code}, ${took} s)\n${log.trimEnd()}\n--- end of ${label}`,
  );
  let results: Results;
  try {
    results = JSON.parse(readFileSync(out, 'utf8')) as Results;
  } catch {
    assert.fail(`${label} wrote no results (exit ${code}); its log:\n${log}`);
  }
  assert.equal(results.error, null, `${label} failed: ${results.error}\n${log}`);
  assert.ok(results.ok);
  return results;
}

/**
 * What every editor must have seen and done. `hovers` is the format the editor declares it shows:
 * Neovim lists Markdown; eglot without markdown-mode (Debian's emacs-nox) lists only plain text.
 */
async function check(
  results: Results,
  catalog: Catalog,
  description: string,
  hovers: 'markdown' | 'plaintext',
): Promise<void> {
  assert.ok(results.python_codes.includes('unknown-urn'), results.python_codes.join());
  assert.ok(results.python_codes.includes('malformed-urn'), results.python_codes.join());
  assert.ok(results.yaml_codes.includes('description-mismatch'), results.yaml_codes.join());
  assert.match(results.hover_dataset, /One row per registered user of the product/);
  if (hovers === 'markdown')
    assert.match(results.hover_unknown, /^\*\*Warning\*\*: Dataset db\\?\.ghost is not in the catalog/);
  else {
    assert.match(results.hover_unknown, /^Warning: Dataset db\.ghost is not in the catalog/);
    assert.doesNotMatch(`${results.hover_unknown}\n${results.hover_dataset}`, /\*\*|`|\]\(/);
  }
  assert.ok(results.actions.includes('Push description to catalog'), results.actions.join(' | '));
  assert.equal(results.command, 'catalogLens.setDatasetDescription');
  assert.equal(results.write.status, 'written', results.write.message);
  assert.ok(results.mismatch_gone, 'the description-mismatch diagnostic stayed after the write');
  const read = await aspects(catalog.url, S.users, ['editableDatasetProperties']);
  assert.equal(String(read['editableDatasetProperties']?.description).trim(), description);
}

describe('Neovim (built-in LSP client), headless', { skip: skipUnless('nvim', 'neovim') }, () => {
  let catalog: Catalog;
  let root: string;
  let description: string;
  before(async () => {
    catalog = await sampleCatalog();
    ({ root, description } = demoCopy('Neovim'));
  });
  after(async () => {
    await catalog?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test('diagnostics, hovers, and a code action that writes a description the catalog then holds', async () => {
    const out = path.join(root, '.nvim-results.json');
    const results = await drive(
      'Neovim',
      'nvim',
      ['--headless', '-n', '-i', 'NONE', '-u', path.join(HERE, 'nvim', 'drive.lua')],
      {
        CL_SERVER: JSON.stringify([process.execPath, SERVER_BUNDLE, '--stdio']),
        CL_URL: catalog.url,
        CL_ROOT: root,
        CL_OUT: out,
        XDG_CACHE_HOME: path.join(root, '.cache'),
        XDG_STATE_HOME: path.join(root, '.state'),
        XDG_CONFIG_HOME: path.join(root, '.config'),
        XDG_DATA_HOME: path.join(root, '.data'),
        CATALOG_LENS_TOKEN: '',
        DATAHUB_SKIP_CONFIG: 'true',
      },
      out,
    );
    await check(results, catalog, description, 'markdown');
  });
});

describe('Emacs (eglot), headless', { skip: skipUnless('emacs', 'emacs-nox elpa-eglot') }, () => {
  let catalog: Catalog;
  let root: string;
  let description: string;
  before(async () => {
    catalog = await sampleCatalog();
    ({ root, description } = demoCopy('Emacs'));
  });
  after(async () => {
    await catalog?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test('diagnostics, hovers, and a code action that writes a description the catalog then holds', async () => {
    const out = path.join(root, '.emacs-results.json');
    const results = await drive(
      'Emacs',
      'emacs',
      ['--batch', '-q', '-l', path.join(HERE, 'emacs', 'drive.el')],
      {
        CL_SERVER: JSON.stringify([process.execPath, SERVER_BUNDLE, '--stdio']),
        CL_URL: catalog.url,
        CL_ROOT: root,
        CL_OUT: out,
        HOME: root,
        CATALOG_LENS_TOKEN: '',
        DATAHUB_SKIP_CONFIG: 'true',
      },
      out,
    );
    await check(results, catalog, description, 'plaintext');
  });
});
