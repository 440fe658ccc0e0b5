/**
 * A document closed and opened again while a request or a check waited for its settings: the
 * reopened document may carry the old one's version number with another text, and nothing made
 * from the old text (scan, links, shown diagnostics) may stand for it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Settings } from '../../model/src/protocol';
import type { PlainDiagnostic } from '../../server/src/features/diagnostics';
import { OpenDocuments } from '../../server/src/pipeline/openDocuments';
import { mergeSettings } from '../../server/src/settings';

const URI = 'file:///w/a.py';
const OLD = 'X = "urn:li:corpuser:old_one"\n';
const NEW = '\n\n# moved down\nY = "urn:li:corpuser:new_one"\n';

/** OpenDocuments over an in-memory store whose settings answer only when the test lets them. */
function pipeline() {
  const docs = new Map<string, TextDocument>();
  const settings = mergeSettings({});
  const waiting: Array<() => void> = [];
  let hold = false;
  const published: Array<{ doc: TextDocument; diagnostics: PlainDiagnostic[] }> = [];
  const od = new OpenDocuments({
    settingsFor: () =>
      hold ? new Promise<Settings>((resolve) => waiting.push(() => resolve(settings))) : Promise.resolve(settings),
    clientFor: () => ({ resolve: async () => new Map(), cached: () => undefined }),
    log: () => undefined,
    documents: { get: (uri) => docs.get(uri), all: () => [...docs.values()] },
    publish: (doc, diagnostics) => void published.push({ doc, diagnostics }),
    clear: () => undefined,
    skipped: () => undefined,
  });
  return {
    od,
    settings,
    published,
    hold: () => (hold = true),
    release: () => {
      hold = false;
      for (const w of waiting.splice(0)) w();
    },
    /** The editor closes the document and opens it again with another text and the same version number. */
    reopen: (text: string) => {
      docs.delete(URI);
      od.closed(URI);
      const d = TextDocument.create(URI, 'python', 1, text);
      docs.set(URI, d);
      return d;
    },
    open: (text: string) => {
      const d = TextDocument.create(URI, 'python', 1, text);
      docs.set(URI, d);
      return d;
    },
  };
}

const urnsOf = (text: string, scan: { occurrences: Array<{ start: number; end: number }> } | undefined) =>
  scan?.occurrences.map((o) => text.slice(o.start, o.end));

describe('a document closed and opened again during a settings round trip', () => {
  test("a request gets the reopened document and its text's scan, and the old text's scan is not kept for it", async () => {
    const p = pipeline();
    p.open(OLD);
    p.hold();
    const asked = p.od.open(URI);
    const reopened = p.reopen(NEW);
    p.release();
    const got = await asked;
    assert.equal(got?.doc, reopened, 'the document open now');
    assert.deepEqual(urnsOf(NEW, got?.scan), ['urn:li:corpuser:new_one']);
    assert.deepEqual(urnsOf(NEW, p.od.scanOf(reopened, p.settings)), ['urn:li:corpuser:new_one']);
  });

  test("a closed document's scan never answers for the reopened one, even under the same version number", () => {
    const p = pipeline();
    const old = p.open(OLD);
    p.od.scanOf(old, p.settings);
    const reopened = p.reopen(NEW);
    // The old document scanned again after the reopen (a late request holding it): not kept.
    assert.deepEqual(urnsOf(OLD, p.od.scanOf(old, p.settings)), ['urn:li:corpuser:old_one']);
    assert.deepEqual(urnsOf(NEW, p.od.scanOf(reopened, p.settings)), ['urn:li:corpuser:new_one']);
    // And the reopened one's scan does not answer for the old one either.
    assert.deepEqual(urnsOf(OLD, p.od.scanOf(old, p.settings)), ['urn:li:corpuser:old_one']);
  });

  test('links made for the old document are not kept for the reopened one', () => {
    const p = pipeline();
    const old = p.open(OLD);
    const oldScan = p.od.scanOf(old, p.settings)!;
    const reopened = p.reopen(NEW);
    const newScan = p.od.scanOf(reopened, p.settings)!;
    // A links request that began before the close ends now, with the old document.
    p.od.linksOf(old, newScan, 'k', () => ['made from the old document']);
    assert.deepEqual(
      p.od.linksOf(reopened, newScan, 'k', () => ['made from the reopened one']),
      ['made from the reopened one'],
    );
    assert.notEqual(oldScan, newScan);
  });

  test('a check that waited for the settings of the old document publishes nothing for it', async () => {
    const p = pipeline();
    p.hold();
    p.open(OLD);
    p.od.changed(URI);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const reopened = p.reopen(NEW);
    p.od.changed(URI);
    p.release();
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.ok(p.published.length > 0, 'the reopened document is checked');
    assert.ok(
      p.published.every((x) => x.doc === reopened),
      `published for: ${p.published.map((x) => x.doc.getText().length).join(', ')}`,
    );
    assert.deepEqual(p.od.shownDiagnostics(reopened), p.published.at(-1)!.diagnostics);
  });
});
