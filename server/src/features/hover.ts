/**
 * The hover at a place in a document: what is under the cursor (the innermost URN, or a YAML
 * column beside a dataset URN), what the catalog must be asked about it, and its text per kind
 * (spec §2.4): a title line, the description, details, then a link footer (the
 * yaml-language-server layout). Pure: takes what the catalog answered, returns Markdown.
 */
import { findField, simplePath } from '../../../model/src/fieldPath';
import {
  shownColumns,
  shownDatasetDescription,
  shownMlDescription,
  type GqlDataset,
  type GqlMlFeature,
  type GqlMlFeatureTable,
  type GqlMlModel,
  type GqlMlModelGroup,
} from '../../../model/src/readShapes';
import { decodePart, type SchemaFieldUrn, type Urn } from '../../../model/src/urn';
import { KIND_LABELS, entityName, nearNames, urnParts } from '../../../model/src/entityNames';
import type { Settings } from '../../../model/src/protocol';
import type { Resolution, ResolutionLookup } from '../catalogClient/client';
import { hintFor } from '../catalogClient/errors';
import type { ScanResult, UrnOccurrence } from '../scan/types';
import { entityUrlFor } from './links';
import { lookupOf, type Lookup } from './lookup';
import { occurrenceAt } from './urnAt';
import { codeSpan, escapeMarkdown, safeDescription, tableCell } from './markdown';
import { doubleQuoted } from './yamlEdit';

/** A hover: its Markdown, and the range of the document it is about (offsets). */
export interface HoverAt {
  markdown: string;
  range: { start: number; end: number };
}

/** What the catalog must be asked for the hover at `offset`; undefined when the hover needs no answer. */
export function hoverLookupAt(scan: ScanResult, offset: number): Lookup | undefined {
  const at = occurrenceAt(scan, offset);
  return at ? lookupFor(at.occurrence) : undefined;
}

function lookupFor(o: UrnOccurrence): Lookup | undefined {
  return !o.template && o.parsed?.ok ? lookupOf(o.parsed.urn, o.urn) : undefined;
}

/**
 * The hover at `offset`, or undefined when no URN is there. `resolved` answers what
 * hoverLookupAt asked (the handler asks the catalog first); `settings` give the page link.
 */
export function hoverAt(
  scan: ScanResult,
  offset: number,
  settings: Settings,
  resolved: ResolutionLookup,
): HoverAt | undefined {
  const at = occurrenceAt(scan, offset);
  if (!at) return undefined;
  const { occurrence, column } = at;
  const lookup = lookupFor(occurrence);
  const resolution = lookup ? resolved(lookup.urn) : undefined;
  const parsed = occurrence.parsed;
  const entityUrl = parsed?.ok && !occurrence.template ? entityUrlFor(settings, parsed.urn, occurrence.urn) : undefined;
  const markdown = hoverFor({
    occurrence,
    ...(resolution ? { resolution } : {}),
    ...(column !== undefined ? { column } : {}),
    ...(entityUrl ? { entityUrl } : {}),
  });
  const range =
    column !== undefined && at.columnRange ? at.columnRange : { start: occurrence.start, end: occurrence.end };
  return { markdown, range };
}

export interface HoverInput {
  occurrence: UrnOccurrence;
  /** Absent for kinds that are not looked up (users, platforms, other DataHub kinds). */
  resolution?: Resolution;
  /** A YAML column name beside the dataset URN, when that is what is hovered. */
  column?: string;
  /** The entity's page in the catalog's web UI. */
  entityUrl?: string;
}

