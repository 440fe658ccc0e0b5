/**
 * The hover at a place in a document: what is under the cursor (the innermost URN, or a YAML
 * column beside a dataset URN), what the catalog must be asked about it, and its text per kind
 * (model/src/readShapes.ts): a title line, the description, details, then a link footer (the
 * yaml-language-server layout). Pure: takes what the catalog answered, returns Markdown.
 *
 * What VS Code puts in the same hover box (seen in code-server 4.139, test/e2e/editor.test.ts):
 * first the message of each diagnostic under the mouse, then this Markdown, then the tooltip of
 * the document link under the mouse as a link ("[Open in catalog](…) (ctrl + click)"), then
 * "View Problem · Quick Fix". So each thing is said once: what a diagnostic at the place says is
 * left out here, and over a document link (in an editor that shows link tooltips) so is the link.
 * Other editors (Neovim's `K`, Emacs' eldoc, Helix) show the hover alone: for them the hover starts
 * with the messages of the diagnostics at the place, as VS Code's box does (`diagnosticMessages`).
 * The box is at most max(editor height / 4, 250) px tall (ContentHoverWidget._updateMaxDimensions):
 * 250 px in a 1400×900 window, for all of it. Lists and descriptions are capped to fit it, with
 * the link row still in view; the catalog page has the rest.
 */
