/**
 * What the server last published for files that are not open in the editor (Check Workspace's
 * diagnostics), as a fingerprint per URI, so that a check that finds the same diagnostics again
 * sends nothing: the editor still shows what it was sent last (as rust-analyzer publishes only
 * the files whose diagnostics changed). Any other message for a file — an open document's
 * diagnostics, a clear — forgets it, under the URI as spelled and in its one spelling, so the next check sends its diagnostics again.
 *
 * A fingerprint is the length and a 32-bit FNV-1a hash of the diagnostics as serialised: two
 * different lists with the same length and hash (about one in four billion) would leave the
 * first one shown until the file changes again.
 */
export class ClosedDiagnostics {
  private readonly sent = new Map<string, number>();

  /** `oneSpelling`: a file's URI in the one spelling Check Workspace publishes under (normalUri). */
  constructor(private readonly oneSpelling: (uri: string) => string) {}

  /**
   * Whether `diagnostics` (serialised: `json`) differ from what `uri` was last sent by a check;
   * when they do, they are remembered as sent.
   */
  changed(uri: string, json: string): boolean {
    const fingerprint = fingerprintOf(json);
    if (this.sent.get(uri) === fingerprint) return false;
    this.sent.set(uri, fingerprint);
    return true;
  }

  /** `uri` was sent something else (an open document's diagnostics, a clear): forgotten. */
  forget(uri: string): void {
    if (this.sent.size === 0) return;
    this.sent.delete(uri);
    this.sent.delete(this.oneSpelling(uri));
  }

  get size(): number {
    return this.sent.size;
  }
}

function fingerprintOf(json: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < json.length; i++) h = Math.imul(h ^ json.charCodeAt(i), 0x01000193);
  // Length (mod 2^21) above the hash's 32 bits: a safe integer, a number V8 keeps unboxed in the map's entry.
  return (json.length % 0x200000) * 0x100000000 + (h >>> 0);
}
