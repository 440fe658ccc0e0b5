/**
 * Diagnostics of one document from its scan and what the catalog answered. Pure.
 * Each diagnostic carries `data` (DiagnosticData) that code actions read — never the message.
 */
import {
  decodePart,
  FABRIC_TYPES,
  type PartRole,
  type PartSpan,
  type SchemaFieldUrn,
  type Urn,
} from '../../../model/src/urn';
import { findField, simplePath } from '../../../model/src/fieldPath';
import { editDistance, entityKey, parseUrn, suggestKind, type UrnError } from '../../../model/src/urn';
import { KIND_LABELS, displayId, entityName, nearNames } from '../../../model/src/entityNames';
import { firstValueAt, isViewKind, lookupLabels, viewOf } from '../../../model/src/kinds';
import { lookupOf } from '../resolution/lookup';
import {
  shownColumns,
  shownDatasetDescription,
  shownMlDescription,
  type GqlDataset,
  type GqlDeprecation,
} from '../../../model/src/readShapes';
import type { MembersParams, Settings, Severity } from '../../../model/src/protocol';
import type { Resolution, ResolutionLookup } from '../catalogClient/client';
import { builderPartRange } from '../scan/builderCall';
import { inertText, MESSAGE_LIMIT } from '../../../model/src/inertText';
import { quoteCatalogText } from '../catalogClient/errors';
import { suggestionNames, type SuggestionLookup } from '../resolution/didYouMean';
import type { ScanResult, UrnOccurrence, YamlDescription } from '../scan/types';
import { mapRange } from '../scan/sourceMap';
import { checkPropertyValues, type PropertyDefinitionShape } from '../formats/propertyValues';

/** The definition of a structured property that a file of the workspace gives, with that file's URI. */
export type PropertyDefinitionLookup = (
  urn: string,
) => { uri: string; definition: PropertyDefinitionShape } | undefined;

export type DiagnosticCode =
  | 'malformed-urn'
  | 'unknown-urn'
  | 'unknown-env'
  | 'missing-description'
  | 'missing-column-description'
  | 'unknown-column'
  | 'description-mismatch'
  | 'column-description-mismatch'
  | 'missing-list-member'
  | 'yaml-syntax'
  | 'unregistered-entity-type'
  | 'deprecated-urn'
  | 'datahub-format'
  | 'structured-property-value';

/** What a code action needs to know about a diagnostic. */
export interface DiagnosticData {
  code: DiagnosticCode;
  urn?: string;
  kind?: Urn['kind'];
  /** Column (as the schema names it) for column diagnostics. */
  fieldPath?: string;
  /** The YAML's text, for push/pull. */
  yamlText?: string;
  /** The catalog's text, for pull. */
  catalogText?: string;
  /** For missing list members: the owner (table or model) and which list. */
  owner?: string;
  list?: MembersParams['list'];
  /** For a URN cut by a YAML flow collection's comma: quoting the diagnostic's range (which holds `urn`) fixes it. */
  quote?: boolean;
  /** For an unknown env: the env as the URN spells it, and the environment DataHub has that it is near. */
  env?: string;
  suggestion?: string;
  /** For a deprecated entity: the URN the catalog names to use instead, when it names one. */
  replacement?: string;
  /** For a URN the catalog lacks: the URNs of the nearest entities it has (did-you-mean), nearest first. */
  suggestions?: string[];
  /** For an unknown column: the near names the catalog's schema has (did-you-mean), nearest first. */
  columns?: string[];
  /**
   * For a malformed URN that one change makes well-formed (an entity type's typo, a missing env):
   * the URN so changed, and the quick fix's title. `urn` is the URN as the document spells it.
   */
  rewrite?: { urn: string; title: string };
}

export interface PlainDiagnostic {
  start: number;
  end: number;
  severity: Exclude<Severity, 'off'>;
  message: string;
  code: DiagnosticCode;
  data: DiagnosticData;
}