import { findField, simplePath } from '../../../model/src/fieldPath';
import {
  columnType,
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
import { KIND_LABELS, displayId, entityName, nearNames, urnParts } from '../../../model/src/entityNames';
import {
  firstValueAt,
  isCatalogKind,
  isViewKind,
  lookupLabels,
  valuesAt,
  viewOf,
  type ViewKind,
} from '../../../model/src/kinds';
import type { Settings } from '../../../model/src/protocol';
import { ClientCommands } from '../../../model/src/commandIds';
import type { Resolution, ResolutionLookup } from '../catalogClient/client';
import type { EntityContext } from '../resolution/context';
import { hintFor } from '../catalogClient/errors';
import type { ScanResult, UrnOccurrence } from '../scan/types';
import { rangesAt } from './intervals';
import { hoverPageUrl, linkAt } from './links';
import { lookupOf, type Lookup } from '../resolution/lookup';
import { occurrenceAt, type AtCursor } from './urnAt';
import { parseUrnCached } from '../scan/parseCache';
import { codeSpan, escapeMarkdown, noCodeSpans, safeDescription, tableCell } from './markdown';
import { doubleQuoted } from './yamlEdit';
import { diagnosticsFor, type DiagnosticCode, type PlainDiagnostic } from './diagnostics';
import { MESSAGE_LIMIT } from '../../../model/src/inertText';

/** A hover: its Markdown, and the range of the document it is about (offsets). */
export interface HoverAt {
  markdown: string;
  range: { start: number; end: number };
}

/** What the catalog must be asked for the hover at `offset`; undefined when the hover needs no answer. */
export function hoverLookupAt(scan: ScanResult, offset: number): Lookup | undefined {
  const at = occurrenceAt(scan, offset);
  return at ? hoverLookup(at) : undefined;
}

/** What the catalog must be asked for a hover on the URN `at`; undefined when the hover needs no answer. */
export function hoverLookup(at: AtCursor): Lookup | undefined {
  const o = at.occurrence;
  return !o.template && o.parsed?.ok ? lookupOf(o.parsed.urn, o.urn) : undefined;
}

/** What the editor shows beside a hover, so that the hover does not say it again. */
export interface HoverEditor {
  /**
   * The editor shows a document link's tooltip, as a link, in the hover over the link: VS Code
   * does (it declares `textDocument.documentLink.tooltipSupport`). The hover over a link then
   * leaves its own "Open in catalog" out.
   */
  linkTooltips?: boolean;
  /**
   * The diagnostics the editor shows for this version of the document (the ones last published).
   * Without them the hover checks the whole document again to know what they say: a cost that
   * grows with the document (~12 ms per hover at 100,000 URNs).
   */
  shown?: readonly PlainDiagnostic[];
  /**
   * The editor runs `catalogLens.showLineage` from a hover link (the Catalog Lens extension, which
   * trusts that one command in hovers): the lineage counts link to its lineage view.
   */
  lineageLinks?: boolean;
  /**
   * The editor does not show the diagnostics under the mouse in its hover (every editor but VS
   * Code): the hover starts with their messages, escaped, then what it says besides them.
   */
  diagnosticMessages?: boolean;
}

/**
 * The hover at `offset`, or undefined when no URN is there or a diagnostic there says all of it (in
 * an editor that shows it).
 * `resolved` answers what hoverLookupAt asked (the handler asks the catalog first, and the cache
 * answers the rest, as it does for the document's diagnostics); `settings` give the page link and
 * the diagnostics' levels.
 */
export function hoverAt(
  scan: ScanResult,
  offset: number,
  settings: Settings,
  resolved: ResolutionLookup,
  editor: HoverEditor = {},
  context?: EntityContext,
): HoverAt | undefined {
  const at = occurrenceAt(scan, offset);
  return at ? hoverOn(scan, at, offset, settings, resolved, editor, context) : undefined;
}

/** hoverAt for the URN `at` under the cursor, found once by the caller (occurrenceAt). */
export function hoverOn(
  scan: ScanResult,
  at: AtCursor,
  offset: number,
  settings: Settings,
  resolved: ResolutionLookup,
  editor: HoverEditor = {},
  context?: EntityContext,
): HoverAt | undefined {
  const { occurrence, column } = at;
  const lookup = hoverLookup(at);
  const resolution = lookup ? resolved(lookup.urn) : undefined;
  const parsed = occurrence.parsed;
  const linkShown = editor.linkTooltips === true && linkAt(scan, offset, settings);
  const here = rangesAt(editor.shown ?? diagnosticsFor(scan, resolved, settings.diagnostics), offset);
  const entityUrl =
    parsed?.ok && !occurrence.template && !linkShown ? hoverPageUrl(settings, parsed.urn, occurrence.urn) : undefined;
  const markdown = hoverFor({
    occurrence,
    ...(resolution ? { resolution } : {}),
    ...(column !== undefined ? { column } : {}),
    ...(entityUrl ? { entityUrl } : {}),
    ...(context && column === undefined ? { context } : {}),
    ...(editor.lineageLinks && lookup && isCatalogKind(lookup.kind) ? { lineageOf: lookup.urn } : {}),
    said: new Set(here.map((d) => d.code)),
  });
  const messages = editor.diagnosticMessages ? diagnosticLines(here) : [];
  const whole = [...messages, ...(messages.length > 0 && markdown !== '' ? ['---'] : []), markdown]
    .filter((s) => s !== '')
    .join('\n\n');
  if (whole === '') return undefined;
  const range =
    column !== undefined && at.columnRange ? at.columnRange : { start: occurrence.start, end: occurrence.end };
  return { markdown: whole, range };
}

/**
 * The hover at `offset` where no URN is (a YAML syntax error, a list member's place) for an editor
 * that does not show diagnostics in its hover: the messages of the diagnostics there, or undefined.
 * `diagnostics` are those the editor shows, or the document's check.
 */
export function diagnosticsHoverAt(diagnostics: readonly PlainDiagnostic[], offset: number): HoverAt | undefined {
  // An empty range (a YAML error at the end of the text) is at its one offset.
  const empty = diagnostics.filter((d) => d.start === offset && d.end === offset);
  const here = [...rangesAt(diagnostics, offset), ...empty];
  if (here.length === 0) return undefined;
  const range = { start: Math.min(...here.map((d) => d.start)), end: Math.max(...here.map((d) => d.end)) };
  return { markdown: diagnosticLines(here).join('\n\n'), range };
}

const SEVERITY_LABELS: Record<PlainDiagnostic['severity'], string> = {
  error: 'Error',
  warning: 'Warning',
  information: 'Info',
  hint: 'Hint',
};

/**
 * The messages of diagnostics, one paragraph each, as VS Code's hover box shows them above the
 * hover: its severity, then the message, escaped (it quotes the document and the catalog).
 */
function diagnosticLines(diagnostics: readonly PlainDiagnostic[]): string[] {
  return diagnostics.map((d) => `**${SEVERITY_LABELS[d.severity]}**: ${escapeMarkdown(d.message, MESSAGE_LIMIT)}`);
}

export interface HoverInput {
  occurrence: UrnOccurrence;
  /** Absent for kinds that are not looked up (users, platforms, other DataHub kinds). */
  resolution?: Resolution;
  /** A YAML column name beside the dataset URN, when that is what is hovered. */
  column?: string;
  /** The entity's page in the catalog's web UI; absent when the editor shows the page link itself. */
  entityUrl?: string;
  /** The codes of the diagnostics at the place: the editor shows their messages in the same box. */
  said?: ReadonlySet<DiagnosticCode>;
  /** What else the catalog knows of the entity (owners, tags, deprecation, lineage), when it answered. */
  context?: EntityContext;
  /** The entity whose lineage view the lineage counts open, when the editor can run that command. */
  lineageOf?: string;
}

/**
 * The Markdown last made per catalog answer (the Resolution object the client's cache holds), by
 * the rest of what it was made from: hovering again on an entity already shown (the mouse resting,
 * moving over the same URN) reuses it. A new answer is a new object, so it is never stale; the
 * entries go with the answers the cache drops.
 */
const madeFor = new WeakMap<Resolution, Map<string, { context: EntityContext | undefined; markdown: string }>>();
/** Texts kept per answer: the same entity hovered from a few places (columns, builders, diagnostics). */
const MADE_PER_ANSWER = 8;

/** The hover's Markdown; '' when a diagnostic at the place says all there is to say. */
export function hoverFor(input: HoverInput): string {
  const { occurrence: occ, resolution: res } = input;
  if (!res || occ.template || occ.cutInFlow || !occ.parsed?.ok) return makeHover(input);
  const key = [
    occ.urn,
    occ.builder ?? '',
    input.column ?? '',
    input.column === undefined ? 0 : 1,
    input.entityUrl ?? '',
    input.lineageOf ?? '',
    input.said ? [...input.said].sort().join(',') : '',
  ].join('\u0000');
  let made = madeFor.get(res);
  const hit = made?.get(key);
  if (hit && hit.context === input.context) return hit.markdown;
  const markdown = makeHover(input);
  if (!made) madeFor.set(res, (made = new Map()));
  else if (made.size >= MADE_PER_ANSWER && !made.has(key)) made.delete(made.keys().next().value as string);
  made.set(key, { context: input.context, markdown });
  return markdown;
}

function makeHover(input: HoverInput): string {
  const { occurrence: occ } = input;
  const said = input.said ?? new Set<DiagnosticCode>();
  if (occ.template)
    return `**Templated URN** ${codeSpan(occ.urn, 300)}\n\nParts are filled in at run time, so it is not looked up.`;
  const parsed = occ.parsed;
  // The diagnostic's message is the hover's whole text (the URN is right under the mouse).
  if (said.has('malformed-urn') && !(parsed?.ok ?? false)) return '';
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
  const looked = lookupOf(urn, occ.urn)?.kind;
  const view = looked !== undefined && isViewKind(looked) ? looked : undefined;
  out.push(view ? viewTitle(view, urn, res) : title(urn));
  if (occ.builder) out.push(`Built by ${codeSpan(`${occ.builder}(…)`)} → ${codeSpan(occ.urn, 300)}`);

  if (urn.kind === 'schemaField' && urn.dataset && res && res.state !== 'error') {
    out.push(
      res.state === 'missing'
        ? said.has('unknown-urn')
          ? ''
          : `_Dataset ${codeSpan(entityName(urn.dataset))} is not in the catalog._`
        : res.kind === 'dataset'
          ? schemaFieldBody(res.entity, decodePart(urn.fieldPath), entityName(urn.dataset), said)
          : '',
    );
  } else if (!res) {
    out.push(partsLine(urn));
  } else if (res.state === 'missing') {
    out.push(partsLine(urn));
    if (!said.has('unknown-urn')) out.push(`_Not in the catalog._`);
  } else if (res.state === 'error') {
    out.push(partsLine(urn));
    out.push(`⚠ ${escapeMarkdown(res.error.message, 300)} — ${escapeMarkdown(hintFor(res.error))}`);
  } else if (input.column !== undefined && res.kind === 'dataset') {
    out.push(columnHover(res.entity, input.column, said));
  } else {
    // The deprecation diagnostic at the place says the deprecation already (the editor shows it in the box).
    const extra = (input.context ? contextLines(input.context, input.lineageOf) : []).filter(
      (l) => !(said.has('deprecated-urn') && l.startsWith(DEPRECATED)),
    );
    // What the box holds besides the dataset's description and columns: they get the rest of its height.
    const room =
      BOX.height -
      BOX.frame -
      BOX.link -
      (said.size > 0 ? said.size * BOX.diagnostic + BOX.statusBar : 0) -
      [...out, ...extra, ...siblingLine(res.sibling)].reduce((h, p) => h + paragraphHeight(p), 0);
    out.push(...body(res, said, room, extra));
  }
  if (input.entityUrl && (!res || res.state !== 'missing')) out.push(`[Open in catalog](${input.entityUrl})`);
  return out.filter((s) => s !== '').join('\n\n');
}

/**
 * A looked-up-only entity's title: its kind, then the catalog's display name with the id beside it
 * when they differ (a GUID domain, a hashed container, a user's full name), else the id.
 */
function viewTitle(kind: ViewKind, urn: Urn, res: Resolution | undefined): string {
  const id = displayId(urn);
  const name = res?.state === 'found' ? firstValueAt(res.entity, viewOf(kind).name) : undefined;
  const label = `**${lookupLabels(kind).label}**`;
  return name && name !== id ? `${label} ${escapeMarkdown(name, 120)} · ${codeSpan(id)}` : `${label} ${codeSpan(id)}`;
}

/** A looked-up-only entity's body: its description (when the kind has one) and its facts on one line. */
function viewBody(kind: ViewKind, entity: unknown): string[] {
  const v = viewOf(kind);
  const text = firstValueAt(entity, v.description);
  const facts = v.facts.flatMap(([label, path, totalPath]) => {
    const values = valuesAt(entity, path);
    const shown = values.slice(0, MAX_LIST_NAMES).map((x) => escapeMarkdown(x.replace(/\s+/g, ' ').trim(), 80));
    // A list asked one page at a time counts what is beyond the page from its total.
    const total = totalPath === undefined ? NaN : Number(valuesAt(entity, totalPath)[0]);
    const count = Number.isInteger(total) && total > values.length ? total : values.length;
    const more = count > shown.length ? ` +${count - shown.length}` : '';
    return values.length > 0 ? [`${label}: ${shown.join(', ')}${more}`] : [];
  });
  return [text ? safeDescription(text, DESCRIPTION.chars, DESCRIPTION.lines) : '', facts.join(' · ')];
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

/**
 * How much of a description a hover shows: a whole-entity hover gets a few lines, a dataset hover
 * with its columns below two (the columns need the room). The cut ends in "…"; the page has it all.
 */
const DESCRIPTION = { chars: 400, lines: 4 };
const SHORT_DESCRIPTION = { chars: 160, lines: 2 };

/**
 * VS Code's hover box in a 1400×900 window, in px (code-server 4.139: hoverWidget.css and
 * ContentHoverWidget._updateMaxDimensions): at most max(editor height / 4, 250) tall; a border and
 * the contents' padding; lines of 1.5 × 13 px; 8 px between paragraphs; the document link's row
 * ("Open in catalog (ctrl + click)", or the hover's own link line); each diagnostic message at the
 * mouse in a row of its own, then "View Problem · Quick Fix". A dataset's columns get what the
 * rest leaves, so the link row stays in view (test/e2e/editor.test.ts measures it).
 */
const BOX = { height: 250, frame: 10, line: 19.5, gap: 8, link: 28.5, diagnostic: 27.5, statusBar: 22 };
/** Column lines a dataset shows however little room is left (then the box scrolls a little). */
const MIN_COLUMN_ROWS = 2;

/** The height a paragraph of the hover takes in the box: its lines of visible text, and the gap before it. */
function paragraphHeight(markdown: string): number {
  if (markdown === '') return 0;
  const lines = markdown
    .split('\n')
    .map((l) => visibleText(l).length)
    .reduce((n, chars) => n + Math.max(1, Math.ceil(chars / BOX_LINE_CHARS)), 0);
  return lines * BOX.line + BOX.gap;
}

/** The text a line of Markdown shows: a link's label without its target, no markup characters. */
function visibleText(markdown: string): string {
  return markdown.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*_\\]/g, '');
}

