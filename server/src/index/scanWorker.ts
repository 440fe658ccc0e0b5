/**
 * A worker thread of the scan pool (scanPool.ts): reads files of the workspace and scans them, and
 * sends back what the main thread keeps. The reads are workspace.ts readCappedSync, as on the main
 * thread (scanFiles.ts: regular files only, no link followed, at most maxFileSize bytes); the
 * index's files are packed as workspaceIndex.ts packText packs them (typed arrays and strings),
 * Check Workspace's files as their text and scan.
 *
 * A request names a range of the pool's files; the worker stops after `maxBytes` of text read or
 * at the range's end, and answers with the results of the files it did (at least one).
 */
import { parentPort } from 'node:worker_threads';
import type { Settings } from '../../../model/src/protocol';
import { scanFiles } from './scanFiles';
import type { WorkerAnswer, WorkerRequest } from './scanPool';

const settingsById = new Map<number, Settings>();

parentPort?.on('message', (request: WorkerRequest) => {
  for (const [id, s] of request.settings) settingsById.set(id, s);
  const files = request.files.map((f) => ({ ...f, settings: settingsById.get(f.settings)! }));
  const { results, buffers } = scanFiles(request.mode, files, request.maxBytes);
  const answer: WorkerAnswer = { id: request.id, results };
  parentPort!.postMessage(answer, buffers);
});