export function hoverFor(input: HoverInput): string {
  const { occurrence: occ } = input;
  if (occ.template)
    return `**Templated URN** ${codeSpan(occ.urn, 300)}\n\nParts are filled in at run time, so it is not looked up.`;
  const parsed = occ.parsed;
  if (occ.cutInFlow) {
    return `**Malformed URN**: in a YAML flow collection a comma ends an unquoted value, so this URN is cut at its first comma. Quote it:\n\n${codeSpan(doubleQuoted(occ.cutInFlow.urn), 300)}`;
  }
  if (!parsed || !parsed.ok) {
    const message = parsed && !parsed.ok ? parsed.error.message : 'not a URN';
    return `**Malformed URN**: ${escapeMarkdown(message, 400)}\n\n${codeSpan(occ.urn, 300)}`;
  }
  const urn = parsed.urn;
  const out: string[] = [];
  const res = input.resolution;
  out.push(title(urn));
  if (occ.builder) out.push(`Built by ${codeSpan(`${occ.builder}(…)`)} → ${codeSpan(occ.urn, 300)}`);

  if (urn.kind === 'schemaField' && urn.dataset && res && res.state !== 'error') {
    out.push(
      res.state === 'missing'
        ? `_Dataset ${codeSpan(entityName(urn.dataset))} is not in the catalog._`
        : res.kind === 'dataset'
          ? schemaFieldBody(res.entity, decodePart(urn.fieldPath), entityName(urn.dataset))
          : '',
    );
  } else if (!res) {
    out.push(partsLine(urn));
  } else if (res.state === 'missing') {
    out.push(partsLine(urn));
    out.push(`_Not in the catalog._`);
  } else if (res.state === 'error') {
    out.push(partsLine(urn));
    out.push(`⚠ ${escapeMarkdown(res.error.message, 300)} — ${escapeMarkdown(hintFor(res.error))}`);
  } else if (input.column !== undefined && res.kind === 'dataset') {
    out.push(columnHover(res.entity, input.column));
  } else {
    out.push(...body(res));
  }
  if (input.entityUrl && (!res || res.state !== 'missing')) out.push(`[Open in catalog](${input.entityUrl})`);
  return out.filter((s) => s !== '').join('\n\n');
}

function title(urn: Urn): string {
  if (urn.kind === 'schemaField') return schemaFieldTitle(urn);
  const platform = 'platform' in urn ? ` · ${escapeMarkdown(urn.platform)}` : '';
  const env = 'env' in urn ? ` · ${escapeMarkdown(urn.env)}` : '';
  const table = urn.kind === 'mlFeature' ? ` · table ${codeSpan(urn.table)}` : '';
  return `**${KIND_LABELS[urn.kind]}** ${codeSpan(entityName(urn))}${table}${platform}${env}`;
}

function partsLine(urn: Urn): string {
  return urnParts(urn)
    .map(([k, v]) => `${k}: ${codeSpan(v)}`)
    .join(' · ');
}

function description(text: string | null | undefined): string {
  return text && text.trim() ? safeDescription(text) : '_No description._';
}

function body(res: Extract<Resolution, { state: 'found' }>): string[] {
  switch (res.kind) {
    case 'dataset':
      return datasetBody(res.entity);
    case 'mlFeature':
      return featureBody(res.entity);
    case 'mlFeatureTable':
      return tableBody(res.entity);
    case 'mlModel':
      return modelBody(res.entity);
    case 'mlModelGroup':
      return groupBody(res.entity);
  }
}

const MAX_COLUMNS = 15;

function datasetBody(d: GqlDataset, maxColumns = MAX_COLUMNS): string[] {
  const out = [description(shownDatasetDescription(d))];
  const cols = shownColumns(d);
  if (cols.length > 0) {
    // A table row splits at pipes even inside a code span (and `\\|` is a backslash, then a split):
    // a path's pipes are shown as a look-alike, or the rest of the path would leave its code span.
    const rows = cols
      .slice(0, maxColumns)
      .map(
        (c) =>
          `| ${codeSpan(simplePath(c.fieldPath), 80).replace(/\|/g, '│')} | ${c.description ? tableCell(c.description) : '_none_'} |`,
      );
    const more =
      cols.length > maxColumns ? `\n\n…and ${cols.length - maxColumns} more columns (${cols.length} in all)` : '';
    const undocumented = cols.filter((c) => !c.description).length;
    out.push(`| column | description |\n| --- | --- |\n${rows.join('\n')}${more}`);
    if (undocumented > 0) out.push(`${undocumented} of ${cols.length} columns have no description.`);
  } else if (d.schemaMetadata === null) {
    out.push('_No schema in the catalog._');
  }
  return out;
}

