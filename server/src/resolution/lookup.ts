/**
 * What the catalog is asked for a URN in the document. The kinds of model/src/kinds.ts are looked up as themselves;
 * a schemaField names a column, so its parent dataset is looked up and the column read from its
 * schema (DataHub's UI does the same: a schemaField's page is its dataset's Columns tab).
 */
import { isLookupKind, type LookupKind } from '../../../model/src/kinds';
import { decodePart, type Urn } from '../../../model/src/urn';

export interface Lookup {
  urn: string;
  kind: LookupKind;
  /** For a schemaField: the column (field path as its dataset's schema spells it, decoded). */
  column?: string;
}

/** The lookup for `urn`, written `text` in the document; undefined for kinds the catalog is not asked about. */
export function lookupOf(urn: Urn, text: string): Lookup | undefined {
  if (urn.kind === 'schemaField') {
    return urn.dataset ? { urn: urn.parent, kind: 'dataset', column: decodePart(urn.fieldPath) } : undefined;
  }
  const kind = ownLookupKind(urn);
  return kind === undefined ? undefined : { urn: text, kind };
}

/** The kind a URN that is looked up as itself is asked for as (not a schemaField: its dataset is asked); undefined otherwise. */
export function ownLookupKind(urn: Urn): LookupKind | undefined {
  if (urn.kind === 'schemaField') return undefined;
  const word = urn.kind === 'other' ? (urn.registered === false ? undefined : urn.entityType) : urn.kind;
  return word !== undefined && isLookupKind(word) ? word : undefined;
}
