/**
 * What the server last published for files that are not open in the editor (Check Workspace's
 * diagnostics), as a fingerprint per URI, so that a check that finds the same diagnostics again
 * sends nothing: the editor still shows what it was sent last (as rust-analyzer publishes only
 * the files whose diagnostics changed). Any other message for a file — an open document's
 * diagnostics, a clear — forgets it, under the URI as spelled and in its one spelling, so the
 * next check sends its diagnostics again. An editor that drops a closed file's diagnostics on its
 * own (Neovim wiping the buffer it made for them) gets them again when the file is opened, or
 * from a check once they change.
 *
 * A fingerprint is 30 bits of an FNV-1a hash of the diagnostics as serialised, with their length:
 * two different lists with the same fingerprint (about one in a billion) would leave the first
 * one shown until the file's diagnostics change again. A file with no diagnostics is not kept.
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
    // No diagnostics (a file fixed since the last check: the check sends it nothing after this one)
    // are sent and not remembered, so the map holds only files that have some.
    if (json === '[]') {
      this.sent.delete(uri);
      return true;
    }
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

  /** Whether `uri` (as a check publishes it) was sent diagnostics by a check and nothing since. */
  shown(uri: string): boolean {
    return this.sent.has(uri);
  }

  get size(): number {
    return this.sent.size;
  }
}

function fingerprintOf(json: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < json.length; i++) h = Math.imul(h ^ json.charCodeAt(i), 0x01000193);
  // The length mixed in, 30 bits kept: a small integer, which V8 keeps in the map's entry itself.
  return (h ^ Math.imul(json.length, 0x9e3779b1)) & 0x3fffffff;
}
