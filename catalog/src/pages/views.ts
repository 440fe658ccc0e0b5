/**
 * One page per kind, as HTML built from the store's aspects (data.ts). Every value from the
 * catalog goes through `text()` or `markdownHtml()`; links to other pages through `pageHref`; links
 * out (institutional memory) only when they are http(s) URLs. A catalog entity's page shows what its
 * hover shows besides: the deprecation (note, decommission date, replacement), owners, tags, terms,
 * domain and the lineage one hop each way.
 */
import { textOf, type AspectName } from '../../../model/src/aspects';
import { displayId } from '../../../model/src/entityNames';
import { findField, simplePath } from '../../../model/src/fieldPath';
import { isCatalogKind } from '../../../model/src/kinds';
import { shownColumns } from '../../../model/src/readShapes';
import { decodePart, parseUrn, type Urn } from '../../../model/src/urn';
import { relationshipWords } from '../../../model/src/relationships';
import type { RawStoredAspect, StoredAspect } from '../store';
import { isObject, kindLabelOf, str, strings, type EntitySummary, type LineageHop, type PageData } from './data';
import { escapeHtml, text, when } from './html';
import { markdownHtml, summaryText } from './markdown';
import { pageHref } from './paths';

type Json = Record<string, unknown>;

/** Rows shown in one list before "N more". */
export const LIST_LIMIT = 200;

export interface EntityPage {
  title: string;
  body: string;
}

/** A link to a URN's page here (the URN's text as link text when no name is given). */
export function entityLink(urnText: string, label?: string): string {
  const href = pageHref(urnText);
  const shown = text(label ?? urnText);
  return href ? `<a href="${escapeHtml(href)}">${shown}</a>` : shown;
}