export function diagnosticsFor(
  scan: ScanResult,
  resolve: ResolutionLookup,
  levels: Settings['diagnostics'],
  /** Near names the catalog knows for URNs it lacks (did-you-mean), when they were looked for. */
  suggestions: SuggestionLookup = () => undefined,
  /** Structured property definitions that files of the workspace give: checked against before the catalog's. */
  definitions: PropertyDefinitionLookup = () => undefined,
): PlainDiagnostic[] {
  const out: PlainDiagnostic[] = [];
  // Every message is one bounded plain line, whatever it quotes: a URN in the file can be a megabyte.
  const push = (level: Severity, d: Omit<PlainDiagnostic, 'severity'>): void => {
    if (level !== 'off') out.push({ ...d, message: inertText(d.message, 'plain', MESSAGE_LIMIT), severity: level });
  };
  // A list's members are compared as entities (li and svc alike): each text is parsed once per document.
  const keys = new Map<string, string>();
  const keyOf = (urn: string): string => {
    let key = keys.get(urn);
    if (key === undefined) keys.set(urn, (key = entityKey(urn)));
    return key;
  };
  for (const p of scan.problems) {
    push('warning', {
      start: p.start,
      end: p.end,
      message: p.message,
      code: 'yaml-syntax',
      data: { code: 'yaml-syntax' },
    });
  }
  for (const p of scan.formatProblems ?? []) {
    push(p.severity, {
      start: p.start,
      end: p.end,
      message: p.message,
      code: 'datahub-format',
      data: { code: 'datahub-format' },
    });
  }
  // The keys of an owner's members in the catalog, per list and kind: made once per owner entity.
  const memberKeys = new Map<object, Map<string, Set<string> | undefined>>();
  // The YAML description written beside each occurrence, by its index: the first one given for it.
  const described = new Map<number, YamlDescription['description']>();
  for (const d of scan.descriptions) if (!described.has(d.owner)) described.set(d.owner, d.description);
  for (let at = 0; at < scan.occurrences.length; at++) {
    const occ = scan.occurrences[at]!;
    if (occ.template || occ.parent !== undefined) continue;
    const parsed = occ.parsed;
    if (!parsed) continue;
    if (!parsed.ok) {
      if (occ.cutInFlow) {
        // The whole URN the author wrote is flagged, so the quick fix that quotes it is offered anywhere on it.
        push(levels.malformed, {
          start: occ.start,
          end: occ.cutInFlow.end,
          message:
            'Malformed URN: in a YAML flow collection a comma ends an unquoted value, so this URN is cut at its first comma: quote it',
          code: 'malformed-urn',
          data: { code: 'malformed-urn', urn: occ.cutInFlow.urn, quote: true },
        });
        continue;
      }
      const r = occ.errorRange ?? { start: occ.start, end: occ.end };
      const rewrite = rewriteOf(occ.urn, parsed.error);
      push(levels.malformed, {
        start: r.start,
        end: Math.max(r.end, r.start + 1),
        message: `Malformed URN: ${parsed.error.message}`,
        code: 'malformed-urn',
        data: { code: 'malformed-urn', urn: occ.urn, ...(rewrite ? { rewrite } : {}) },
      });
      continue;
    }
    const urn = parsed.urn;
    if (urn.kind === 'other' && urn.registered === false) {
      // A custom entity type: its key is unknown to DataHub's registry, so only the URN's frame was
      // checked; it is never looked up (isCatalogKind('other') is false), so nothing else is said.
      const kindPart = parsed.parts.find((p) => p.role === 'kind');
      const r = kindPart ? mapPart(occ, kindPart.start, kindPart.end) : occ;
      push(levels.unregisteredEntityType, {
        start: r.start,
        end: r.end,
        message: `'${inertText(urn.entityType, 'plain')}' is not an entity type DataHub knows; a custom type's URNs are not checked`,
        code: 'unregistered-entity-type',
        data: { code: 'unregistered-entity-type', urn: occ.urn, kind: 'other' },
      });
      continue;
    }
    // A schemaField's dataset is part of its name: its env is checked here, as the nested occurrence is not reported.
    const env = 'env' in urn ? urn.env : urn.kind === 'schemaField' ? urn.dataset?.env : undefined;
    if (env !== undefined && !FABRIC_TYPES.includes(env)) {
      const envPart = parsed.parts.find((p) => p.role === 'env');
      const r = envPart ? mapPart(occ, envPart.start, envPart.end) : occ;
      const near =
        FABRIC_TYPES.find((f) => f === env.toUpperCase()) ??
        FABRIC_TYPES.find((f) => editDistance(f, env.toUpperCase(), 1) <= 1);
      push(levels.unknownEnv, {
        start: r.start,
        end: r.end,
        message: `env '${inertText(env, 'plain')}' is not one of DataHub's environments${near ? ` (did you mean ${near}?)` : ''}`,
        code: 'unknown-env',
        // The quick fix replaces the env where the document spells it (codeActions: only while the
        // range still holds it, bare or as one string literal): `env` is the text it looks for.
        data: { code: 'unknown-env', urn: occ.urn, kind: urn.kind, env, ...(near ? { suggestion: near } : {}) },
      });
    }
    if (urn.kind === 'schemaField') {
      schemaFieldDiagnostics(occ, parsed.parts, urn, resolve, levels, push);
      continue;
    }
    const res = resolve(occ.urn);
    if (!res || res.state === 'error') continue;
    const looked = lookupOf(urn, occ.urn)?.kind;
    const view = looked !== undefined && isViewKind(looked) ? looked : undefined;
    // Made when a message needs it: most occurrences get none.
    let labelText: string | undefined;
    const label = (): string =>
      (labelText ??= view
        ? `${lookupLabels(view).label} ${inertText(viewName(view, res) ?? displayId(urn), 'plain')}`
        : `${KIND_LABELS[urn.kind]} ${inertText(entityName(urn), 'plain')}`);
    // What the file defines is created by DataHub's CLI from it: being absent is no problem.
    if (res.state === 'missing' && occ.defines) continue;
    if (res.state === 'missing') {
      const near = suggestions(occ.urn) ?? [];
      // A domain by name: DataHub's DomainRegistry tried the name as an id, then as a name.
      const how = occ.byName !== undefined ? ', by id or by name: DataHub refuses a domain it cannot resolve' : '';
      push(levels.unknown, {
        start: occ.start,
        end: occ.end,
        message: `${label()} is not in the catalog${how}${near.length > 0 ? `. Did you mean ${inertText(suggestionNames(near, occ.urn), 'plain')}?` : ''}`,
        code: 'unknown-urn',
        data: {
          code: 'unknown-urn',
          urn: occ.urn,
          kind: urn.kind,
          ...(near.length > 0 ? { suggestions: [...near] } : {}),
        },
      });
      continue;
    }
    const deprecation = res.entity.deprecation;
    if (deprecation?.deprecated === true) {
      const replacement = deprecation.replacement?.urn;
      push(levels.deprecated, {
        start: occ.start,
        end: occ.end,
        message: deprecatedMessage(label(), deprecation, replacement),
        code: 'deprecated-urn',
        data: { code: 'deprecated-urn', urn: occ.urn, kind: urn.kind, ...(replacement ? { replacement } : {}) },
      });
    }
    // Users, tags, containers …: looked up for their names, not checked for descriptions.
    if (view) continue;
    const desc = catalogDescription(res);
    const yamlDesc = described.get(at);
    if (yamlDesc && yamlDesc.value.trim() !== '' && normalise(yamlDesc.value) !== normalise(desc ?? '')) {
      push(levels.yamlMismatch, {
        start: yamlDesc.start,
        end: yamlDesc.end,
        message: desc
          ? `The catalog's description of ${label()} differs from this one`
          : `${label()} has no description in the catalog; this one can be pushed`,
        code: 'description-mismatch',
        data: {
          code: 'description-mismatch',
          urn: occ.urn,
          kind: urn.kind,
          yamlText: yamlDesc.value,
          ...(desc ? { catalogText: desc } : {}),
        },
      });
    } else if (!desc && !occ.defines) {
      push(levels.missingDescription, {
        start: occ.start,
        end: occ.end,
        message: `${label()} has no description`,
        code: 'missing-description',
        data: { code: 'missing-description', urn: occ.urn, kind: urn.kind },
      });
    }
    if (occ.yaml?.owner && occ.yaml.listKey) memberDiagnostic(occ, resolve, levels, push, keyOf, memberKeys);
  }
  columnDiagnostics(scan, resolve, levels, push);
  // A dataset file's structured property values, against the definition a structured properties
  // file of the workspace gives (what `datahub properties upsert` will write), else the catalog's.
  for (const given of scan.formatPropertyValues ?? []) {
    const local = definitions(given.urn);
    const res = local ? undefined : resolve(given.urn);
    const def = local
      ? local.definition
      : res?.state === 'found' && res.kind === 'structuredProperty'
        ? (res.entity as { definition?: PropertyDefinitionShape | null }).definition
        : undefined;
    if (!def) continue;
    const where = local ? ` (as ${inertText(lastSegment(local.uri), 'plain', 120)} defines it)` : '';
    for (const p of checkPropertyValues(given, def))
      push('warning', {
        ...p,
        message: `${p.message}${where}`,
        code: 'structured-property-value',
        data: { code: 'structured-property-value', urn: given.urn },
      });
  }
  return out;
}

