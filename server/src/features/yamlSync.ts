/**
 * Sync of a file in one of DataHub's YAML formats with the catalog, for the whole file or one entry
 * of it: the edits that make the file say what the catalog says (each differing text replaced in
 * its own style, an empty one filled, one the file lacks inserted, through yamlEdit: everything
 * else byte for byte), the text they make, and the writes a push makes (each text of the file the
 * catalog lacks or words otherwise). What the catalog lacks is never taken out of the file, and a
 * push writes only what the file says. Pure: what the catalog answered comes in as a lookup.
 *
 * What each format syncs: a dataset file, each entry's description and each schema field's; a
 * glossary, each node's and term's description (the catalog's definition); a data product file,
 * the product's description; a structured properties file, each definition's description and
 * display name (the display name compared and pulled, not pushed).
 */
import { ownershipTypeUrn } from '../../../model/src/aspects';
import { entityName } from '../../../model/src/entityNames';
import { inertText } from '../../../model/src/inertText';
import { findField } from '../../../model/src/fieldPath';
import { firstValueAt, lookupLabels, type LookupKind } from '../../../model/src/kinds';
import { shownColumns } from '../../../model/src/readShapes';
import type { ResolutionLookup } from '../catalogClient/client';
import { lookupOf } from '../resolution/lookup';
import { parseUrnCached } from '../scan/parseCache';
import type { ScanResult, UrnOccurrence, YamlScalarRef } from '../scan/types';
import { catalogDescription } from './diagnostics';
import { renderInsertion, renderScalarLike, type InsertionPoint } from './yamlEdit';

/** A replacement of `[start, end)` of the text (an insertion where they are equal). */
export interface SyncEdit {
  start: number;
  end: number;
  newText: string;
}

/** One description a push writes: of an entry (`fieldPath` absent) or of one of a dataset's columns. */
export interface SyncWrite {
  urn: string;
  /** The entry's kind: `dataset`, `glossaryTerm`, `glossaryNode`, `dataProduct` or `structuredProperty`. */
  kind: LookupKind;
  /** The entry as messages name it (`db.users`, `glossary term Classification.Sensitive`). */
  name: string;
  /** The column as the catalog's schema spells it. */
  fieldPath?: string;
  /** What the catalog shows now (null: no description). */
  old: string | null;
  /** The file's text, which the push writes. */
  new: string;
}

export interface SyncPlan {
  /** Ordered by offset, none overlapping. */
  edits: SyncEdit[];
  /** The text with the edits made: the file as the catalog would have it. */
  catalogText: string;
  writes: SyncWrite[];
  /** What neither a pull nor a push touches, and why (an entry the catalog does not have …). */
  notes: string[];
  /** What the file says otherwise than the catalog and a push does not write, one line each, and why. */
  unpushed: string[];
  /** The URNs of the entries the plan covers. */
  entries: string[];
}

/** The formats sync covers. */
export const SYNCED_FORMATS: readonly string[] = [
  'datahub-dataset',
  'datahub-glossary',
  'datahub-data-product',
  'datahub-structured-properties',
];

/** What creates an entry the catalog lacks, per format (for the note that says it is left alone). */
const CREATED_BY: Readonly<Record<string, string>> = {
  'datahub-dataset': 'datahub dataset upsert creates it',
  'datahub-glossary': 'the datahub-business-glossary source creates it',
  'datahub-data-product': 'datahub dataproduct upsert creates it',
  'datahub-structured-properties': 'datahub properties upsert creates it',
};

/** The entry kinds each format's entries are, and whose descriptions a push writes. */
const ENTRY_KINDS: Readonly<Record<string, readonly string[]>> = {
  'datahub-dataset': ['dataset'],
  'datahub-glossary': ['glossaryTerm', 'glossaryNode'],
  'datahub-data-product': ['dataProduct'],
  'datahub-structured-properties': ['structuredProperty'],
};

/** One place of the file that holds (or would hold) a text: an entry's, a schema field's, a property's display name. */
interface Slot {
  occ: UrnOccurrence;
  kind: LookupKind;
  /** The field's `id` as the file writes it. */
  field?: string;
  key: 'description' | 'display_name';
  description: YamlScalarRef | undefined;
  at: InsertionPoint;
}