/** Names of a list (a table's features, a model's groups and features) before "and N more". */
export const MAX_LIST_NAMES = 5;

/** The description, or "No description." unless a diagnostic at the place says so already. */
function description(
  text: string | null | undefined,
  said: ReadonlySet<DiagnosticCode>,
  missing: DiagnosticCode,
  cap = DESCRIPTION,
): string {
  if (text && text.trim()) return safeDescription(text, cap.chars, cap.lines);
  return said.has(missing) ? '' : '_No description._';
}

/** The entity's body: a deprecation first, then its description, the context line, and its own details. */
function body(
  res: Extract<Resolution, { state: 'found' }>,
  said: ReadonlySet<DiagnosticCode>,
  room: number,
  context: readonly string[],
): string[] {
  const [first, ...rest] = ((): string[] => {
    switch (res.kind) {
      case 'dataset':
        return datasetBody(res.entity, said, room);
      case 'mlFeature':
        return featureBody(res.entity, said);
      case 'mlFeatureTable':
        return tableBody(res.entity, said);
      case 'mlModel':
        return modelBody(res.entity, said);
      case 'mlModelGroup':
        return groupBody(res.entity, said);
      default:
        return viewBody(res.kind, res.entity);
    }
  })();
  const deprecated = context.filter((l) => l.startsWith(DEPRECATED));
  const others = context.filter((l) => !l.startsWith(DEPRECATED));
  return [...deprecated, first ?? '', ...siblingLine(res.sibling), ...others, ...rest];
}

