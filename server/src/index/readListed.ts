/**
 * The workspace index's read of a listed file: workspace.ts readCappedSync with `listedRegular`
 * (the directory listing said the entry is a regular file, so no stat before the open), as
 * straight-line calls instead of readSteps' generator, into one buffer reused from file to file.
 * The same answers for every file (test/server/readListed.test.ts holds the two together): the
 * open refuses a link and never blocks, the stat of the open descriptor passes over what is not a
 * regular file or is larger than `maxSize` bytes, at most `maxSize` + 1 bytes are read, and a
 * short read that reaches the stat's size is the end.
 */
import * as fs from 'node:fs';
import { notRegular, readError, type ReadFailure } from '../workspace';

/** Read only, never waiting (a FIFO put in the file's place), never through a symbolic link. */
const FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0);

/** The buffer a file is read into when it fits (most of a codebase's files); its text is copied out. */
const SCRATCH_BYTES = 64 << 10;
let scratch: Buffer | undefined;

/** The text of the listed regular file `path`, or why not (readCappedSync's answer). */
export function readListedSync(path: string, maxSize: number): string | ReadFailure {
  let fd: number;
  try {
    fd = fs.openSync(path, FLAGS);
  } catch (e) {
    return readError(e);
  }
  let text: string | ReadFailure;
  try {
    text = readOpen(fd, maxSize);
  } catch (e) {
    text = readError(e);
  }
  try {
    fs.closeSync(fd);
  } catch (e) {
    return readError(e);
  }
  return text;
}

function readOpen(fd: number, maxSize: number): string | ReadFailure {
  const st = fs.fstatSync(fd);
  if (!st.isFile()) return notRegular(st);
  if (st.size > maxSize) return { tooLarge: true };
  const cap = maxSize + 1;
  // `capacity` is what readSteps' buffer would hold; the bytes are in `buffer`, which may be larger.
  let capacity = Math.min(st.size + 1, cap);
  let buffer =
    capacity <= SCRATCH_BYTES ? (scratch ??= Buffer.allocUnsafe(SCRATCH_BYTES)) : Buffer.allocUnsafe(capacity);
  let read = 0;
  for (;;) {
    if (read === capacity) {
      if (read >= cap) return { tooLarge: true };
      capacity = Math.min(capacity * 2, cap);
      if (capacity > buffer.length) {
        const bigger = Buffer.allocUnsafe(capacity);
        buffer.copy(bigger, 0, 0, read);
        buffer = bigger;
      }
    }
    const n = fs.readSync(fd, buffer, read, capacity - read, null);
    if (n === 0) break;
    read += n;
    if (read === st.size) break;
  }
  return buffer.toString('utf8', 0, read);
}
