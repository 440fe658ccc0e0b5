/**
 * How a file is read and scanned for the workspace index and Check Workspace, in a worker thread
 * (scanWorker.ts) or on the main thread (scanPool.ts, when it has nothing else to do): its text by
 * workspace.ts readCappedSync (regular files only, no link followed, at most maxFileSize bytes;
 * for the index, a listed regular file by readListed.ts, the same read without its generator),
 * then for the index packed as workspaceIndex.ts packText packs it, for Check Workspace its scan.
 */
import type { Settings } from '../../../model/src/protocol';
import { scanText, scanTextForIndex } from '../pipeline/check';
import type { FileStamp } from '../pipeline/checkedFiles';
import type { ScanResult } from '../scan/types';
import { readCappedSync, type ReadFailure } from '../workspace';
import { readListedSync } from './readListed';
import { packText, type PackedOccurrences } from './workspaceIndex';

/** What a worker is asked to do with each file: pack it for the index, or scan it for Check Workspace. */
export type ScanMode = 'index' | 'check';

/**
 * A worker's result for one file: unreadable or passed over (`failed`), packed for the index, or
 * for Check Workspace its text and scan when the scan holds a URN (`quiet` when it holds none).
 */
export type WorkerResult =
  | { failed: ReadFailure }
  | { packed: PackedOccurrences }
  | { text: string; scan: ScanResult; stamp?: FileStamp }
  | { quiet: true };

/** A file to read: its path, language, settings, and whether the listing said it is a regular file. */
export interface FileToScan {
  path: string;
  languageId: string;
  settings: Settings;
  listedRegular: boolean;
}

/**
 * Reads and scans `files` in order, stopping after the file that takes the text read to
 * `maxBytes` (at least one file is done): a result each, and the typed arrays they hold (for a
 * worker to transfer rather than copy).
 */
export function scanFiles(
  mode: ScanMode,
  files: Iterable<FileToScan>,
  maxBytes: number,
): { results: WorkerResult[]; buffers: ArrayBuffer[] } {
  const results: WorkerResult[] = [];
  const buffers: ArrayBuffer[] = [];
  let bytes = 0;
  for (const f of files) {
    let stamp: FileStamp | undefined;
    const text =
      mode === 'index' && f.listedRegular
        ? readListedSync(f.path, f.settings.maxFileSize)
        : readCappedSync(f.path, f.settings.maxFileSize, {
            listedRegular: f.listedRegular,
            // What Check Workspace keeps of the file: the metadata of the descriptor it was read from.
            onStat: (st) => {
              if (mode === 'check') stamp = { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino };
            },
          });
    if (typeof text !== 'string') {
      results.push({ failed: text });
      continue;
    }
    if (mode === 'index') {
      const packed = packText(text, f.languageId, f.settings, scanTextForIndex);
      if (packed) {
        results.push({ packed });
        buffers.push(packed.entityOf.buffer as ArrayBuffer, packed.ranges.buffer as ArrayBuffer);
      } else results.push({ failed: {} });
    } else {
      const scan = scanText(text, f.languageId, f.settings);
      results.push(scan.occurrences.length > 0 ? { text, scan, ...(stamp ? { stamp } : {}) } : { quiet: true });
    }
    bytes += text.length;
    if (bytes >= maxBytes) break;
  }
  return { results, buffers };
}
