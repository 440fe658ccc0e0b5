/**
 * A worker thread of the scan pool (scanPool.ts): reads files of the workspace and scans them, and
 * sends back what the main thread keeps. The reads are workspace.ts readCappedSync, as on the main
 * thread (regular files only, no link followed, at most maxFileSize bytes); the index's files are
 * packed as workspaceIndex.ts packText packs them (typed arrays and strings), Check Workspace's
 * files as their text and scan.
 *
 * A request names a range of the pool's files; the worker stops after `maxBytes` of text read or
 * at the range's end, and answers with the results of the files it did (at least one).
 */
import { parentPort } from 'node:worker_threads';
import type { Settings } from '../../../model/src/protocol';
import { scanText } from '../pipeline/check';
import { readCappedSync } from '../workspace';
import { packText } from './workspaceIndex';
import type { WorkerAnswer, WorkerRequest, WorkerResult } from './scanPool';

const settingsById = new Map<number, Settings>();

function handle(request: WorkerRequest): { answer: WorkerAnswer; transfer: ArrayBuffer[] } {
  for (const [id, s] of request.settings) settingsById.set(id, s);
  const results: WorkerResult[] = [];
  const transfer: ArrayBuffer[] = [];
  let bytes = 0;
  for (const f of request.files) {
    const settings = settingsById.get(f.settings)!;
    const text = readCappedSync(f.path, settings.maxFileSize, { listedRegular: f.listedRegular });
    if (typeof text !== 'string') {
      results.push({ failed: text });
      continue;
    }
    if (request.mode === 'index') {
      const packed = packText(text, f.languageId, settings, scanText);
      if (packed) {
        results.push({ packed });
        transfer.push(packed.entityOf.buffer as ArrayBuffer, packed.ranges.buffer as ArrayBuffer);
      } else results.push({ failed: {} });
    } else {
      const scan = scanText(text, f.languageId, settings);
      results.push(scan.occurrences.length > 0 ? { text, scan } : { quiet: true });
    }
    bytes += text.length;
    if (bytes >= request.maxBytes) break;
  }
  return { answer: { id: request.id, results }, transfer };
}

parentPort?.on('message', (request: WorkerRequest) => {
  const { answer, transfer } = handle(request);
  parentPort!.postMessage(answer, transfer);
});