/** Where the text shown came from, when a sibling filled the dataset's own empty description or columns. */
function siblingLine(sibling: string | undefined): string[] {
  if (!sibling) return [];
  const parsed = parseUrnCached(sibling);
  const name = parsed.ok && parsed.urn.kind !== 'other' ? entityName(parsed.urn) : sibling;
  const platform = parsed.ok && 'platform' in parsed.urn ? ` (${escapeMarkdown(parsed.urn.platform, 40)})` : '';
  return [`_From its sibling ${codeSpan(name)}${platform}, as the catalog shows them together._`];
}

const DEPRECATED = '⚠ **Deprecated**';
/**
 * Characters of text one line of the hover box holds before it wraps: VS Code's box grows to about
 * two thirds of the editor's width (ContentHoverWidget._updateMaxDimensions, at least 500 px), ~96
 * characters of the hover font in a 1400 px window (seen in code-server, docs/screenshots).
 */
const BOX_LINE_CHARS = 96;
/** Names of each context list (owners, tags, terms) before "+N". */
const MAX_CONTEXT_NAMES = 3;

/** Up to MAX_CONTEXT_NAMES names, escaped, then "+N". */
function contextNames(names: readonly string[]): string {
  const shown = names.slice(0, MAX_CONTEXT_NAMES).map((n) => escapeMarkdown(n, 60));
  return names.length > shown.length ? `${shown.join(', ')} +${names.length - shown.length}` : shown.join(', ');
}

