/**
 * Names beside ids: an inlay hint after each URN whose id is not what people call it, with the
 * name the catalog shows for it (`urn:li:domain:7f3c…` ‹Marketing›). The name is what the
 * resolution already holds (a dataset's `properties.name`, a looked-up-only kind's `view.name`
 * paths of model/src/kinds.ts): nothing is asked of the catalog here, and an unknown or
 * unresolved URN gets no hint.
 *
 * A hint is shown when the name differs from the id as people read it (displayId): compared with
 * case, spaces and punctuation left out, and not equal to the id's last dotted or slashed parts
 * either (`db.users` named `users`, `Classification.Sensitive` named `Sensitive`, `daily_revenue`
 * named `Daily revenue` get none). So a GUID or hash id always gets one (a domain, a container),
 * and so does a name the id does not spell (`Classification.Sensitive` named `Sensitive Data`,
 * user `asmith` named `Alice Smith`, a dataset whose `properties.name` is another name).
 *
 * Catalog text is inert: the label is one plain line, hidden characters made visible, cut to
 * MAX_LABEL characters; the tooltip is plain text too.
 */
import { displayId } from '../../../model/src/entityNames';
import { firstValueAt, isViewKind, lookupLabels, viewOf, type LookupKind } from '../../../model/src/kinds';
import { inertText } from '../../../model/src/inertText';
import type { Resolution, ResolutionLookup } from '../catalogClient/client';
import { ownLookupKind } from '../resolution/lookup';
import type { ScanResult } from '../scan/types';
import { rangesEndingIn } from './intervals';

/** Characters of a name an inlay label shows before it is cut with "…". */
export const MAX_LABEL = 40;
/** Characters of the name and the id the tooltip shows. */
const MAX_TOOLTIP_PART = 200;

/** An inlay hint at a document offset: its label and its tooltip, both plain text. */
export interface NameHint {
  offset: number;
  label: string;
  tooltip: string;
}

/**
 * The name hints whose place is inside `[from, to]` (document offsets: the editor asks for the
 * lines it shows), in document order. `text` is the document's text; `resolved` what the catalog
 * has already answered.
 */
export function nameHints(
  text: string,
  scan: ScanResult,
  resolved: ResolutionLookup,
  from = 0,
  to = text.length,
): NameHint[] {
  const out: NameHint[] = [];
  // Found through the occurrences' index of ranges: the lines asked for cost the same in any document.
  for (const o of rangesEndingIn(scan.occurrences, from, to)) {
    if (o.template || o.parent !== undefined || !o.parsed?.ok) continue;
    // Looked up as itself (a schemaField's name is its dataset's column: no hint).
    const kind = ownLookupKind(o.parsed.urn);
    if (kind === undefined) continue;
    const res = resolved(o.urn);
    if (res?.state !== 'found') continue;
    const name = catalogName(res);
    if (name === undefined) continue;
    const id = displayId(o.parsed.urn);
    if (sameName(name, id)) continue;
    out.push({
      offset: hintOffset(text, o.start, o.end),
      label: `‹${inertText(name, 'plain', MAX_LABEL)}›`,
      tooltip: `${lookupLabels(kind).label} ${inertText(name, 'plain', MAX_TOOLTIP_PART)}: the catalog's name for ${inertText(id, 'plain', MAX_TOOLTIP_PART)}`,
    });
  }
  return out;
}

/** The name the catalog shows for a found entity: a dataset's `properties.name`, a looked-up-only kind's display name. */
function catalogName(res: Extract<Resolution, { state: 'found' }>): string | undefined {
  const kind: LookupKind = res.kind;
  if (res.kind === 'dataset') {
    const name = res.entity.properties?.name;
    return typeof name === 'string' && name.trim() !== '' ? name : undefined;
  }
  return isViewKind(kind) ? firstValueAt(res.entity, viewOf(kind).name) : undefined;
}

/** What separates an id's dotted or slashed parts. */
const SEPARATOR = /^[./\\:]$/;

/** Letters and digits only, lower case: how two names are compared. */
function folded(s: string): string {
  return s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** The name says no more than the id: the same once folded, or the same as the id's last dotted or slashed parts. */
export function sameName(name: string, id: string): boolean {
  // Most names are the id or its last part as written (`db.users` named `users`): no folding needed.
  if (name === id || (id.endsWith(name) && SEPARATOR.test(id.charAt(id.length - name.length - 1)))) return true;
  const n = folded(name);
  if (n === '') return true;
  const parts = id.split(/[./\\:]+/);
  let tail = '';
  for (let i = parts.length - 1; i >= 0; i--) {
    tail = folded(parts[i]!) + tail;
    if (tail === n) return true;
    if (tail.length >= n.length) break;
  }
  return folded(id) === n;
}

/** After the URN; after its closing quote when it fills a quoted string (`"urn:…"` ‹name›). */
function hintOffset(text: string, start: number, end: number): number {
  const quote = text.charCodeAt(end);
  return (quote === 0x22 || quote === 0x27 || quote === 0x60) && text.charCodeAt(start - 1) === quote ? end + 1 : end;
}