/** An http(s) URL as a safe href, or undefined (`javascript:`, `data:`, relative … are not links). */
export function httpHref(url: string): string | undefined {
  try {
    const u = new URL(url.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

function description(d: string | null): string {
  return d !== null && d.trim() !== '' ? markdownHtml(d) : '<p class="none">No description.</p>';
}

function facts(rows: Array<[string, string | undefined]>): string {
  const shown = rows.filter((r): r is [string, string] => r[1] !== undefined && r[1] !== '');
  return shown.length === 0
    ? ''
    : `<dl class="facts">${shown.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

function heading(kind: string, name: string, urnText: string, key: string): string {
  const stored = key !== urnText ? `<p class="urn note">Stored as <code>${text(key)}</code></p>` : '';
  return `<p class="kind">${escapeHtml(kind)}</p><h1>${text(name)}</h1><p class="urn"><code>${text(urnText)}</code></p>${stored}`;
}

function section(id: string, title: string, body: string): string {
  return `<section id="${id}"><h2>${title}</h2>${body}</section>`;
}

/** A table of entities (name linked, platform, first line of the description). */
export function entityTable(items: readonly EntitySummary[], showKind = false): string {
  if (items.length === 0) return '<p class="none">None.</p>';
  const rows = items
    .slice(0, LIST_LIMIT)
    .map(
      (e) =>
        `<tr><td>${entityLink(e.key, e.name)}<br><code class="note">${text(e.key)}</code></td>` +
        (showKind ? `<td>${escapeHtml(kindLabelOf(e.entityType).label)}</td>` : '') +
        `<td>${text(e.platform ?? '')}</td><td>${e.description ? summaryText(e.description) : '<span class="none">No description.</span>'}</td></tr>`,
    )
    .join('');
  const more =
    items.length > LIST_LIMIT
      ? `<p class="note">${items.length - LIST_LIMIT} more not shown: narrow the search.</p>`
      : '';
  return `<table><thead><tr><th>Name</th>${showKind ? '<th>Kind</th>' : ''}<th>Platform</th><th>Description</th></tr></thead><tbody>${rows}</tbody></table>${more}`;
}

/** URNs held in an aspect (sources, features, groups), each linked, marked when the catalog does not hold it. */
function referenceTable(
  data: PageData,
  urns: readonly string[],
  extra?: (props: Json | undefined) => string,
  extraTitle?: string,
): string {
  if (urns.length === 0) return '<p class="none">None.</p>';
  const rows = urns.slice(0, LIST_LIMIT).map((u) => {
    const ref = data.reference(u);
    const name = ref ? ref.summary.name : u;
    const missing = ref && !ref.exists ? ' <span class="badge absent">not in this catalog</span>' : '';
    const d = ref?.summary.description;
    return (
      `<tr><td>${entityLink(u, name)}${missing}<br><code class="note">${text(u)}</code></td>` +
      (extra ? `<td>${extra(ref?.props)}</td>` : '') +
      `<td>${d ? summaryText(d) : '<span class="none">No description.</span>'}</td></tr>`
    );
  });
  const more = urns.length > LIST_LIMIT ? `<p class="note">${urns.length - LIST_LIMIT} more not shown.</p>` : '';
  return `<table><thead><tr><th>Name</th>${extraTitle ? `<th>${extraTitle}</th>` : ''}<th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>${more}`;
}

/** Institutional memory: http(s) links as links, anything else as text saying it is not one. */
function linksSection(aspects: ReadonlyMap<AspectName, StoredAspect>): string {
  const v = aspects.get('institutionalMemory')?.value;
  const elements = Array.isArray(v?.['elements']) ? (v['elements'] as unknown[]).filter(isObject) : [];
  if (elements.length === 0) return section('links', 'Links', '<p class="none">No links.</p>');
  const items = elements.map((e) => {
    const url = str(e['url']) ?? '';
    const label = textOf(e['description']) || url;
    const href = httpHref(url);
    const stamp = isObject(e['createStamp']) ? e['createStamp'] : {};
    const by = str(stamp['actor']);
    const meta = by
      ? ` <span class="note">added by ${entityLink(by)}, ${escapeHtml(when(Number(stamp['time'])))}</span>`
      : '';
    return href
      ? `<li><a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow">${text(label)}</a> <span class="note">${text(url)}</span>${meta}</li>`
      : `<li>${text(label)} <span class="badge absent">not a web link</span> <code>${text(url)}</code>${meta}</li>`;
  });
  return section('links', `Links (${elements.length})`, `<ul>${items.join('')}</ul>`);
}

function customProperties(props: Json | undefined): string {
  const cp = isObject(props?.['customProperties']) ? props['customProperties'] : {};
  const entries = Object.entries(cp);
  if (entries.length === 0) return '';
  const rows = entries
    .map(
      ([k, v]) =>
        `<tr><td><code>${text(k)}</code></td><td>${text(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}</td></tr>`,
    )
    .join('');
  return section(
    'properties',
    'Properties',
    `<table><thead><tr><th>Key</th><th>Value</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

function lastChange(aspects: ReadonlyMap<string, RawStoredAspect>): string {
  let last: RawStoredAspect | undefined;
  for (const a of aspects.values()) if (!last || a.lastModified.time > last.lastModified.time) last = a;
  return last
    ? `<p class="note">Last changed ${escapeHtml(when(last.lastModified.time))} by ${entityLink(last.lastModified.actor)} (${escapeHtml(last.aspect)}, version ${last.version}).</p>`
    : '';
}

function metricTable(title: string, v: unknown): string {
  const items = Array.isArray(v) ? v.filter(isObject) : [];
  if (items.length === 0) return '';
  const rows = items
    .map(
      (m) =>
        `<tr><td>${text(str(m['name']) ?? '')}</td><td>${text(str(m['value']) ?? '')}</td><td>${text(str(m['description']) ?? '')}</td></tr>`,
    )
    .join('');
  return section(
    title.toLowerCase().replace(/\W+/g, '-'),
    title,
    `<table><thead><tr><th>Name</th><th>Value</th><th>Description</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

function platformLink(ns: string, platform: string): string {
  return entityLink(`urn:${ns}:dataPlatform:${platform}`, decodePart(platform));
}

export interface EntityInput {
  data: PageData;
  urn: Urn;
  /** The URN as the request wrote it. */
  urnText: string;
  key: string;
  summary: EntitySummary;
  aspects: Map<AspectName, StoredAspect>;
  /** `?highlightedPath=` of a column link. */
  highlightedPath: string | undefined;
}

export function entityPage(i: EntityInput): EntityPage {
  const props = (name: AspectName): Json | undefined => i.aspects.get(name)?.value;
  const u = i.urn;
  const lineage = isCatalogKind(u.kind) ? i.data.lineage(i.key, i.urnText, u.kind) : undefined;
  const head = (extra: Array<[string, string | undefined]>): string =>
    heading(kindLabelOf(i.summary.entityType).label, i.summary.name, i.urnText, i.key) +
    deprecationCallout(i.data, i.aspects) +
    facts([...extra, ...contextFacts(i.data, i.aspects, lineage)]);
  const lineageBody = lineage ? lineageSection(i.data, lineage) : '';
  let body: string;
  switch (u.kind) {
    case 'dataset': {
      const dp = props('datasetProperties');
      body =
        head([
          ['Platform', platformLink(u.namespace, u.platform)],
          ['Environment', text(u.env)],
          ['Qualified name', text(str(dp?.['qualifiedName']) ?? '')],
        ]) +
        section('description', 'Description', description(i.summary.description)) +
        columnsSection(i) +
        linksSection(i.aspects) +
        customProperties(dp);
      break;
    }
    case 'mlFeature': {
      const p = props('mlFeatureProperties');
      const version = isObject(p?.['version']) ? str(p['version']['versionTag']) : undefined;
      body =
        head([
          ['Feature namespace', text(decodePart(u.table))],
          ['Data type', text(str(p?.['dataType']) ?? '')],
          ['Version', text(version ?? '')],
        ]) +
        section('description', 'Description', description(i.summary.description)) +
        section('sources', 'Sources', referenceTable(i.data, strings(p?.['sources']))) +
        section(
          'tables',
          'In feature tables',
          entityTable(i.data.referrers('mlFeatureTableProperties', 'mlFeatures', i.key)),
        ) +
        section('models', 'Used by models', entityTable(i.data.referrers('mlModelProperties', 'mlFeatures', i.key))) +
        customProperties(p);
      break;
    }
    case 'mlFeatureTable': {
      const p = props('mlFeatureTableProperties');
      const features = strings(p?.['mlFeatures']);
      body =
        head([['Platform', platformLink(u.namespace, u.platform)]]) +
        section('description', 'Description', description(i.summary.description)) +
        section(
          'features',
          `Features (${features.length})`,
          referenceTable(i.data, features, dataTypeCell, 'Data type'),
        ) +
        customProperties(p);
      break;
    }
    case 'mlModel': {
      const p = props('mlModelProperties');
      const version =
        typeof p?.['version'] === 'string'
          ? p['version']
          : isObject(p?.['version'])
            ? str(p['version']['versionTag'])
            : undefined;
      const features = strings(p?.['mlFeatures']);
      const groups = strings(p?.['groups']);
      body =
        head([
          ['Platform', platformLink(u.namespace, u.platform)],
          ['Environment', text(u.env)],
          ['Type', text(str(p?.['type']) ?? '')],
          ['Version', text(version ?? '')],
        ]) +
        section('description', 'Description', description(i.summary.description)) +
        section('groups', `Groups (${groups.length})`, referenceTable(i.data, groups)) +
        section(
          'features',
          `Features (${features.length})`,
          referenceTable(i.data, features, dataTypeCell, 'Data type'),
        ) +
        metricTable('Training metrics', p?.['trainingMetrics']) +
        metricTable('Hyperparameters', p?.['hyperParams']) +
        linksSection(i.aspects) +
        customProperties(p);
      break;
    }
    case 'mlModelGroup': {
      const p = props('mlModelGroupProperties');
      const members = i.data.referrers('mlModelProperties', 'groups', i.key);
      body =
        head([
          ['Platform', platformLink(u.namespace, u.platform)],
          ['Environment', text(u.env)],
        ]) +
        section('description', 'Description', description(i.summary.description)) +
        section('members', `Models (${members.length})`, entityTable(members)) +
        customProperties(p);
      break;
    }
    default:
      body = '';
  }
  const raw = i.data.rawAspects(i.key);
  return {
    title: i.summary.name,
    body: body + lineageBody + linkedSection(i.data, i.urnText, raw) + aspectsSection(raw) + lastChange(raw),
  };
}

/** A URN as its page names it: linked when the catalog holds it, its name alone when not. */
function namedLink(data: PageData, urn: string): string {
  const ref = data.summaryOf(urn);
  if (!ref) return `<code>${text(urn)}</code>`;
  return ref.exists ? entityLink(urn, ref.summary.name) : text(ref.summary.name);
}

/** An enum word as words: `TECHNICAL_OWNER` → `technical owner`. */
function enumWords(s: string): string {
  return s.toLowerCase().replace(/_+/g, ' ').trim();
}

/** The day of an epoch time in milliseconds (`2026-12-31`), or undefined when there is none. */
function day(ms: unknown): string | undefined {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0) return undefined;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString().slice(0, 10);
}

/** "Deprecated (decommission 2026-12-31): note. Use X instead.", as the hover says it; nothing when not deprecated. */
function deprecationCallout(data: PageData, aspects: ReadonlyMap<AspectName, StoredAspect>): string {
  const d = aspects.get('deprecation')?.value;
  if (d?.['deprecated'] !== true) return '';
  const date = day(d['decommissionTime']);
  const note = str(d['note'])?.trim();
  const replacement = str(d['replacement']);
  const actor = str(d['actor']);
  return (
    `<p class="callout absent" id="deprecation"><strong>Deprecated</strong>` +
    (date ? ` (decommission ${escapeHtml(date)})` : '') +
    (note ? `: ${text(note)}` : '.') +
    (replacement ? ` Use ${namedLink(data, replacement)} instead.` : '') +
    (actor ? ` <span class="note">Marked by ${namedLink(data, actor)}.</span>` : '') +
    `</p>`
  );
}

/**
 * The facts the hover lists beside the description: owners (with their type), tags, glossary
 * terms, the domain, and the lineage counts linked to the Lineage section; a fact the catalog has
 * nothing for is left out.
 */
function contextFacts(
  data: PageData,
  aspects: ReadonlyMap<AspectName, StoredAspect>,
  lineage: Record<'upstream' | 'downstream', LineageHop[]> | undefined,
): Array<[string, string | undefined]> {
  const value = (name: AspectName): Json | undefined => aspects.get(name)?.value;
  const records = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
  const list = (items: string[]): string | undefined =>
    items.length === 0
      ? undefined
      : items.slice(0, LIST_LIMIT).join(', ') +
        (items.length > LIST_LIMIT ? ` and ${items.length - LIST_LIMIT} more` : '');
  const owners = records(value('ownership')?.['owners']).flatMap((o) => {
    const owner = str(o['owner']);
    if (!owner) return [];
    const type = str(o['type']);
    return [`${namedLink(data, owner)}${type ? ` <span class="note">(${text(enumWords(type))})</span>` : ''}`];
  });
  const tags = records(value('globalTags')?.['tags']).flatMap((t) => {
    const tag = str(t['tag']);
    return tag ? [namedLink(data, tag)] : [];
  });
  const terms = records(value('glossaryTerms')?.['terms']).flatMap((t) => {
    const term = str(t['urn']);
    return term ? [namedLink(data, term)] : [];
  });
  const domain = strings(value('domains')?.['domains'])[0];
  const counts =
    lineage && (lineage.upstream.length > 0 || lineage.downstream.length > 0)
      ? `<a href="#lineage">↑${lineage.upstream.length} upstream · ↓${lineage.downstream.length} downstream</a>`
      : undefined;
  return [
    ['Owners', list(owners)],
    ['Tags', list(tags)],
    ['Glossary terms', list(terms)],
    ['Domain', domain ? namedLink(data, domain) : undefined],
    ['Lineage', counts],
  ];
}

/** The entities one hop upstream and downstream, each linked with its kind and how it is related; nothing when there are none. */
function lineageSection(data: PageData, lineage: Record<'upstream' | 'downstream', LineageHop[]>): string {
  if (lineage.upstream.length === 0 && lineage.downstream.length === 0) return '';
  const table = (hops: LineageHop[], side: 'upstream' | 'downstream'): string => {
    if (hops.length === 0) return '<p class="none">None.</p>';
    const rows = hops
      .slice(0, LIST_LIMIT)
      .map(({ urn, type }) => {
        const ref = data.summaryOf(urn);
        const kind = ref ? kindLabelOf(ref.summary.entityType).label : '';
        const how = relationshipWords(type, side);
        return (
          `<tr><td>${namedLink(data, urn)}<br><code class="note">${text(urn)}</code></td>` +
          `<td>${escapeHtml(kind)}</td><td>${text(how)}</td></tr>`
        );
      })
      .join('');
    const more = hops.length > LIST_LIMIT ? `<p class="note">${hops.length - LIST_LIMIT} more not shown.</p>` : '';
    return `<table><thead><tr><th>Name</th><th>Kind</th><th>Relationship</th></tr></thead><tbody>${rows}</tbody></table>${more}`;
  };
  return section(
    'lineage',
    `Lineage (↑${lineage.upstream.length} ↓${lineage.downstream.length})`,
    `<h3>Upstream (${lineage.upstream.length})</h3>${table(lineage.upstream, 'upstream')}` +
      `<h3>Downstream (${lineage.downstream.length})</h3>${table(lineage.downstream, 'downstream')}`,
  );
}

/** Fields of audit stamps: who wrote an aspect is not an entity the aspect names. */
const STAMP_FIELDS = new Set(['actor', 'impersonator']);

/** The URNs an aspect value names (owners, tags, terms, parents, inputs …), in the order met, each once. */
function urnsIn(value: unknown, out: Set<string>, max: number): void {
  if (out.size >= max) return;
  if (typeof value === 'string') {
    if (value.startsWith('urn:') && parseUrn(value).ok) out.add(value);
  } else if (Array.isArray(value)) {
    for (const v of value) urnsIn(v, out, max);
  } else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) if (!STAMP_FIELDS.has(k)) urnsIn(v, out, max);
  }
}

