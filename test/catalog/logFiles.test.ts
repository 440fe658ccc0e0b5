/**
 * The log files `npm start` writes into `.catalog-lens/` (catalog.log, code-server.log) are the
 * owner's only: scripts/privateLog.mjs creates them 0600 whatever
 * the umask and narrows an older run's 0644 file before anything is written; start.mjs opens every
 * log through it.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { WriteStream } from 'node:fs';

const ROOT = path.join(__dirname, '..', '..', '..');

interface PrivateLog {
  openPrivateLog(file: string): WriteStream;
}

function mode(file: string): string {
  return (statSync(file).mode & 0o777).toString(8);
}

function written(stream: WriteStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.once('error', reject);
    stream.end(text, () => resolve());
  });
}

describe('log files of npm start', () => {
  let dir: string;
  let lib: PrivateLog;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'catalog-lens-logs-'));
    lib = (await import(pathToFileURL(path.join(ROOT, 'scripts', 'privateLog.mjs')).href)) as PrivateLog;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a new log is created 0600, also under a umask that would leave it readable by all', async () => {
    const file = path.join(dir, 'catalog.log');
    const old = process.umask(0);
    let stream: WriteStream;
    try {
      stream = lib.openPrivateLog(file);
    } finally {
      process.umask(old);
    }
    assert.equal(mode(file), '600');
    await written(stream, 'listening\n');
    assert.equal(readFileSync(file, 'utf8'), 'listening\n');
    assert.equal(mode(file), '600');
  });

  test("an older run's 0644 log is narrowed to 0600 and started afresh", async () => {
    const file = path.join(dir, 'code-server.log');
    writeFileSync(file, 'the last run\n');
    chmodSync(file, 0o644);
    const stream = lib.openPrivateLog(file);
    assert.equal(mode(file), '600');
    await written(stream, 'this run\n');
    assert.equal(readFileSync(file, 'utf8'), 'this run\n');
  });

  test('scripts/start.mjs opens its logs (catalog.log, code-server.log) through openPrivateLog only', () => {
    const start = readFileSync(path.join(ROOT, 'scripts', 'start.mjs'), 'utf8');
    assert.match(start, /openPrivateLog\(logFile\)/);
    assert.doesNotMatch(start, /createWriteStream\(/, 'a log opened with the umask’s mode');
    assert.match(start, /logFile: join\(stateDir, 'catalog\.log'\)/);
    assert.match(start, /logFile: join\(stateDir, 'code-server\.log'\)/);
  });
});
