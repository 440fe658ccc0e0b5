/**
 * When the workspace index's build (server/src/index/indexService.ts) starts after `initialized`:
 * the folders' settings are asked while the editor creates the build's progress, not after it
 * answered (the two round trips at once), and the build then uses that one answer.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import type { WorkDoneProgressServerReporter } from 'vscode-languageserver';
import { DEFAULT_SETTINGS, type Settings } from '../../model/src/protocol';
import { createIndexService, type IndexServiceDeps } from '../../server/src/index/indexService';

test('the build asks its folders’ settings while the progress is created', async () => {
  const root = mkdtempSync(join(tmpdir(), 'catalog-lens-build-start-'));
  try {
    writeFileSync(join(root, 'job.py'), 'X = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)"\n');
    const folder = pathToFileURL(root).href;
    const events: string[] = [];
    // The settings as settings.ts keeps them: one answer per scope.
    const kept = new Map<string, Promise<Settings>>();
    let created: (p: WorkDoneProgressServerReporter | undefined) => void = () => undefined;
    const deps: IndexServiceDeps = {
      documents: { get: () => undefined, all: () => [] },
      openDocuments: {} as IndexServiceDeps['openDocuments'],
      settingsFor: (uri) => {
        events.push(`settings ${uri === folder ? 'folder' : String(uri)}`);
        let p = kept.get(uri ?? '');
        if (!p) kept.set(uri ?? '', (p = Promise.resolve(DEFAULT_SETTINGS)));
        return p;
      },
      folders: () => [folder, 'untitled:elsewhere'],
      log: () => undefined,
      progress: () => {
        events.push('progress asked');
        return new Promise((resolve) => (created = resolve));
      },
      registerWatcher: () => Promise.resolve(false),
      announce: () => undefined,
      pool: null,
    };
    const service = createIndexService(deps);
    service.initialized();
    // The progress is not created yet: the settings are asked already (a file: folder only).
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(events, ['settings folder', 'progress asked']);
    created(undefined);
    await service.ready();
    assert.equal(service.index.fileCount, 1);
    assert.equal(service.index.occurrenceCount, 1);
    // The build's own ask found the kept answer: one scope asked, so one request to the editor.
    assert.equal(kept.size, 1);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
