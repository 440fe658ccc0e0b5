/**
 * What the user types and reads in input boxes and quick picks: URN checks, descriptions on one
 * line, labels for URNs. No `vscode` here, so it is unit-tested on its own.
 */
import { aKind, article, kindWord } from '../../model/src/entityNames';
import type { CatalogKind } from '../../model/src/kinds';
import { decodePart, entityTypeOf, parseUrn } from '../../model/src/urn';

/** An error message for a typed URN, or undefined when it is a URN of one of `kinds`. */
export function checkUrnText(text: string, kinds: readonly CatalogKind[]): string | undefined {
  const t = text.trim();
  if (t === '') return `Enter a ${kinds.map(kindWord).join(' or ')} URN, e.g. ${exampleUrn(kinds[0] ?? 'dataset')}`;
  if (!t.startsWith('urn:')) return "A URN starts with 'urn:'";
  const p = parseUrn(t);
  if (!p.ok) return `${p.error.message} (at character ${p.error.offset + 1})`;
  if (kinds.length > 0 && !(kinds as readonly string[]).includes(p.urn.kind))
    return `Expected ${article(kindWord(kinds[0]!))} ${kinds.map(kindWord).join(' or ')} URN, this is ${aKind(entityTypeOf(p.urn))} URN`;
  return undefined;
}

export function exampleUrn(kind: CatalogKind): string {
  switch (kind) {
    case 'mlFeature':
      return 'urn:li:mlFeature:(users_table,age)';
    case 'mlFeatureTable':
      return 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users_table)';
    case 'mlModel':
      return 'urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)';
    case 'mlModelGroup':
      return 'urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,churn_models,PROD)';
    default:
      return 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
  }
}

/** The name a person reads for a URN (its last meaningful part, decoded) and where it lives. */
export function urnLabel(text: string): { label: string; description: string } {
  const p = parseUrn(text);
  if (!p.ok) return { label: text, description: '' };
  const u = p.urn;
  switch (u.kind) {
    case 'dataset':
      return { label: decodePart(u.name), description: `${u.platform} · ${u.env}` };
    case 'mlModel':
    case 'mlModelGroup':
      return { label: decodePart(u.name), description: `${kindWord(u.kind)} · ${u.platform} · ${u.env}` };
    case 'mlFeatureTable':
      return { label: decodePart(u.table), description: `${kindWord(u.kind)} · ${u.platform}` };
    case 'mlFeature':
      return { label: decodePart(u.feature), description: `feature of ${decodePart(u.table)}` };
    case 'corpuser':
      return { label: decodePart(u.user), description: 'user' };
    case 'dataPlatform':
      return { label: u.platform, description: 'platform' };
    case 'schemaField':
      return { label: decodePart(u.fieldPath), description: 'schemaField' };
    case 'other':
      return { label: u.id, description: u.entityType };
  }
}

/**
 * An input box holds one line: a description's line breaks are shown as `\n` (and a backslash
 * as `\\`), and turned back when the user accepts it.
 */
export function descriptionToInput(description: string): string {
  return description.replace(/\r\n/g, '\n').replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

export function descriptionFromInput(input: string): string {
  return input.replace(/\\(\\|n)/g, (_m, c: string) => (c === 'n' ? '\n' : '\\'));
}
