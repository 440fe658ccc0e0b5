/**
 * Rename of an entity in the workspace: the part under the cursor — the name
 * (a feature's name or table), the platform or the env — is what changes, everywhere the entity is
 * written: literals, YAML, builder arguments (urnEdit.ts makes each edit; an occurrence spelled in
 * a way no edit can safely change makes the whole rename refuse, naming where). The catalog is not
 * changed. Pure: the server finds the files (the workspace index) and scans them.
 */
import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { aKind, entityName } from '../../../model/src/entityNames';
import { inertText } from '../../../model/src/inertText';
import { entityKey, parseUrn, type PartRole } from '../../../model/src/urn';
import type { ScanResult, UrnOccurrence } from '../scan/types';
import { mapPart } from './diagnostics';
import { replaceUrnEdits } from './urnEdit';
import { occurrenceAt } from './urnAt';

/** The parts a rename changes, and how a message names each. */
const RENAMED: Partial<Record<PartRole, string>> = {
  name: 'name',
  feature: 'name',
  table: 'feature table',
  platform: 'platform',
  env: 'env',
};

export interface RenameAt {
  occurrence: UrnOccurrence;
  role: PartRole;
  /** The part's text in the URN, and its range in the document. */
  text: string;
  range: { start: number; end: number };
}

/** What a rename at `offset` would change: the renamable part under the cursor, else the entity's name. */
export function renameAt(doc: TextDocument, scan: ScanResult, offset: number): RenameAt | string {
  const at = occurrenceAt(scan, offset);
  const occ = at?.occurrence;
  if (!occ || at.column !== undefined) return 'Put the cursor on a URN to rename its entity.';
  if (!occ.parsed?.ok || occ.template) return 'This URN does not parse: only an entity the URN names can be renamed.';
  const kind = occ.parsed.urn.kind;
  if (kind === 'schemaField' || kind === 'other' || kind === 'dataPlatform' || kind === 'corpuser')
    return `${aKind(kind, true)} URN is not renamed here: datasets and ML entities are.`;
  const parts = occ.parsed.parts.filter((p) => RENAMED[p.role] !== undefined);
  const mapped = parts.map((p) => ({ p, r: mapPart(occ, p.start, p.end) }));
  const under = mapped.find(({ r }) => offset >= r.start && offset <= r.end && r.end - r.start < occ.end - occ.start);
  const chosen = under ?? mapped.find(({ p }) => p.role === 'name' || p.role === 'feature');
  if (!chosen) return 'Nothing of this URN can be renamed.';
  const text = occ.urn.slice(chosen.p.start, chosen.p.end);
  // The range the editor shows for typing: the part where the document spells it, else the whole occurrence.
  const spelled = doc.getText().slice(chosen.r.start, chosen.r.end);
  const inner = spelled.indexOf(text);
  const range = inner >= 0 ? { start: chosen.r.start + inner, end: chosen.r.start + inner + text.length } : chosen.r;
  return { occurrence: occ, role: chosen.p.role, text, range };
}

/** The URN `at`'s entity becomes with its part set to `value`, or why it cannot. */
export function renamedUrn(at: RenameAt, value: string): { urn: string } | { error: string } {
  const occ = at.occurrence;
  const part = occ.parsed?.ok ? occ.parsed.parts.find((p) => p.role === at.role) : undefined;
  if (!part) return { error: 'the URN changed under the cursor' };
  const what = RENAMED[at.role] ?? at.role;
  if (value === '') return { error: `the new ${what} is empty` };
  const urn = occ.urn.slice(0, part.start) + value + occ.urn.slice(part.end);
  const parsed = parseUrn(urn);
  if (!parsed.ok)
    return { error: `${inertText(value, 'plain', 80)} cannot be a ${what} in a URN: ${parsed.error.message}` };
  if (entityKey(urn) === entityKey(occ.urn))
    return { error: `the ${what} is already ${inertText(value, 'plain', 80)}` };
  return { urn };
}

/** The edits of one document that make each occurrence of `from`'s entity name `to`; the offsets of those that cannot. */
export function renameEdits(
  doc: TextDocument,
  scan: ScanResult,
  from: string,
  to: string,
): { edits: TextEdit[]; refused: number[] } {
  const key = entityKey(from);
  const edits: TextEdit[] = [];
  const refused: number[] = [];
  for (const occ of scan.occurrences) {
    if (occ.parent !== undefined || occ.template || !occ.parsed?.ok || entityKey(occ.urn) !== key) continue;
    // Each occurrence keeps its own namespace word (replaceUrnEdits respells `to` in it).
    const e = replaceUrnEdits(doc, occ, to);
    if (e) edits.push(...e);
    else refused.push(occ.start);
  }
  return { edits, refused };
}

/** The edits of one file of a rename, under the URI the editor knows it by; `version` when it is open. */
export interface FileRename {
  uri: string;
  version: number | null;
  edits: TextEdit[];
}

/**
 * The rename's WorkspaceEdit over `files`, and the message that tells the user what it does (the
 * catalog is not changed); an error naming the places no edit can change (then nothing is renamed).
 * With change annotations the note travels with the edit: annotated, not marked as needing
 * confirmation (VS Code leaves such edits unchecked in its preview, and would force the preview).
 */
export function renameWorkspaceEdit(
  at: RenameAt,
  newName: string,
  files: readonly FileRename[],
  refused: readonly string[],
  options: { changeAnnotations: boolean; indexFull: boolean },
): { edit: WorkspaceEdit; places: number; message: string } | { error: string } {
  if (refused.length > 0) {
    const n = refused.length;
    return {
      error: `Cannot rename: ${n} place${n === 1 ? '' : 's'} write${n === 1 ? 's' : ''} it in a way no edit can change safely (an escape, a joined or formatted string, a variable): ${refused.slice(0, 5).join(', ')}${n > 5 ? ', …' : ''}. Nothing was renamed.`,
    };
  }
  const changed = files.filter((f) => f.edits.length > 0);
  const places = changed.reduce((n, c) => n + c.edits.length, 0);
  const parsed = at.occurrence.parsed;
  const what = inertText(parsed?.ok ? entityName(parsed.urn) : at.occurrence.urn, 'plain', 80);
  const full = options.indexFull
    ? ' The workspace index is full, so files it left out are not renamed (the log names the first).'
    : '';
  const note = `Only files change: the catalog still has ${what} as it was. Rename it there too, or keep the files pointing at an entity the catalog does not know.${full}`;
  const edit: WorkspaceEdit = options.changeAnnotations
    ? {
        documentChanges: changed.map((c) => ({
          textDocument: { uri: c.uri, version: c.version },
          edits: c.edits.map((e) => ({ ...e, annotationId: RENAME_ANNOTATION })),
        })),
        changeAnnotations: {
          [RENAME_ANNOTATION]: { label: 'Rename in the workspace', description: note, needsConfirmation: false },
        },
      }
    : { changes: Object.fromEntries(changed.map((c) => [c.uri, c.edits])) };
  const message = `Catalog Lens: rename of ${inertText(at.text, 'plain', 80)} to ${inertText(newName, 'plain', 80)}: ${places} place${places === 1 ? '' : 's'} in ${changed.length} file${changed.length === 1 ? '' : 's'}. ${note}`;
  return { edit, places, message };
}

/** The change annotation a rename's edits carry. */
const RENAME_ANNOTATION = 'catalogLens.rename';