/**
 * What else the catalog knows, in at most two lines: the deprecation (note, decommission date,
 * replacement), and one line of owners · tags · terms · domain · lineage counts. Catalog text is
 * escaped and cut; a part the catalog has nothing for is left out.
 */
export function contextLines(c: EntityContext, lineageOf?: string): string[] {
  const out: string[] = [];
  if (c.deprecation) {
    const d = c.deprecation;
    const when = d.decommissionTime ? ` (decommission ${new Date(d.decommissionTime).toISOString().slice(0, 10)})` : '';
    const note = d.note.trim() ? `: ${escapeMarkdown(d.note.replace(/\s+/g, ' ').trim(), 160)}` : '';
    const use = d.replacement ? ` Use ${codeSpan(replacementName(d.replacement))} instead.` : '';
    out.push(`${DEPRECATED}${when}${note}${use}`);
  }
  const parts = [
    c.owners.length > 0 ? `Owners ${contextNames(c.owners)}` : '',
    c.tags.length > 0 ? `Tags ${contextNames(c.tags)}` : '',
    c.terms.length > 0 ? `Terms ${contextNames(c.terms)}` : '',
    c.domain ? `Domain ${escapeMarkdown(c.domain, 60)}` : '',
    // Counts of one hop, as DataHub's lineage tab starts: ↑ upstream, ↓ downstream.
    c.upstream || c.downstream ? lineageLink(`Lineage ↑${c.upstream ?? '?'} ↓${c.downstream ?? '?'}`, lineageOf) : '',
  ].filter(Boolean);
  if (parts.length > 0) out.push(parts.join(' · '));
  return out;
}

