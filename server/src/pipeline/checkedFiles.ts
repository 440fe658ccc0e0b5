/**
 * What the last Check Workspace found of each closed file it checked, so that the next check need
 * not read, scan and diagnose again a file that is the same on disk, under the same settings, whose
 * catalog answers are still the ones its diagnostics were made from: the editor still shows what
 * the check sent it (closedDiagnostics.ts), and the check counts the file's diagnostics and URNs
 * as before.
 *
 * "The same on disk" is told by the file's metadata, as git's index and ESLint's default cache
 * strategy tell it: size, modification and change times and inode of an open descriptor of the
 * file (an open makes a network file system check them anew), against those of the descriptor the
 * text was read from. A file modified or changed less than RACY_MS before the check that read it is
 * not kept (git's "racily clean" files): a second change within the same tick of a coarse clock
 * would leave the same times. The answers are the same while the catalog
 * client has replaced or dropped no fresh answer since (LruTtlCache.replaced) and none that the
 * file's diagnostics read has expired. A file is kept only when its diagnostics depend on nothing
 * else: not one whose answers include an error, a sibling's text or a search by name, nor one that
 * gives or uses structured property definitions (those are read across the files of a check).
 *
 * Memory: about 70 bytes a file in typed arrays, the URI and each URN by hashes, not as text.
 */

/** A file's metadata as compared: what node's Stats give. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

/** A file modified this close to the check that read it (or after) is read again next time. */
export const RACY_MS = 2000;

/** The two 32-bit FNV-1a hashes of `text` (different offsets and multipliers), as [a, b]. */
export function textHashes(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return [a | 0, (b ^ text.length) | 0];
}

/** What a check kept of the files it checked; read by the next check (`find`), then replaced. */
export class CheckedFiles {
  private constructor(
    /** By the first hash of a URI (30 bits, a small integer to V8): the file's slot. */
    private readonly slotOf: Map<number, number>,
    private readonly uriCheck: Int32Array,
    private readonly numbers: Float64Array,
    private readonly ints: Int32Array,
    private readonly urnHashes: Int32Array,
    private readonly sigs: readonly string[],
    /** The catalog client whose answers the diagnostics were made from (not kept alive), and its `replaced` then. */
    private readonly clientRef: WeakRef<object> | undefined,
    readonly replaced: number,
  ) {}

  /** The catalog client whose answers the diagnostics were made from, while it is in use. */
  get client(): object | undefined {
    return this.clientRef?.deref();
  }

  /** How many files are kept. */
  get size(): number {
    return this.uriCheck.length;
  }

  /** Until when the freshest of the files kept holds (-Infinity when none is kept): after it, none does. */
  get freshest(): number {
    let latest = -Infinity;
    for (let n = 4; n < this.numbers.length; n += NUMBERS) if (this.numbers[n]! > latest) latest = this.numbers[n]!;
    return latest;
  }

  /**
   * The slot of `uri` when what is kept of it still holds: the same metadata and settings, and its
   * answers fresh at `now`; else -1.
   */
  find(uri: string, st: FileStamp, sig: string, now: number): number {
    const [a, b] = textHashes(uri);
    const slot = this.slotOf.get(a & 0x3fffffff);
    if (slot === undefined || this.uriCheck[slot] !== b) return -1;
    const n = slot * NUMBERS;
    const x = this.numbers;
    if (x[n] !== st.size || x[n + 1] !== st.mtimeMs || x[n + 2] !== st.ctimeMs || x[n + 3] !== st.ino) return -1;
    if (!(now < x[n + 4]!)) return -1;
    if (this.sigs[this.ints[slot * INTS]!] !== sig) return -1;
    return slot;
  }

  /** The number of diagnostics the file of `slot` was given. */
  diagnostics(slot: number): number {
    return this.ints[slot * INTS + 1]!;
  }

  /** Appends the metadata and freshness of the file of `slot` to `out`. */
  numbersOf(slot: number, out: number[]): void {
    for (let k = 0; k < NUMBERS; k++) out.push(this.numbers[slot * NUMBERS + k]!);
  }

