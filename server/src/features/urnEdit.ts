/**
 * Edits that make a URN occurrence name another entity (a deprecated entity's replacement): the
 * whole URN where the document spells it verbatim (a literal, a plain YAML value); else each part
 * that changes, where the document spells that part verbatim or as one plain string literal (a
 * builder call's argument: `make_dataset_urn("hive", "db.users", "PROD")` changes "db.users"
 * alone). Where a changed part is spelled otherwise — an escape, a joined or formatted string, a
 * variable — there is no edit: it would change more than the part, or guess.
 */
import type { TextEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { acceptCatalogUrn, insertionFor, type Destination } from '../../../model/src/insertion';
import { parseUrn, type PartSpan } from '../../../model/src/urn';
import type { UrnOccurrence } from '../scan/types';
import { destinationAt } from './destination';
import { mapPart } from './diagnostics';

/** Why the last replacement was refused (for the log of whoever asked). */
export let lastRefusal: string | undefined;

/** The edits that make `occ` read `target`; undefined when no safe edit exists. */
export function replaceUrnEdits(doc: TextDocument, occ: UrnOccurrence, target: string): TextEdit[] | undefined {
  const old = occ.parsed;
  lastRefusal = undefined;
  if (!old?.ok || occ.template) return undefined;
  // Only a well-formed URN of the same kind, written as DataHub writes it, is ever written.
  const accepted = acceptCatalogUrn(target, [old.urn.kind]);
  if (!accepted.ok) {
    lastRefusal = `${target.slice(0, 200)}: ${accepted.reason}`;
    return undefined;
  }
  let next = parseUrn(target);
  if (!next.ok) return undefined;
  // The document's namespace word stays (li and svc name one entity); the nested platform's too.
  if (next.urn.namespace !== old.urn.namespace) {
    const respelled = target.split(`urn:${next.urn.namespace}:`).join(`urn:${old.urn.namespace}:`);
    next = parseUrn(respelled);
    if (!next.ok) return undefined;
    target = respelled;
  }
  if (target === occ.urn) return [];
  const text = doc.getText();
  if (occ.source !== 'builder' && !occ.map && text.slice(occ.start, occ.end) === occ.urn) {
    const written = write(target, destinationAt(text, occ.start, doc.languageId));
    return written === undefined
      ? undefined
      : [{ range: { start: doc.positionAt(occ.start), end: doc.positionAt(occ.end) }, newText: written }];
  }
  if (next.urn.kind !== old.urn.kind) return undefined;
  const oldParts = outerParts(old.parts);
  const newParts = outerParts(next.parts);
  if (oldParts.length !== newParts.length || oldParts.some((p, i) => p.role !== newParts[i]!.role)) return undefined;
  const edits: TextEdit[] = [];
  for (let i = 0; i < oldParts.length; i++) {
    const was = occ.urn.slice(oldParts[i]!.start, oldParts[i]!.end);
    const now = target.slice(newParts[i]!.start, newParts[i]!.end);
    if (was === now) continue;
    const edit = partEdit(doc, occ, mapPart(occ, oldParts[i]!.start, oldParts[i]!.end), was, now);
    if (!edit) return undefined;
    edits.push(edit);
  }
  return edits;
}

/**
 * The edit that makes `occ` read `target` where the document spells it verbatim (a literal, a
 * plain YAML value), written as its place writes values; undefined elsewhere (a builder call, an
 * escape, joined strings). For a URN that does not parse yet (a malformed one's fix): `target` is
 * whatever the fix made, checked to be a well-formed URN.
 */
export function rewriteUrnEdits(doc: TextDocument, occ: UrnOccurrence, target: string): TextEdit[] | undefined {
  lastRefusal = undefined;
  const text = doc.getText();
  if (occ.template || occ.source === 'builder' || occ.map || text.slice(occ.start, occ.end) !== occ.urn)
    return undefined;
  if (!parseUrn(target).ok) return undefined;
  const written = write(target, destinationAt(text, occ.start, doc.languageId));
  return written === undefined
    ? undefined
    : [{ range: { start: doc.positionAt(occ.start), end: doc.positionAt(occ.end) }, newText: written }];
}

/** The parts of the URN itself, not of the URNs nested in it (a dataset's platform is one part). */
function outerParts(parts: readonly PartSpan[]): PartSpan[] {
  const out: PartSpan[] = [];
  for (const p of parts) if (!out.some((o) => p.start >= o.start && p.end <= o.end)) out.push(p);
  return out;
}

/** `value` as written at `destination`, or undefined (the reason kept in `lastRefusal`). */
function write(value: string, destination: Destination): string | undefined {
  const written = insertionFor(value, destination);
  if (written.ok) return written.text;
  lastRefusal = `${value.slice(0, 200)}: ${written.reason}`;
  return undefined;
}

/**
 * `now` where the document spells `was` at `r`: verbatim inside the occurrence's own literal or
 * scalar, or as the inside of one plain string literal (a builder call's argument). A builder's
 * argument that is not a literal is code (a variable): it is never replaced.
 */
function partEdit(
  doc: TextDocument,
  occ: UrnOccurrence,
  r: { start: number; end: number },
  was: string,
  now: string,
): TextEdit | undefined {
  const all = doc.getText();
  const text = all.slice(r.start, r.end);
  if (text === was) {
    // A builder's part is written only inside a string literal (its quote right before).
    const destination = destinationAt(all, occ.source === 'builder' ? r.start : occ.start, doc.languageId);
    if (occ.source === 'builder' && destination.place !== 'string') return undefined;
    const written = write(now, destination);
    return written === undefined
      ? undefined
      : { range: { start: doc.positionAt(r.start), end: doc.positionAt(r.end) }, newText: written };
  }
  const literal = /^([rRuUbB]{0,2})(["'`])(.*)\2$/s.exec(text);
  // A backslash inside would make the literal mean something else than its text.
  if (!literal || literal[3] !== was || /[\\]/.test(literal[3])) return undefined;
  const start = r.start + literal[1]!.length + 1;
  const written = write(now, destinationAt(all, start, doc.languageId));
  if (written === undefined) return undefined;
  return { range: { start: doc.positionAt(start), end: doc.positionAt(start + was.length) }, newText: written };
}