/**
 * `text` as a link that opens the lineage view of `urn` (a command of the Catalog Lens extension);
 * plain text without one. The argument is JSON, then percent-encoded with its parentheses too, so a
 * URN's `)` cannot end the link.
 */
function lineageLink(text: string, urn: string | undefined): string {
  if (urn === undefined) return text;
  const arg = encodeURIComponent(JSON.stringify({ urn })).replace(/\(/g, '%28').replace(/\)/g, '%29');
  return `[${text}](command:${ClientCommands.showLineage}?${arg} "Show the lineage view")`;
}

/** A replacement's name as its URN gives it (`db.users_v2`), or the URN when it is not one of ours. */
function replacementName(urn: string): string {
  const parsed = parseUrnCached(urn);
  return parsed.ok ? displayId(parsed.urn) : urn;
}

/**
 * A dataset's description (two lines when it has columns), then its columns, one line each (name,
 * native type, description cut to the line), as many as `room` px of the box hold; when some are
 * left out, a line of its own says how many, and how many of all have no description.
 */
function datasetBody(d: GqlDataset, said: ReadonlySet<DiagnosticCode>, room: number): string[] {
  const cols = shownColumns(d);
  const out = [
    description(
      shownDatasetDescription(d),
      said,
      'missing-description',
      cols.length > 0 ? SHORT_DESCRIPTION : DESCRIPTION,
    ),
  ];
  if (cols.length > 0) {
    const lines = Math.floor((room - paragraphHeight(out[0]!) - BOX.gap) / BOX.line);
    // All of them when they fit; else one line goes to the summary below.
    const shown = cols.length <= lines ? cols : cols.slice(0, Math.max(MIN_COLUMN_ROWS, lines - 1));
    // Each line ends in a hard break (two spaces) but the last: one paragraph, a line per column.
    const types = new Map((d.schemaMetadata?.fields ?? []).map((f) => [f.fieldPath, f.nativeDataType ?? null]));
    out.push(shown.map((c) => columnLine({ ...c, type: types.get(c.fieldPath) ?? null })).join('  \n'));
    if (shown.length < cols.length) {
      const undocumented = cols.filter((c) => !c.description).length;
      out.push(
        `_…and ${cols.length - shown.length} more · ${undocumented > 0 ? `${undocumented} of the ${cols.length} columns have no description` : `all ${cols.length} columns are described`}_`,
      );
    }
  } else if (d.schemaMetadata === null) {
    out.push('_No schema in the catalog._');
  }
  return out;
}

/**
 * "`user_id` bigint — Primary key of the user.": the column's simple path, its native type, and
 * its description cut so that the line fits the box's width.
 */
function columnLine(c: { fieldPath: string; description: string | null; type: string | null }): string {
  const name = codeSpan(simplePath(c.fieldPath), 60);
  const type = c.type ? ` ${escapeMarkdown(c.type.replace(/\s+/g, ' '), 30)}` : '';
  const room = Math.max(24, BOX_LINE_CHARS - visibleText(`${name}${type} — `).length);
  return `${name}${type} — ${c.description ? noCodeSpans(tableCell(c.description, room)) : '_no description_'}`;
}

/** " · type `bigint`" for a YAML column's title, or '' when the schema gives no type. */
function typeOf(d: GqlDataset, fieldPath: string): string {
  const type = columnType(d, fieldPath);
  return type ? ` · type ${codeSpan(type, 80)}` : '';
}