/** The kind of an entry's URN, when it is one of `format`'s. */
function entryKind(occ: UrnOccurrence | undefined, format: string): LookupKind | undefined {
  if (!occ?.parsed?.ok) return undefined;
  const kind = lookupOf(occ.parsed.urn, occ.urn)?.kind;
  return kind !== undefined && (ENTRY_KINDS[format] ?? []).includes(kind) ? kind : undefined;
}

/** The entries of a file in one of the synced formats (their URN, where each is named), in file order. */
export function syncEntries(scan: ScanResult): UrnOccurrence[] {
  if (scan.format === 'datahub-dataset') return datasetEntries(scan);
  if (scan.format === undefined || !SYNCED_FORMATS.includes(scan.format)) return [];
  const seen = new Set<string>();
  const out: UrnOccurrence[] = [];
  for (const t of scan.formatTexts ?? []) {
    const occ = scan.occurrences[t.owner];
    if (!occ || entryKind(occ, scan.format) === undefined || seen.has(occ.urn)) continue;
    seen.add(occ.urn);
    out.push(occ);
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The dataset entries of a DataHub dataset file (their URN, where each is named), in file order. */
export function datasetEntries(scan: ScanResult): UrnOccurrence[] {
  if (scan.format !== 'datahub-dataset') return [];
  const seen = new Set<string>();
  const out: UrnOccurrence[] = [];
  for (const d of scan.descriptions) {
    const occ = scan.occurrences[d.owner];
    if (!occ?.parsed?.ok || occ.parsed.urn.kind !== 'dataset' || seen.has(occ.urn)) continue;
    seen.add(occ.urn);
    out.push(occ);
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * The plan for the file (`entry` absent) or for the entry whose URN is `entry`; undefined when the
 * text is in none of the synced formats. `lookup` answers for each entry's URN.
 */
export function yamlSyncPlan(
  text: string,
  scan: ScanResult,
  lookup: ResolutionLookup,
  entry?: string,
): SyncPlan | undefined {
  const format = scan.format;
  if (format === undefined || !SYNCED_FORMATS.includes(format)) return undefined;
  const wanted = (occ: UrnOccurrence | undefined): LookupKind | undefined =>
    occ !== undefined && (entry ?? occ.urn) === occ.urn ? entryKind(occ, format) : undefined;
  const slots: Slot[] = [];
  const add = (
    occ: UrnOccurrence | undefined,
    d: InsertionPoint & { description?: YamlScalarRef },
    key: Slot['key'],
    field?: string,
  ): void => {
    const kind = wanted(occ);
    if (!occ || !kind) return;
    const at: InsertionPoint = key === 'description' ? d : { ...d, key };
    slots.push({ occ, kind, key, ...(field !== undefined ? { field } : {}), description: d.description, at });
  };
  if (format === 'datahub-dataset') {
    for (const d of scan.descriptions) add(scan.occurrences[d.owner], d, 'description');
    for (const c of scan.formatColumns ?? []) add(scan.occurrences[c.dataset], c, 'description', c.name.value);
  } else {
    for (const t of scan.formatTexts ?? []) add(scan.occurrences[t.owner], t, t.key);
  }
  const order = (s: Slot): number => (s.field !== undefined ? 2 : s.key === 'description' ? 0 : 1);
  slots.sort((a, b) => a.occ.start - b.occ.start || order(a) - order(b));

  const edits: SyncEdit[] = [];
  const writes: SyncWrite[] = [];
  const notes: string[] = [];
  const unpushed: string[] = [];
  const entries: string[] = [];
  const done = new Set<string>();
  const noted = new Set<string>();
  const note = (key: string, message: string): void => {
    if (noted.has(key)) return;
    noted.add(key);
    notes.push(message);
  };
  for (const slot of slots) {
    const { occ, kind } = slot;
    const name = entryLabel(occ, kind);
    if (!entries.includes(occ.urn)) entries.push(occ.urn);
    const res = lookup(occ.urn);
    if (!res || res.state === 'error') {
      note(occ.urn, `${name}: the catalog did not answer`);
      continue;
    }
    if (res.state === 'missing') {
      note(occ.urn, `${name}: not in the catalog (${CREATED_BY[format]})`);
      continue;
    }
    if (res.kind !== kind) continue;
    let catalog: string | undefined;
    let fieldPath: string | undefined;
    if (slot.field !== undefined) {
      if (res.kind !== 'dataset') continue;
      const found = findField(shownColumns(res.entity), slot.field);
      if (!found) {
        note(`${occ.urn}\n${slot.field}`, `${name}: field ${slot.field} is not in the catalog's schema`);
        continue;
      }
      fieldPath = found.fieldPath;
      catalog = found.description ?? undefined;
      if (catalog !== undefined && catalog.trim() === '') catalog = undefined;
    } else if (slot.key === 'display_name') {
      catalog = firstValueAt(res.entity, ['definition.displayName']);
    } else {
      catalog = catalogDescription(res);
    }
    // An entry or column written by two places of the file: the first one says it.
    const key = `${occ.urn}\n${slot.key}\n${fieldPath ?? ''}`;
    if (done.has(key)) {
      note(
        `twice\n${key}`,
        `${name}${fieldPath !== undefined ? `: field ${fieldPath}` : ''}: said again later in the file; the first one is used`,
      );
      continue;
    }
    done.add(key);
    const ours = slot.description?.value;
    const said = ours !== undefined && ours.trim() !== '';
    const differs = said && normalise(ours) !== normalise(catalog ?? '');
    if (differs) {
      const w: SyncWrite = {
        urn: occ.urn,
        kind,
        name,
        ...(fieldPath !== undefined ? { fieldPath } : {}),
        old: catalog ?? null,
        new: ours,
      };
      if (slot.key === 'display_name')
        unpushed.push(
          `${writeLine({ ...w, key: slot.key })} (Catalog Lens pushes no display name: use \`datahub properties upsert -f\`)`,
        );
      else writes.push(w);
    }
    if (catalog === undefined) continue;
    if (slot.description && (differs || !said)) {
      edits.push({
        start: slot.description.start,
        end: slot.description.end,
        newText: renderScalarLike(slot.description, catalog, text),
      });
    } else if (!slot.description) {
      edits.push({
        start: slot.at.insertAt,
        end: slot.at.replaceEnd ?? slot.at.insertAt,
        newText: renderInsertion(slot.at, catalog, text),
      });
    }
  }
  // Two insertions at one place (a property's description and display name): one edit, in slot order.
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  const kept: SyncEdit[] = [];
  for (const e of edits) {
    const last = kept[kept.length - 1];
    if (last && e.start === e.end && last.start === e.start && last.end === e.end) {
      last.newText += e.newText;
      continue;
    }
    // Two edits never overlap otherwise; should they, the later one is left for another pull.
    if (last && e.start < last.end) continue;
    kept.push(e);
  }
  return { edits: kept, catalogText: applyEdits(text, kept), writes, notes, unpushed, entries };
}

/** An entry as lines and notes name it: a dataset by its name, another kind with its kind's word first. */
function entryLabel(occ: UrnOccurrence, kind: LookupKind): string {
  const name = occ.parsed?.ok ? entityName(occ.parsed.urn) : occ.urn;
  return kind === 'dataset' ? name : `${lookupLabels(kind).word} ${name}`;
}

/** `text` with `edits` (ordered, not overlapping) made. */
export function applyEdits(text: string, edits: readonly SyncEdit[]): string {
  let out = '';
  let at = 0;
  for (const e of edits) {
    out += text.slice(at, e.start) + e.newText;
    at = e.end;
  }
  return out + text.slice(at);
}

/** How long a quoted description may be in a write's line. */
const QUOTED = 60;

/**
 * One line that says a write: `db.users, field user_id: description "The key." → "Primary key."`
 * (`display name` for a structured property's display name, `key: 'display_name'`).
 */
export function writeLine(w: Omit<SyncWrite, 'kind'> & { key?: 'display_name' }): string {
  const quote = (t: string | null): string =>
    t === null ? '(none)' : `"${inertText(t.replace(/\s+/g, ' ').trim(), 'plain', QUOTED)}"`;
  const where =
    inertText(w.name, 'plain', 120) +
    (w.fieldPath !== undefined ? `, field ${inertText(w.fieldPath, 'plain', 80)}` : '');
  return `${where}: ${w.key === 'display_name' ? 'display name' : 'description'} ${quote(w.old)} → ${quote(w.new)}`;
}

function normalise(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * What the catalog's dataset has of what a push appends: its tags and glossary terms (URNs), its
 * owners with the URN of their ownership type (ownerTypeUrn), and per column (the schema's field
 * path) the tags and terms it has, ingested or edited.
 */
export interface CatalogLabels {
  tags: readonly string[];
  terms: readonly string[];
  owners: ReadonlyArray<{ owner: string; typeUrn: string }>;
  fields?: ReadonlyMap<string, { tags: readonly string[]; terms: readonly string[] }>;
}

/** The labels of a dataset the catalog has, by its URN; undefined when they were not read. */
export type LabelLookup = (datasetUrn: string) => CatalogLabels | undefined;

/** One tag, glossary term or owner a push appends to a dataset (`fieldPath` absent) or one of its columns. */
export interface LabelWrite {
  urn: string;
  /** The dataset as messages name it (`db.users`). */
  name: string;
  /** The column as the catalog's schema spells it. */
  fieldPath?: string;
  kind: 'tag' | 'term' | 'owner';
  /** The tag's, term's or owner's URN. */
  value: string;
  /** An owner's ownership type: an OwnershipType name or an `urn:li:ownershipType:` URN. */
  ownershipType?: string;
}

/**
 * The tags, glossary terms and owners the file (`entry` absent) or the entry whose dataset URN is
 * `entry` names and the catalog's dataset lacks, one write each, in file order: appends only,
 * nothing the file does not name is taken away. An owner counts as there when the dataset has that
 * owner with the same ownership type. An entry the catalog does not have, or whose labels were not
 * read, has none (yamlSyncPlan's notes say why); so has a field not in the catalog's schema.
 */
export function labelWrites(
  scan: ScanResult,
  lookup: ResolutionLookup,
  labels: LabelLookup,
  entry?: string,
): LabelWrite[] {
  if (scan.format !== 'datahub-dataset') return [];
  const out: LabelWrite[] = [];
  const seen = new Set<string>();
  for (const l of [...(scan.formatLabels ?? [])].sort((a, b) => a.start - b.start)) {
    const occ = scan.occurrences[l.owner];
    if (!occ?.parsed?.ok || occ.parsed.urn.kind !== 'dataset' || (entry ?? occ.urn) !== occ.urn) continue;
    const res = lookup(occ.urn);
    const has = labels(occ.urn);
    if (!res || res.state !== 'found' || res.kind !== 'dataset' || !has) continue;
    let fieldPath: string | undefined;
    let there: readonly string[];
    if (l.field !== undefined) {
      const found = findField(shownColumns(res.entity), l.field);
      if (!found || l.kind === 'owner') continue;
      fieldPath = found.fieldPath;
      const f = has.fields?.get(fieldPath);
      there = (l.kind === 'tag' ? f?.tags : f?.terms) ?? [];
    } else if (l.kind === 'owner') {
      const typeUrn = ownershipTypeUrn(l.ownershipType ?? 'TECHNICAL_OWNER');
      there = has.owners.filter((o) => o.typeUrn === typeUrn).map((o) => o.owner);
    } else {
      there = l.kind === 'tag' ? has.tags : has.terms;
    }
    if (there.includes(l.urn)) continue;
    const key = [occ.urn, fieldPath ?? '', l.kind, l.urn, l.ownershipType ?? ''].join('\n');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      urn: occ.urn,
      name: entityName(occ.parsed.urn),
      ...(fieldPath !== undefined ? { fieldPath } : {}),
      kind: l.kind,
      value: l.urn,
      ...(l.kind === 'owner' ? { ownershipType: l.ownershipType ?? 'TECHNICAL_OWNER' } : {}),
    });
  }
  return out;
}

/** One line that says a label write: `db.users: add tag pii`, `db.users: add owner jdoe (TECHNICAL_OWNER)`. */
export function labelLine(w: LabelWrite): string {
  const where =
    inertText(w.name, 'plain', 120) +
    (w.fieldPath !== undefined ? `, field ${inertText(w.fieldPath, 'plain', 80)}` : '');
  const parsed = parseUrnCached(w.value);
  const group = parsed.ok && parsed.urn.kind === 'other' && parsed.urn.entityType === 'corpGroup';
  const name = inertText(parsed.ok ? entityName(parsed.urn) : w.value, 'plain', 120);
  const what =
    w.kind === 'tag'
      ? `tag ${name}`
      : w.kind === 'term'
        ? `glossary term ${name}`
        : `owner ${group ? 'group ' : ''}${name} (${inertText(w.ownershipType ?? 'TECHNICAL_OWNER', 'plain', 120)})`;
  return `${where}: add ${what}`;
}
