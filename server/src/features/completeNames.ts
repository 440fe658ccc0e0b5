/**
 * Completion of real entity names: where the cursor is writing an entity's
 * name — inside a URN literal after its platform (or feature table), or inside a string argument
 * of a builder call (`make_dataset_urn("hive", "us`), a URN class (`DatasetUrn(…)`, Java's
 * `new DatasetUrn(new DataPlatformUrn("hive"), "us`) or an SDK v2 entity (`Dataset(platform=…,
 * name="us`) — and, from what the catalog found, the items: the whole URN for a literal (so the
 * env and closing bracket come with it), the name alone for an argument. Pure: the server asks the
 * catalog in between (catalogClient/search.ts).
 */
import { CompletionItemKind, type CompletionItem, type Range } from 'vscode-languageserver';
import type { SearchItem } from '../../../model/src/protocol';
import { kindWord } from '../../../model/src/entityNames';
import { inertText } from '../../../model/src/inertText';
import { acceptCatalogUrn, insertionFor, type Destination } from '../../../model/src/insertion';
import { printUrn, withNamespace, type Urn } from '../../../model/src/urn';
import type { CatalogKind } from '../../../model/src/kinds';
import { destinationAt } from './destination';

/** Where a name is being written, and what the catalog is asked for it. */
export interface NameSlot {
  kind: CatalogKind;
  /** The name as typed so far (the search's query). */
  typed: string;
  platform?: string;
  /** For a feature: its feature table (namespace). */
  table?: string;
  /** Offsets in the document of what an item replaces (the cursor is inside). */
  from: number;
  to: number;
  /** `urn`: the item writes the whole URN in namespace `ns`; `name`: only the name. */
  insert: 'urn' | 'name';
  ns: string;
  /** What the item's text lands in (the literal or scalar around the slot). */
  destination: Destination;
}

/** A call that takes an entity's name: its kind, parameters in order, and which of them are the name, platform, table. */
interface NameCall {
  kind: CatalogKind;
  params: readonly string[];
  name: string;
  platform?: string;
  table?: string;
}

const PLATFORM_NAME_ENV = ['platform', 'name', 'env'] as const;
/**
 * The calls read here, after model/src/builders.ts (mce_builder), model/src/urnClasses.ts (URN
 * classes, SDK v2 entities) and the Java URN classes (li-utils' DatasetUrn.java …).
 */
const NAME_CALLS: Readonly<Record<string, NameCall>> = {
  make_dataset_urn: { kind: 'dataset', params: PLATFORM_NAME_ENV, name: 'name', platform: 'platform' },
  make_ml_model_urn: {
    kind: 'mlModel',
    params: ['platform', 'model_name', 'env'],
    name: 'model_name',
    platform: 'platform',
  },
  make_ml_model_group_urn: {
    kind: 'mlModelGroup',
    params: ['platform', 'group_name', 'env'],
    name: 'group_name',
    platform: 'platform',
  },
  make_ml_feature_table_urn: {
    kind: 'mlFeatureTable',
    params: ['platform', 'feature_table_name'],
    name: 'feature_table_name',
    platform: 'platform',
  },
  make_ml_feature_urn: {
    kind: 'mlFeature',
    params: ['feature_table_name', 'feature_name'],
    name: 'feature_name',
    table: 'feature_table_name',
  },
  DatasetUrn: { kind: 'dataset', params: PLATFORM_NAME_ENV, name: 'name', platform: 'platform' },
  MlModelUrn: { kind: 'mlModel', params: PLATFORM_NAME_ENV, name: 'name', platform: 'platform' },
  MLModelUrn: { kind: 'mlModel', params: PLATFORM_NAME_ENV, name: 'name', platform: 'platform' },
  MlModelGroupUrn: { kind: 'mlModelGroup', params: PLATFORM_NAME_ENV, name: 'name', platform: 'platform' },
  MlFeatureTableUrn: { kind: 'mlFeatureTable', params: ['platform', 'name'], name: 'name', platform: 'platform' },
  MLFeatureTableUrn: { kind: 'mlFeatureTable', params: ['platform', 'name'], name: 'name', platform: 'platform' },
  MlFeatureUrn: { kind: 'mlFeature', params: ['feature_namespace', 'name'], name: 'name', table: 'feature_namespace' },
  MLFeatureUrn: { kind: 'mlFeature', params: ['feature_namespace', 'name'], name: 'name', table: 'feature_namespace' },
  'DatasetUrn.create_from_ids': {
    kind: 'dataset',
    params: ['platform_id', 'table_name', 'env', 'platform_instance'],
    name: 'table_name',
    platform: 'platform_id',
  },
  // datahub.sdk (v2): keyword arguments, the order of the leading ones not pinned down.
  Dataset: {
    kind: 'dataset',
    params: ['platform', 'name', 'platform_instance', 'env'],
    name: 'name',
    platform: 'platform',
  },
  MLModel: { kind: 'mlModel', params: ['id', 'platform'], name: 'id', platform: 'platform' },
  MLModelGroup: { kind: 'mlModelGroup', params: ['id', 'platform'], name: 'id', platform: 'platform' },
};

