/**
 * The workspace index's read of a listed file: workspace.ts readCappedSync with `listedRegular`
 * (the directory listing said the entry is a regular file, so no stat before the open), as
 * straight-line calls instead of readSteps' generator, into one buffer reused from file to file,
 * and for a small file without the stat of the open descriptor: the file is read into the buffer
 * and a second read of nothing ends it (the same number of system calls, without the Stats object
 * and its four Dates). The stat is made, and the file read on as readSteps reads it, whenever
 * that does not settle it: the first read fills the buffer (a file that may be over the cap, or a
 * device), reads nothing (an empty file, or a FIFO without a writer), or a read fails (a folder, a
 * FIFO that would block). The answers are readCappedSync's (test/server/readListed.test.ts holds
 * the two together) but for what took a listed file's place after the listing and gives a few
 * bytes and then an end, as a FIFO whose writer closed: its bytes are the text (taken from the
 * pipe), and a device put there is read (up to the buffer) before it is refused.
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
  // A whole number of bytes: a size N is at most m exactly when it is at most floor(m).
  maxSize = Math.floor(maxSize);
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
  const buffer = (scratch ??= Buffer.allocUnsafe(SCRATCH_BYTES));
  const first = Math.min(maxSize + 1, SCRATCH_BYTES);
  let read = 0;
  try {
    read = fs.readSync(fd, buffer, 0, first, null);
    if (read > 0 && read < first) {
      const more = fs.readSync(fd, buffer, read, first - read, null);
      if (more === 0) return buffer.toString('utf8', 0, read);
      read += more;
    }
  } catch (e) {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return notRegular(st);
    throw e;
  }
  // Not settled by the reads: as readSteps, with what was read so far.
  const st = fs.fstatSync(fd);
  if (!st.isFile()) return notRegular(st);
  if (st.size > maxSize) return { tooLarge: true };
  return readOn(fd, maxSize, st.size, buffer, read);
}

/** readSteps' read loop from `read` bytes already in `buffer`, `size` the stat's. */
function readOn(fd: number, maxSize: number, size: number, buffer: Buffer, read: number): string | ReadFailure {
  const cap = maxSize + 1;
  // `capacity` is what readSteps' buffer holds; the bytes are in `buffer`, which may be larger.
  let capacity = Math.max(Math.min(size + 1, cap), read);
  // readSteps ends at a read that reaches the stat's size.
  if (read > 0 && read === size) return buffer.toString('utf8', 0, read);
  for (;;) {
    if (read === capacity) {
      if (read >= cap) return { tooLarge: true };
      capacity = Math.min(capacity * 2, cap);
    }
    if (capacity > buffer.length) {
      const bigger = Buffer.allocUnsafe(capacity);
      buffer.copy(bigger, 0, 0, read);
      buffer = bigger;
    }
    const n = fs.readSync(fd, buffer, read, capacity - read, null);
    if (n === 0) break;
    read += n;
    if (read === size) break;
  }
  return buffer.toString('utf8', 0, read);
}
