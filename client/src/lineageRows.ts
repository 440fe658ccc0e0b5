/**
 * The rows of the lineage view, as plain data: what each row says, and whether it opens
 * onto the next hop. Pure, so it is tested without VS Code (test/client/lineageRows.test.ts);
 * lineageView.ts turns rows into tree items.
 */
import { inertText } from '../../model/src/inertText';
import { KIND_LABELS } from '../../model/src/entityNames';
import { isCatalogKind } from '../../model/src/kinds';
import type { LineageItem, LineageResult } from '../../model/src/protocol';
import { relationshipWords, type LineageSide } from '../../model/src/relationships';

export type Direction = LineageSide;

export type LineageRow =
  | {
      kind: 'entity';
      item: LineageItem;
      direction: Direction;
      /** Hops from the entity the view was opened on (1 for its neighbours). */
      degree: number;
      label: string;
      description: string;
      tooltip: string;
      expandable: boolean;
    }
  | { kind: 'note'; label: string; tooltip?: string };

/** A kind word as the hover says it (`Dataset`, `ML feature` …), or DataHub's type for others. */
export function kindLabel(kind: string): string {
  return (KIND_LABELS as Readonly<Record<string, string>>)[kind] ?? kind;
}

/** The rows one hop `direction` of an entity, `degree` hops from the view's root. */
export function lineageRows(result: LineageResult, direction: Direction, degree: number): LineageRow[] {
  if (result.error !== undefined)
    return [{ kind: 'note', label: `Could not read the lineage: ${inertText(result.error, 'plain', 300)}` }];
  if (result.items.length === 0)
    return [{ kind: 'note', label: direction === 'upstream' ? 'Nothing upstream' : 'Nothing downstream' }];
  const rows: LineageRow[] = result.items.map((item) => {
    const name = inertText(item.name, 'plain', 120);
    const parts = [
      kindLabel(item.kind),
      item.platform ? inertText(item.platform, 'plain', 60) : '',
      // How it is related to the row it opened from (model/src/relationships.ts, as the catalog's pages say it).
      inertText(relationshipWords(item.relationship, direction), 'plain', 60),
    ];
    return {
      kind: 'entity',
      item,
      direction,
      degree,
      label: name,
      description: parts.filter(Boolean).join(' · '),
      tooltip: `${inertText(item.urn, 'plain', 1000)}${item.relationship ? `\nDataHub relationship: ${inertText(item.relationship, 'plain', 60)}` : ''}`,
      // The catalog is asked about the lineage of the catalog kinds: their rows open onto the next hop.
      expandable: isCatalogKind(item.kind),
    };
  });
  const more = result.total - result.items.length;
  if (more > 0)
    rows.push({
      kind: 'note',
      label: `…and ${more} more in the catalog`,
      tooltip: 'Open the entity in the catalog to see all of them.',
    });
  return rows;
}