function columnHover(d: GqlDataset, column: string, said: ReadonlySet<DiagnosticCode>): string {
  const cols = shownColumns(d);
  const col = findField(cols, column);
  const name = d.properties?.name ?? d.name ?? '';
  if (!col) {
    if (said.has('unknown-column')) return '';
    return `Column ${codeSpan(column)} is not in the catalog's schema of ${codeSpan(name)}.`;
  }
  return [
    `Column ${codeSpan(simplePath(col.fieldPath))}${col.fieldPath !== simplePath(col.fieldPath) ? ` (${codeSpan(col.fieldPath, 120)})` : ''}${typeOf(d, col.fieldPath)}`,
    description(col.description, said, 'missing-column-description'),
  ]
    .filter(Boolean)
    .join('\n\n');
}

/** Up to MAX_LIST_NAMES names as code spans, then "and N more". */
function nameList(names: readonly string[]): string {
  const shown = names.slice(0, MAX_LIST_NAMES).map((n) => codeSpan(n));
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

function schemaFieldTitle(urn: SchemaFieldUrn): string {
  const field = codeSpan(simplePath(decodePart(urn.fieldPath)), 120);
  const d = urn.dataset;
  if (!d) return `**Column** ${field} of ${codeSpan(urn.parent, 200)}`;
  return `**Column** ${field} · dataset ${codeSpan(entityName(d))} · ${escapeMarkdown(d.platform)} · ${escapeMarkdown(d.env)}`;
}

/** A schemaField's column as its dataset's schema has it: full path when it is a v2 one, type, description. */
function schemaFieldBody(
  d: GqlDataset,
  column: string,
  datasetName: string,
  said: ReadonlySet<DiagnosticCode>,
): string {
  const cols = shownColumns(d);
  const col = findField(cols, column);
  if (!col) {
    if (d.schemaMetadata === null) return '_No schema in the catalog._';
    if (said.has('unknown-column')) return '';
    const near = nearNames(
      column,
      cols.map((c) => simplePath(c.fieldPath)),
    );
    return `Column ${codeSpan(column, 120)} is not in the catalog's schema of ${codeSpan(datasetName)}.${near.length ? ` Did you mean ${near.map((n) => codeSpan(n, 80)).join(', ')}?` : ''}`;
  }
  const type = columnType(d, col.fieldPath);
  const details = [
    col.fieldPath !== simplePath(col.fieldPath) ? `path ${codeSpan(col.fieldPath, 120)}` : '',
    type ? `type ${codeSpan(type, 80)}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return [description(col.description, said, 'missing-column-description'), details].filter(Boolean).join('\n\n');
}

function featureBody(f: GqlMlFeature, said: ReadonlySet<DiagnosticCode>): string[] {
  const p = f.properties;
  const details = [
    p?.dataType ? `data type ${codeSpan(p.dataType)}` : '',
    p?.version?.versionTag ? `version ${codeSpan(p.version.versionTag)}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return [description(shownMlDescription(f), said, 'missing-description'), details];
}

function tableBody(t: GqlMlFeatureTable, said: ReadonlySet<DiagnosticCode>): string[] {
  const features = (t.properties?.mlFeatures ?? []).filter((x): x is { urn?: string; name: string } => x !== null);
  const list =
    features.length > 0 ? `Features (${features.length}): ${nameList(features.map((x) => x.name))}` : 'No features.';
  return [description(shownMlDescription(t), said, 'missing-description'), list];
}

function modelBody(m: GqlMlModel, said: ReadonlySet<DiagnosticCode>): string[] {
  const p = m.properties;
  const groups = (p?.groups ?? []).filter((g): g is { urn: string; name: string } => g !== null);
  const features = p?.mlFeatures ?? [];
  return [
    description(shownMlDescription(m), said, 'missing-description'),
    [p?.type ? `type ${escapeMarkdown(p.type)}` : '', p?.version ? `version ${codeSpan(p.version)}` : '']
      .filter(Boolean)
      .join(' · '),
    // Groups and features share one line, whatever their number (at most 5 names each).
    `Groups: ${groups.length > 0 ? nameList(groups.map((g) => g.name)) : 'none'} · Features${features.length > 0 ? ` (${features.length}): ${nameList(features.map(featureName))}` : ': none'}`,
  ];
}

function groupBody(g: GqlMlModelGroup, said: ReadonlySet<DiagnosticCode>): string[] {
  return [description(shownMlDescription(g), said, 'missing-description')];
}

function featureName(urn: string): string {
  const m = /,([^,()]*)\)$/.exec(urn);
  return m ? m[1]! : urn;
}