  /** Calls `f` with the two hashes of each distinct URN the file of `slot` asks the catalog about. */
  forEachUrn(slot: number, f: (a: number, b: number) => void): void {
    const start = this.ints[slot * INTS + 2]!;
    const end = start + this.ints[slot * INTS + 3]! * 2;
    for (let i = start; i < end; i += 2) f(this.urnHashes[i]!, this.urnHashes[i + 1]!);
  }

  /** Collects the files of a check, new and kept from `from`. */
  static builder(): CheckedFilesBuilder {
    return new CheckedFilesBuilder((...args) => new CheckedFiles(...args));
  }
}

/** Per file: size, mtimeMs, ctimeMs, ino, and the time its answers stay fresh until. */
const NUMBERS = 5;
/** Per file: the settings' index, diagnostics, first URN hash, URN count. */
const INTS = 4;

/** Builds the CheckedFiles of a check, file by file. */
export class CheckedFilesBuilder {
  private readonly slotOf = new Map<number, number>();
  private readonly uriCheck: number[] = [];
  private readonly numbers: number[] = [];
  private readonly ints: number[] = [];
  private readonly urnHashes: number[] = [];
  private readonly sigs: string[] = [];

  constructor(
    private readonly make: (
      slotOf: Map<number, number>,
      uriCheck: Int32Array,
      numbers: Float64Array,
      ints: Int32Array,
      urnHashes: Int32Array,
      sigs: readonly string[],
      client: WeakRef<object> | undefined,
      replaced: number,
    ) => CheckedFiles,
  ) {}

  /**
   * A file checked now: its metadata as read (`readAt`: when the check began), the settings it was
   * checked with, its diagnostics' count, when the first of the answers they read expires, and the
   * URNs it asked about. A file modified within RACY_MS of `readAt` is not kept.
   */
  add(
    uri: string,
    st: FileStamp,
    readAt: number,
    sig: string,
    diagnostics: number,
    freshUntil: number,
    urns: Iterable<string>,
  ): void {
    if (!this.admits(st, readAt)) return;
    const slot = this.slotFor(uri);
    if (slot < 0) return;
    this.numbers.push(st.size, st.mtimeMs, st.ctimeMs, st.ino, freshUntil);
    const first = this.urnHashes.length;
    for (const urn of urns) {
      const [a, b] = textHashes(urn);
      this.urnHashes.push(a, b);
    }
    this.ints.push(this.sigIndex(sig), diagnostics, first, (this.urnHashes.length - first) / 2);
  }

  /** Whether a file of this metadata, read by a check begun at `readAt`, may be kept (not racily changed). */
  admits(st: FileStamp, readAt: number): boolean {
    return Math.max(st.mtimeMs, st.ctimeMs) < readAt - RACY_MS;
  }

  /** A file kept by the last check (`from`, at `slot`) and still as it was: kept again. */
  carry(uri: string, from: CheckedFiles, slot: number, sig: string): void {
    const kept = this.slotFor(uri);
    if (kept < 0) return;
    from.numbersOf(slot, this.numbers);
    const first = this.urnHashes.length;
    from.forEachUrn(slot, (a, b) => this.urnHashes.push(a, b));
    this.ints.push(this.sigIndex(sig), from.diagnostics(slot), first, (this.urnHashes.length - first) / 2);
  }

  /** What was collected, for the answers of `client` as they stood when `replaced` was read. */
  finish(client: object | undefined, replaced: number): CheckedFiles {
    return this.make(
      this.slotOf,
      Int32Array.from(this.uriCheck),
      Float64Array.from(this.numbers),
      Int32Array.from(this.ints),
      Int32Array.from(this.urnHashes),
      this.sigs,
      client && new WeakRef(client),
      replaced,
    );
  }

  /** A new slot for `uri`, or -1 when another URI of the check has its first hash. */
  private slotFor(uri: string): number {
    const [a, b] = textHashes(uri);
    const key = a & 0x3fffffff;
    // Two URIs of the check on one 30-bit key (a few pairs in 100,000 files): the first is kept,
    // found only by its second hash; the other is read again next time.
    if (this.slotOf.has(key)) return -1;
    const slot = this.uriCheck.length;
    this.slotOf.set(key, slot);
    this.uriCheck.push(b);
    return slot;
  }

  private sigIndex(sig: string): number {
    const i = this.sigs.indexOf(sig);
    if (i >= 0) return i;
    this.sigs.push(sig);
    return this.sigs.length - 1;
  }
}
