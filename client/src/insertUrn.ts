/**
 * The client's one way to write a catalog URN into an editor (Insert URN at Cursor, Catalog:
 * Search…): accepted only when it is a well-formed URN written as DataHub writes it, and written
 * through the insertion rule for a place whose syntax the client does not know
 * (model/src/insertion.ts, "any": no quote, backslash, brace, line break, link or icon syntax).
 * A refusal is said to the user and logged; nothing is written then.
 */
import * as vscode from 'vscode';
import { inertText, MESSAGE_LIMIT } from '../../model/src/inertText';
import { acceptCatalogUrn, insertionFor } from '../../model/src/insertion';
import type { Log } from './log';

/** `urn` at the editor's selection, or a warning saying why not; whether it was written. */
export async function insertCatalogUrn(editor: vscode.TextEditor, urn: unknown, log: Log): Promise<boolean> {
  const accepted = acceptCatalogUrn(urn);
  const written = accepted.ok ? insertionFor(urn as string, { place: 'any' }) : accepted;
  if (!written.ok) {
    const shown = typeof urn === 'string' ? urn : String(urn);
    log.info(`not inserting ${inertText(shown, 'plain', 300)}: ${written.reason}`);
    void vscode.window.showWarningMessage(
      inertText(`Catalog Lens: not inserting ${shown}: ${written.reason}.`, 'notification', MESSAGE_LIMIT),
    );
    return false;
  }
  return editor.edit((b) => b.replace(editor.selection, written.text));
}