/** How far back a call's start is looked for. */
const LOOK_BACK = 1500;

const ARG = String.raw`\s*(?:[A-Za-z_]\w*\s*=\s*)?(?:"[^"\n]*"|'[^'\n]*'|[\w.]+|new\s+\w+\s*\(\s*"[^"\n]*"\s*\))\s*`;
const CALL_RE = new RegExp(
  String.raw`(?:^|[^\w.])((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)\s*\(((?:${ARG},)*)\s*(?:([A-Za-z_]\w*)\s*=\s*)?(["'])([^"'\\\n]*)$`,
);
const ARG_RE = new RegExp(
  String.raw`\s*(?:([A-Za-z_]\w*)\s*=\s*)?(?:"([^"\n]*)"|'([^'\n]*)'|([\w.]+)|new\s+\w+\s*\(\s*"([^"\n]*)"\s*\))\s*,`,
  'y',
);

/** `urn:li:dataPlatform:hive` (any word) or `hive` → `hive`. */
function platformOf(value: string): string {
  const m = /^urn:[^:]+:dataPlatform:(.+)$/.exec(value);
  return m ? m[1]! : value;
}

/**
 * The slot at `offset` of `text`, when a name is being written there; `namespaces` are the words
 * URN literals are recognised in.
 */
export function nameSlotAt(
  text: string,
  offset: number,
  namespaces: readonly string[],
  languageId: string,
): NameSlot | undefined {
  const start = Math.max(0, offset - LOOK_BACK);
  const before = text.slice(start, offset);
  const after = text.slice(offset, offset + 300);
  const slot = literalSlot(before, after, offset, namespaces) ?? callSlot(before, after, offset);
  return (
    slot && {
      ...slot,
      destination: destinationAt(text, slot.insert === 'urn' ? slot.from : offset - slot.typed.length, languageId),
    }
  );
}

function literalSlot(
  before: string,
  after: string,
  offset: number,
  namespaces: readonly string[],
): Omit<NameSlot, 'destination'> | undefined {
  const nsAlt = namespaces.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  if (!nsAlt) return undefined;
  const NAME = String.raw`[^,()\s'"\x60]*`;
  // The rest of the URN after the cursor: what an item replaces too.
  const rest = new RegExp(String.raw`^${NAME}(?:,[A-Za-z_]*)?\)?`).exec(after)?.[0].length ?? 0;
  const slot = (
    m: RegExpExecArray,
    kind: CatalogKind,
    part: { platform: string } | { table: string },
  ): Omit<NameSlot, 'destination'> => ({
    kind,
    typed: m[m.length - 1]!,
    ...part,
    from: offset - m[0].length,
    to: offset + rest,
    insert: 'urn',
    ns: m[1]!,
  });
  const m = new RegExp(
    String.raw`urn:(${nsAlt}):(dataset|mlModel|mlModelGroup|mlFeatureTable):\(urn:\1:dataPlatform:([^,()\s]+),(${NAME})$`,
  ).exec(before);
  if (m) return slot(m, m[2] as CatalogKind, { platform: m[3]! });
  const f = new RegExp(String.raw`urn:(${nsAlt}):mlFeature:\(([^,()\s]+),(${NAME})$`).exec(before);
  if (f) return slot(f, 'mlFeature', { table: f[2]! });
  return undefined;
}

