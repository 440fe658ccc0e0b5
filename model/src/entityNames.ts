/**
 * How an entity is named to the user, shared by the server's hovers, diagnostics and write
 * results and the client's input boxes and quick picks: each kind's label and word, the entity's
 * own name, its parts, and the names near a mistyped one.
 */
import { CATALOG_KINDS, kindLabels, type CatalogKind } from './kinds';
import { decodePart, editDistance, type Urn } from './urn';

/**
 * Each kind as a hover's title or a message names it (`label`, the server's), and inside the
 * client's sentences (`word`; a kind without one is written as its URN spells it). The catalog
 * kinds' names are kinds.ts's.
 */
const KINDS: Readonly<Record<Urn['kind'], { label: string; word?: string }>> = {
  ...(Object.fromEntries(
    CATALOG_KINDS.map((kind) => {
      const { label, word } = kindLabels(kind);
      return [kind, { label, word }];
    }),
  ) as Record<CatalogKind, { label: string; word: string }>),
  corpuser: { label: 'User', word: 'user' },
  dataPlatform: { label: 'Data platform', word: 'platform' },
  schemaField: { label: 'Schema field' },
  other: { label: 'Entity' },
};

export const KIND_LABELS: Readonly<Record<Urn['kind'], string>> = Object.fromEntries(
  Object.entries(KINDS).map(([kind, { label }]) => [kind, label]),
) as Record<Urn['kind'], string>;

/** A kind, or the entity type of another kind, as a word in a sentence ("Expected a dataset URN"). */
export function kindWord(kind: string): string {
  return (Object.hasOwn(KINDS, kind) ? KINDS[kind as Urn['kind']].word : undefined) ?? kind;
}

/**
 * `a` or `an` before a word as it is read aloud: "an ML feature", "an assertion", "a user",
 * "a dataset" (an initialism read letter by letter whose first letter sounds a vowel takes `an`).
 */
export function article(word: string, capital = false): string {
  const an =
    (/^[aeio]/i.test(word) && !/^(?:one|eu)/i.test(word)) || /^(?:ML|SQL|MCP|LLM|FTS|RDS|S3|SLA|HDFS)\b/.test(word);
  const a = an ? 'an' : 'a';
  return capital ? `${a[0]!.toUpperCase()}${a.slice(1)}` : a;
}

/** `a`/`an` and the kind's word: "an ML feature", "a dataset". */
export function aKind(kind: string, capital = false): string {
  const word = kindWord(kind);
  return `${article(word, capital)} ${word}`;
}

/** The entity's own name, as a person reads it. */
export function entityName(urn: Urn): string {
  switch (urn.kind) {
    case 'dataset':
    case 'mlModel':
    case 'mlModelGroup':
      return decodePart(urn.name);
    case 'mlFeature':
      return decodePart(urn.feature);
    case 'mlFeatureTable':
      return decodePart(urn.table);
    case 'corpuser':
      return urn.user;
    case 'dataPlatform':
      return urn.platform;
    case 'schemaField':
      return decodePart(urn.fieldPath);
    case 'other':
      return urn.id;
  }
}

/**
 * The id people read in a URN: its name (entityName); of another kind's tuple key (a flow, a
 * job, a chart) the entity's own part: the last, or the one before an env
 * (`(airflow,daily_etl,PROD)` → `daily_etl`, `(urn:li:dataFlow:(…),load)` → `load`).
 */
export function displayId(urn: Urn): string {
  const id = entityName(urn);
  if (urn.kind !== 'other' || !id.startsWith('(') || !id.endsWith(')')) return id;
  const parts = tupleParts(id);
  const last = parts[parts.length - 1]!;
  const own = parts.length > 2 && /^[A-Z]+$/.test(last) ? parts[parts.length - 2]! : last;
  return decodePart(own);
}

/** The parts of a URN as label/value rows (the hover shows them even when the catalog cannot answer). */
export function urnParts(urn: Urn): Array<[string, string]> {
  switch (urn.kind) {
    case 'dataset':
    case 'mlModel':
    case 'mlModelGroup':
      return [
        ['platform', urn.platform],
        ['name', decodePart(urn.name)],
        ['env', urn.env],
      ];
    case 'mlFeature':
      return [
        ['feature table', decodePart(urn.table)],
        ['feature', decodePart(urn.feature)],
      ];
    case 'mlFeatureTable':
      return [
        ['platform', urn.platform],
        ['feature table', decodePart(urn.table)],
      ];
    case 'corpuser':
      return [['user', urn.user]];
    case 'dataPlatform':
      return [['platform', urn.platform]];
    case 'schemaField':
      return [
        ['parent', urn.parent],
        ['field path', decodePart(urn.fieldPath)],
      ];
    case 'other':
      return [
        ['entity type', urn.entityType],
        ['id', urn.id],
      ];
  }
}

/** At most `max` of `names` near `name` (a typo, another case, one inside the other), nearest first. */
export function nearNames(name: string, names: readonly string[], max = 3): string[] {
  const lower = name.toLowerCase();
  return names
    .map((n) => ({ n, d: editDistance(lower, n.toLowerCase(), Math.max(2, Math.floor(name.length / 3))) }))
    .filter(
      (x) =>
        x.d <= Math.max(2, Math.floor(name.length / 3)) ||
        x.n.toLowerCase().includes(lower) ||
        lower.includes(x.n.toLowerCase()),
    )
    .sort((a, b) => a.d - b.d)
    .slice(0, max)
    .map((x) => x.n);
}

/** The parts of a tuple id `(a,(b,c),d)` split at its top-level commas, as written (not decoded). */
export function tupleParts(id: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 1;
  for (let i = 1; i < id.length - 1; i++) {
    if (id[i] === '(') depth++;
    else if (id[i] === ')') depth--;
    else if (id[i] === ',' && depth === 0) {
      parts.push(id.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(id.slice(start, id.length - 1));
  return parts;
}