function columnHover(d: GqlDataset, column: string): string {
  const cols = shownColumns(d);
  const col = findField(cols, column);
  const name = d.properties?.name ?? d.name ?? '';
  if (!col) return `Column ${codeSpan(column)} is not in the catalog's schema of ${codeSpan(name)}.`;
  return `Column ${codeSpan(simplePath(col.fieldPath))}${col.fieldPath !== simplePath(col.fieldPath) ? ` (${codeSpan(col.fieldPath, 120)})` : ''}\n\n${description(col.description)}`;
}

function schemaFieldTitle(urn: SchemaFieldUrn): string {
  const field = codeSpan(simplePath(decodePart(urn.fieldPath)), 120);
  const d = urn.dataset;
  if (!d) return `**Column** ${field} of ${codeSpan(urn.parent, 200)}`;
  return `**Column** ${field} · dataset ${codeSpan(entityName(d))} · ${escapeMarkdown(d.platform)} · ${escapeMarkdown(d.env)}`;
}

/** A schemaField's column as its dataset's schema has it: full path when it is a v2 one, type, description. */
function schemaFieldBody(d: GqlDataset, column: string, datasetName: string): string {
  const cols = shownColumns(d);
  const col = findField(cols, column);
  if (!col) {
    if (d.schemaMetadata === null) return '_No schema in the catalog._';
    const near = nearNames(
      column,
      cols.map((c) => simplePath(c.fieldPath)),
    );
    return `Column ${codeSpan(column, 120)} is not in the catalog's schema of ${codeSpan(datasetName)}.${near.length ? ` Did you mean ${near.map((n) => codeSpan(n, 80)).join(', ')}?` : ''}`;
  }
  const type = d.schemaMetadata?.fields.find((f) => f.fieldPath === col.fieldPath)?.nativeDataType;
  const details = [
    col.fieldPath !== simplePath(col.fieldPath) ? `path ${codeSpan(col.fieldPath, 120)}` : '',
    type ? `type ${codeSpan(type, 80)}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return [description(col.description), details].filter(Boolean).join('\n\n');
}

function featureBody(f: GqlMlFeature): string[] {
  const p = f.properties;
  const details = [
    p?.dataType ? `data type ${codeSpan(p.dataType)}` : '',
    p?.version?.versionTag ? `version ${codeSpan(p.version.versionTag)}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return [description(shownMlDescription(f)), details];
}

function tableBody(t: GqlMlFeatureTable): string[] {
  const features = (t.properties?.mlFeatures ?? []).filter((x): x is { urn?: string; name: string } => x !== null);
  const list =
    features.length > 0
      ? `Features (${features.length}): ${features
          .slice(0, 20)
          .map((x) => codeSpan(x.name))
          .join(', ')}${features.length > 20 ? ', …' : ''}`
      : 'No features.';
  return [description(shownMlDescription(t)), list];
}

function modelBody(m: GqlMlModel): string[] {
  const p = m.properties;
  const groups = (p?.groups ?? []).filter((g): g is { urn: string; name: string } => g !== null);
  const features = p?.mlFeatures ?? [];
  return [
    description(shownMlDescription(m)),
    [p?.type ? `type ${escapeMarkdown(p.type)}` : '', p?.version ? `version ${codeSpan(p.version)}` : '']
      .filter(Boolean)
      .join(' · '),
    groups.length > 0
      ? `Groups: ${groups
          .slice(0, 20)
          .map((g) => codeSpan(g.name))
          .join(', ')}${groups.length > 20 ? `, … (${groups.length} in all)` : ''}`
      : 'Groups: none',
    features.length > 0
      ? `Features (${features.length}): ${features
          .slice(0, 20)
          .map((f) => codeSpan(featureName(f)))
          .join(', ')}${features.length > 20 ? ', …' : ''}`
      : 'Features: none',
  ];
}

function groupBody(g: GqlMlModelGroup): string[] {
  return [description(shownMlDescription(g))];
}

function featureName(urn: string): string {
  const m = /,([^,()]*)\)$/.exec(urn);
  return m ? m[1]! : urn;
}