function callSlot(before: string, after: string, offset: number): Omit<NameSlot, 'destination'> | undefined {
  const m = CALL_RE.exec(before);
  if (!m) return undefined;
  const callee = m[1]!;
  const call = NAME_CALLS[callee] ?? NAME_CALLS[callee.slice(callee.lastIndexOf('.') + 1)];
  if (!call) return undefined;
  // The arguments before this one: positional ones fill the parameters in order, keywords by name.
  const values = new Map<string, string>();
  let positional = 0;
  const args = m[2]!;
  ARG_RE.lastIndex = 0;
  for (let a = ARG_RE.exec(args); a; a = ARG_RE.exec(args)) {
    const param = a[1] ?? call.params[positional++];
    const value = a[2] ?? a[3] ?? a[5];
    if (param !== undefined && value !== undefined) values.set(param, value);
  }
  const param = m[3] ?? call.params[positional];
  if (param !== call.name) return undefined;
  const quote = m[4]!;
  const typed = m[5]!;
  const rest = after.indexOf(quote);
  const tail = rest >= 0 && !after.slice(0, rest).includes('\n') ? rest : 0;
  const platform = call.platform !== undefined ? values.get(call.platform) : undefined;
  const table = call.table !== undefined ? values.get(call.table) : undefined;
  return {
    kind: call.kind,
    typed,
    ...(platform ? { platform: platformOf(platform) } : {}),
    ...(table ? { table } : {}),
    from: offset - typed.length,
    to: offset + tail,
    insert: 'name',
    ns: 'li',
  };
}

/** The name as the URN spells it (DataHub's reserved-character escapes kept): what a builder argument takes. */
function spelledName(urn: Urn): string | undefined {
  switch (urn.kind) {
    case 'dataset':
    case 'mlModel':
    case 'mlModelGroup':
      return urn.name;
    case 'mlFeatureTable':
      return urn.table;
    case 'mlFeature':
      return urn.feature;
    default:
      return undefined;
  }
}

/** Whether `urn` fits the slot: its platform and feature table (a catalog may ignore a filter). */
function fits(slot: NameSlot, urn: Urn): boolean {
  if (slot.platform !== undefined && 'platform' in urn && urn.kind !== 'dataPlatform' && urn.platform !== slot.platform)
    return false;
  if (slot.table !== undefined && (urn.kind !== 'mlFeature' || urn.table !== slot.table)) return false;
  return true;
}

/**
 * The completion items of what the catalog found for `slot`, in the catalog's order; `range` is
 * the slot's. An item is offered only for a well-formed URN of the slot's kind whose text the
 * slot's literal can hold as it is (model/src/insertion.ts); `refused` hears of every other one.
 * The label is the name exactly as it is inserted.
 */
export function nameItems(
  slot: NameSlot,
  found: readonly SearchItem[],
  range: Range,
  refused: (urn: string, reason: string) => void = () => {},
): CompletionItem[] {
  const items: CompletionItem[] = [];
  const seen = new Set<string>();
  for (const item of found) {
    const accepted = acceptCatalogUrn(item.urn, [slot.kind]);
    if (!accepted.ok) {
      refused(item.urn, accepted.reason);
      continue;
    }
    if (!fits(slot, accepted.urn)) continue;
    const urn = printUrn(withNamespace(accepted.urn, slot.ns));
    const name = spelledName(accepted.urn);
    if (name === undefined) continue;
    const written = insertionFor(slot.insert === 'urn' ? urn : name, slot.destination);
    if (!written.ok) {
      refused(item.urn, written.reason);
      continue;
    }
    const newText = written.text;
    if (seen.has(newText)) continue;
    seen.add(newText);
    const where = item.platform ?? (accepted.urn.kind === 'mlFeature' ? accepted.urn.table : undefined);
    const description = item.description
      ? inertText(item.description, 'markdown', 600)
      : '*No description in the catalog.*';
    items.push({
      label: name,
      kind: CompletionItemKind.Reference,
      detail: `${where ? `${inertText(where, 'plain', 60)} ` : ''}${kindWord(item.kind)}`,
      labelDetails: { description: where ? inertText(where, 'plain', 60) : kindWord(item.kind) },
      documentation: { kind: 'markdown', value: `${description}\n\n\`${urn.replace(/`/g, '')}\`` },
      // The catalog ranked them: that order, as the editor sorts by sortText.
      sortText: String(items.length).padStart(4, '0'),
      filterText: newText,
      textEdit: { range, newText },
    });
  }
  return items;
}