type Push = (level: Severity, d: Omit<PlainDiagnostic, 'severity'>) => void;

/** The file name at the end of a URI, decoded when it can be. */
function lastSegment(uri: string): string {
  const name = uri.slice(uri.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * "Dataset db.users is deprecated (decommission 2026-01-01): Moved to v2. Use db.users_v2 instead."
 * The note is the catalog's text, folded to one line (the message is made inert by `push`).
 */
function deprecatedMessage(label: string, d: GqlDeprecation, replacement: string | undefined): string {
  const when =
    typeof d.decommissionTime === 'number' && d.decommissionTime > 0
      ? ` (decommission ${new Date(d.decommissionTime).toISOString().slice(0, 10)})`
      : '';
  const note = d.note?.trim() ? `: ${d.note.replace(/\s+/g, ' ').trim()}` : '';
  const parsed = replacement ? parseUrn(replacement) : undefined;
  const use = parsed?.ok ? ` Use ${displayId(parsed.urn)} instead.` : replacement ? ` Use ${replacement} instead.` : '';
  return `${label} is deprecated${when}${note}${/[.!?]$/.test(note) || !note ? '' : '.'}${use}`;
}

function columnDiagnostics(
  scan: ScanResult,
  resolve: ResolutionLookup,
  levels: Settings['diagnostics'],
  push: Push,
): void {
  for (const col of [...scan.columns, ...(scan.formatColumns ?? [])]) {
    const ds = scan.occurrences[col.dataset];
    if (!ds) continue;
    const res = resolve(ds.urn);
    if (!res || res.state !== 'found' || res.kind !== 'dataset') continue;
    const name = col.name.value;
    const field = findField(shownColumns(res.entity), name);
    const yaml = col.description?.value;
    if (field && yaml !== undefined && yaml.trim() !== '' && normalise(yaml) !== normalise(field.description ?? '')) {
      const column = inertText(name, 'plain');
      push(levels.yamlMismatch, {
        start: col.description!.start,
        end: col.description!.end,
        message: field.description
          ? `The catalog's description of column '${column}' differs from this one`
          : `Column '${column}' has no description in the catalog; this one can be pushed`,
        code: 'column-description-mismatch',
        data: {
          code: 'column-description-mismatch',
          urn: ds.urn,
          kind: 'dataset',
          fieldPath: field.fieldPath,
          yamlText: yaml,
          ...(field.description ? { catalogText: field.description } : {}),
        },
      });
      continue;
    }
    if (col.format) continue;
    const dsName = inertText(ds.parsed?.ok ? entityName(ds.parsed.urn) : ds.urn, 'plain');
    checkColumn(res.entity, ds.urn, dsName, name, { start: col.name.start, end: col.name.end }, levels, push);
  }
}

/**
 * A schemaField is a column of its parent: the parent dataset is looked up and the column read from
 * its schema, with the same messages as a column named beside a dataset in YAML.
 */
function schemaFieldDiagnostics(
  occ: UrnOccurrence,
  parts: readonly PartSpan[],
  urn: SchemaFieldUrn,
  resolve: ResolutionLookup,
  levels: Settings['diagnostics'],
  push: Push,
): void {
  const dataset = urn.dataset;
  if (!dataset) return;
  const res = resolve(urn.parent);
  if (!res || res.state === 'error') return;
  const dsName = inertText(entityName(dataset), 'plain');
  const part = (role: PartRole): { start: number; end: number } => {
    const p = parts.find((x) => x.role === role);
    return p ? mapPart(occ, p.start, p.end) : occ;
  };
  if (res.state === 'missing' && occ.defines) return;
  if (res.state === 'missing') {
    const r = part('parent');
    push(levels.unknown, {
      start: r.start,
      end: r.end,
      message: `Dataset ${dsName} is not in the catalog`,
      code: 'unknown-urn',
      data: { code: 'unknown-urn', urn: urn.parent, kind: 'dataset' },
    });
    return;
  }
  if (res.kind !== 'dataset') return;
  checkColumn(res.entity, urn.parent, dsName, decodePart(urn.fieldPath), part('fieldPath'), levels, push, occ.defines);
}

/** Whether the catalog's schema of a dataset has the column, and whether it is described. */
function checkColumn(
  entity: GqlDataset,
  datasetUrn: string,
  dsName: string,
  name: string,
  range: { start: number; end: number },
  levels: Settings['diagnostics'],
  push: Push,
  /** The field is an entry of a file that writes it (with its own description): only its presence is checked. */
  defined = false,
): void {
  const cols = shownColumns(entity);
  const field = findField(cols, name);
  const column = inertText(name, 'plain');
  if (!field) {
    if (entity.schemaMetadata === null) return;
    const near = nearNames(
      name,
      cols.map((c) => simplePath(c.fieldPath)),
    );
    push(levels.unknown, {
      start: range.start,
      end: range.end,
      message: `Column '${column}' is not in the catalog's schema of ${dsName}${near.length ? ` (did you mean ${near.map((n) => quoteCatalogText(n, 80)).join(', ')}?)` : ''}`,
      code: 'unknown-column',
      data: {
        code: 'unknown-column',
        urn: datasetUrn,
        kind: 'dataset',
        fieldPath: name,
        ...(near.length > 0 ? { columns: near } : {}),
      },
    });
    return;
  }
  if (!field.description && !defined) {
    push(levels.missingDescription, {
      start: range.start,
      end: range.end,
      message: `Column '${column}' of ${dsName} has no description`,
      code: 'missing-column-description',
      data: { code: 'missing-column-description', urn: datasetUrn, kind: 'dataset', fieldPath: field.fieldPath },
    });
  }
}

/** The env a quick fix adds to a URN that lacks one: DataHub's default (its builders' `env=PROD`). */
const DEFAULT_ENV = 'PROD';

/**
 * The one change that makes a malformed URN well-formed, when the error is one of these: an entity
 * type that is a typo of one DataHub knows (`datset`: the type the error suggests), or a
 * dataset's, model's or model group's key without its env (`,PROD` added). Only a change after
 * which the whole URN parses is offered.
 */
function rewriteOf(text: string, error: UrnError): DiagnosticData['rewrite'] {
  const bad = text.slice(error.offset, error.offset + error.length);
  const before = text.slice(0, error.offset);
  const ok = (urn: string): boolean => parseUrn(urn).ok;
  if (/urn:[^:()]+:$/.test(before) && text[error.offset + error.length] === ':') {
    const kind = suggestKind(bad);
    const urn = kind ? before + kind + text.slice(error.offset + error.length) : undefined;
    if (kind && urn && ok(urn)) return { urn, title: `Replace ${inertText(bad, 'plain', 60)} with ${kind}` };
    return undefined;
  }
  const kind = /urn:[^:()]+:(dataset|mlModel|mlModelGroup):$/.exec(before)?.[1];
  if (kind && bad.startsWith('(') && bad.endsWith(')') && error.offset + error.length <= text.length) {
    const urn = `${before}${bad.slice(0, -1)},${DEFAULT_ENV})${text.slice(error.offset + error.length)}`;
    const parsed = parseUrn(urn);
    if (parsed.ok && parsed.parts.some((p) => p.role === 'env' && urn.slice(p.start, p.end) === DEFAULT_ENV)) {
      return { urn, title: `Add env ${DEFAULT_ENV}` };
    }
  }
  return undefined;
}

/** A YAML list key → the catalog's list it mirrors (MembersParams' names). */
const LIST_KEYS: Record<string, MembersParams['list']> = {
  features: 'mlFeatures',
  mlFeatures: 'mlFeatures',
  ml_features: 'mlFeatures',
  groups: 'groups',
  model_groups: 'groups',
  modelGroups: 'groups',
};

function memberDiagnostic(
  occ: UrnOccurrence,
  resolve: ResolutionLookup,
  levels: Settings['diagnostics'],
  push: Push,
  keyOf: (urn: string) => string,
  memberKeys: Map<object, Map<string, Set<string> | undefined>>,
): void {
  const owner = occ.yaml!.owner!;
  const list = LIST_KEYS[occ.yaml!.listKey!];
  if (!list || !occ.parsed?.ok) return;
  const ownerRes = resolve(owner.urn);
  if (!ownerRes || ownerRes.state !== 'found') return;
  const member = occ.urn;
  const kind = occ.parsed.urn.kind;
  let byList = memberKeys.get(ownerRes.entity);
  if (!byList) memberKeys.set(ownerRes.entity, (byList = new Map()));
  const which = `${ownerRes.kind} ${list} ${kind}`;
  let keys = byList.get(which);
  if (!byList.has(which)) {
    let members: string[] | undefined;
    if (ownerRes.kind === 'mlFeatureTable' && list === 'mlFeatures' && kind === 'mlFeature') {
      members = (ownerRes.entity.properties?.mlFeatures ?? []).flatMap((f) => (f?.urn ? [f.urn] : []));
    } else if (ownerRes.kind === 'mlModel' && list === 'mlFeatures' && kind === 'mlFeature') {
      members = ownerRes.entity.properties?.mlFeatures ?? [];
    } else if (ownerRes.kind === 'mlModel' && list === 'groups' && kind === 'mlModelGroup') {
      members = (ownerRes.entity.properties?.groups ?? []).flatMap((g) => (g?.urn ? [g.urn] : []));
    }
    // The same entity whichever namespace word spells it (the local catalog treats li and svc alike).
    // Only texts: a catalog that answers a null among them (against DataHub's schema) is not followed there.
    keys = members && new Set(members.flatMap((m) => (typeof m === 'string' ? [keyOf(m)] : [])));
    byList.set(which, keys);
  }
  if (!keys || keys.has(keyOf(member))) return;
  const ownerParsed = parseUrn(owner.urn);
  const ownerName = ownerParsed.ok
    ? inertText(entityName(ownerParsed.urn), 'plain')
    : quoteCatalogText(String(ownerRes.entity.name ?? owner.urn), 80);
  push(levels.yamlMismatch, {
    start: occ.start,
    end: occ.end,
    message: `Not among the catalog's ${list === 'groups' ? 'groups' : 'features'} of ${ownerName}`,
    code: 'missing-list-member',
    data: { code: 'missing-list-member', urn: member, kind, owner: owner.urn, list },
  });
}

export function catalogDescription(res: Extract<Resolution, { state: 'found' }>): string | undefined {
  let d: string | null | undefined;
  switch (res.kind) {
    case 'dataset':
      d = shownDatasetDescription(res.entity);
      break;
    case 'mlFeature':
    case 'mlFeatureTable':
    case 'mlModel':
    case 'mlModelGroup':
      // Edited over ingested, as DataHub's UI shows it (readShapes.shownMlDescription).
      d = shownMlDescription(res.entity);
      break;
    default:
      d = firstValueAt(res.entity, viewOf(res.kind).description);
  }
  return d && d.trim() !== '' ? d : undefined;
}

/** A looked-up-only entity's display name, as the catalog answered it (kinds.ts `view.name`). */
function viewName(kind: Parameters<typeof viewOf>[0], res: Resolution): string | undefined {
  return res.state === 'found' ? firstValueAt(res.entity, viewOf(kind).name) : undefined;
}

function normalise(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * Document range of a part of the URN: for a builder call, the argument that wrote it; else through
 * the occurrence's source map (escapes, joined literals, YAML folding); the whole occurrence where
 * the source is not the URN text and no map says where it came from.
 */
export function mapPart(occ: UrnOccurrence, start: number, end: number): { start: number; end: number } {
  if (occ.source === 'builder') return builderPartRange(occ, start, end) ?? { start: occ.start, end: occ.end };
  if (occ.source === 'format') return builderPartRange(occ, start, end) ?? { start: occ.start, end: occ.end };
  if (occ.map) return mapRange(occ.map, start, end, occ.urn.length);
  if (occ.end - occ.start !== occ.urn.length) return { start: occ.start, end: occ.end };
  return { start: occ.start + start, end: occ.start + end };
}