/**
 * The entities the aspects name that have pages here, each with its name and kind and the aspects
 * naming it: linked when the catalog holds it, marked when it does not.
 */
function linkedSection(data: PageData, self: string, raw: ReadonlyMap<string, RawStoredAspect>): string {
  const where = new Map<string, string[]>();
  for (const a of [...raw.values()].sort((x, y) => x.aspect.localeCompare(y.aspect))) {
    const found = new Set<string>();
    urnsIn(a.value, found, LIST_LIMIT);
    for (const u of found) {
      if (u === self) continue;
      const aspects = where.get(u) ?? [];
      aspects.push(a.aspect);
      where.set(u, aspects);
    }
  }
  const rows = [...where]
    .slice(0, LIST_LIMIT)
    .flatMap(([u, aspects]) => {
      const ref = data.summaryOf(u);
      if (!ref) return [];
      // Only what is here is linked: an absent entity's page would be the not-found one.
      const name = ref.exists
        ? entityLink(u, ref.summary.name)
        : `${text(ref.summary.name)} <span class="badge absent">not in this catalog</span>`;
      return [
        `<tr><td>${name}<br><code class="note">${text(u)}</code></td>` +
          `<td>${escapeHtml(kindLabelOf(ref.summary.entityType).label)}</td>` +
          `<td>${aspects.map((a) => `<code>${text(a)}</code>`).join(', ')}</td></tr>`,
      ];
    })
    .join('');
  if (rows === '') return '';
  return section(
    'linked',
    'Linked entities',
    `<table><thead><tr><th>Name</th><th>Kind</th><th>Named in</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

/** Every stored aspect, by name: its version and last change, its JSON value in a collapsed block. */
function aspectsSection(raw: ReadonlyMap<string, RawStoredAspect>): string {
  const items = [...raw.values()]
    .sort((a, b) => a.aspect.localeCompare(b.aspect))
    .map(
      (a) =>
        `<details id="aspect-${escapeHtml(a.aspect)}"><summary><code>${text(a.aspect)}</code> <span class="note">version ${a.version}, ${escapeHtml(when(a.lastModified.time))}</span></summary>` +
        `<pre>${text(JSON.stringify(a.value, null, 2) ?? '')}</pre></details>`,
    )
    .join('');
  return section('aspects', `Aspects (${raw.size})`, items || '<p class="none">None.</p>');
}

export interface OtherEntityInput {
  data: PageData;
  urnText: string;
  key: string;
  summary: EntitySummary;
  aspects: ReadonlyMap<string, RawStoredAspect>;
  /** More sections of the kind (a user's links, a platform's entities), after the description. */
  extra?: string;
}

/**
 * The page of an entity of a kind that is not a catalog kind (a user, a tag, a term, a container,
 * a job …): its name as the hover shows it, its id, the hover's facts, its description, the
 * entities its aspects name, and every aspect.
 */
export function otherEntityPage(i: OtherEntityInput): EntityPage {
  const s = i.summary;
  const id = displayId(s.urn);
  const shown: Array<[string, string | undefined]> = [
    ['Id', `<code>${text(id)}</code>`],
    ...(s.facts ?? []).map(([label, value]): [string, string] => [label, text(value)]),
  ];
  const body =
    heading(kindLabelOf(s.entityType).label, s.name, i.urnText, i.key) +
    facts(shown) +
    section('description', 'Description', description(s.description)) +
    (i.extra ?? '') +
    linkedSection(i.data, i.urnText, i.aspects) +
    aspectsSection(i.aspects) +
    lastChange(i.aspects);
  return { title: s.name, body };
}

function dataTypeCell(props: Json | undefined): string {
  return text(str(props?.['dataType']) ?? '');
}

/** The columns, with the description the hovers show; `?highlightedPath=` marks one and names it first. */
function columnsSection(i: EntityInput): string {
  const schema = i.aspects.get('schemaMetadata')?.value;
  const editable = i.aspects.get('editableSchemaMetadata')?.value;
  const fields = Array.isArray(schema?.['fields']) ? (schema['fields'] as unknown[]).filter(isObject) : [];
  const infos = Array.isArray(editable?.['editableSchemaFieldInfo'])
    ? (editable['editableSchemaFieldInfo'] as unknown[]).filter(isObject)
    : [];
  const shown = shownColumns({
    urn: i.key,
    properties: null,
    editableProperties: null,
    schemaMetadata: {
      fields: fields.map((f) => ({ fieldPath: str(f['fieldPath']) ?? '', description: textOf(f['description']) })),
    },
    editableSchemaMetadata: {
      editableSchemaFieldInfo: infos.map((e) => ({
        fieldPath: str(e['fieldPath']) ?? '',
        description: textOf(e['description']),
      })),
    },
  });
  const wanted = i.highlightedPath;
  const hit = wanted !== undefined && wanted !== '' ? findField(shown, wanted) : undefined;
  const hitIndex = hit ? shown.indexOf(hit) : -1;
  let callout = '';
  if (wanted !== undefined && wanted !== '') {
    callout = hit
      ? `<p class="callout">Column <a href="#column-${hitIndex}"><code>${text(hit.fieldPath)}</code></a>${hit.description ? `: ${summaryText(hit.description)}` : ' has no description.'}</p>`
      : `<p class="callout absent">This dataset has no column <code>${text(wanted)}</code>.</p>`;
  }
  if (fields.length === 0) return section('columns', 'Columns', `${callout}<p class="none">No schema.</p>`);
  const rows = shown
    .map((c, n) => {
      const f = fields[n]!;
      const simple = simplePath(c.fieldPath);
      const path =
        simple !== c.fieldPath
          ? `<code>${text(simple)}</code><br><code class="note">${text(c.fieldPath)}</code>`
          : `<code>${text(c.fieldPath)}</code>`;
      const key = f['isPartOfKey'] === true ? ' <span class="badge">key</span>' : '';
      const edited = c.edited ? ' <span class="badge">edited</span>' : '';
      const desc = c.description ? markdownHtml(c.description) : '<span class="none">No description.</span>';
      return `<tr id="column-${n}"${n === hitIndex ? ' class="hl" aria-current="true"' : ''}><td>${path}${key}</td><td><code>${text(str(f['nativeDataType']) ?? '')}</code></td><td>${desc}${edited}</td></tr>`;
    })
    .join('');
  return section(
    'columns',
    `Columns (${fields.length})`,
    `${callout}<table><thead><tr><th>Field path</th><th>Native type</th><th>Description</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}
