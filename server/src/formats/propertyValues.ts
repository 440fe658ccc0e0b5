/**
 * The values a dataset file gives a structured property (`structured_properties:` of an entry or
 * a field) against the property's definition as the catalog has it: its type (a number property
 * takes numbers), its cardinality (SINGLE takes one value) and its allowed values. Pure.
 */
import type { FormatPropertyValues } from '../scan/types';

/** What the catalog's GraphQL answers for a structured property's definition (the view's selection). */
export interface PropertyDefinitionShape {
  qualifiedName?: string | null;
  cardinality?: string | null;
  valueType?: { urn?: string | null; info?: { type?: string | null } | null } | null;
  allowedValues?: Array<{ value?: { stringValue?: string | null; numberValue?: number | null } | null }> | null;
}

export interface PropertyValueProblem {
  start: number;
  end: number;
  message: string;
}

/** The type of a definition's values: `number`, `string`, `date`, `urn`, `rich_text` (the end of the dataType URN). */
function valueType(def: PropertyDefinitionShape): string | undefined {
  const urn = def.valueType?.urn ?? undefined;
  if (urn) return urn.slice(urn.lastIndexOf('.') + 1).toLowerCase();
  return def.valueType?.info?.type?.toLowerCase() ?? undefined;
}

export function checkPropertyValues(given: FormatPropertyValues, def: PropertyDefinitionShape): PropertyValueProblem[] {
  const out: PropertyValueProblem[] = [];
  const name = def.qualifiedName ?? given.urn.slice('urn:li:structuredProperty:'.length);
  if (def.cardinality === 'SINGLE' && given.list && given.values.length > 1)
    out.push({
      start: given.keyStart,
      end: given.keyEnd,
      message: `Structured property ${name} takes one value (cardinality SINGLE), not ${given.values.length}`,
    });
  const type = valueType(def);
  const allowed = (def.allowedValues ?? []).flatMap((a) => {
    const v = a.value;
    if (v?.numberValue !== undefined && v.numberValue !== null) return [String(v.numberValue)];
    if (v?.stringValue !== undefined && v.stringValue !== null) return [v.stringValue];
    return [];
  });
  for (const v of given.values) {
    if (type === 'number' && !(v.text.trim() !== '' && Number.isFinite(Number(v.text)))) {
      out.push({ ...v, message: `'${v.text}' is not a number: structured property ${name} takes numbers` });
      continue;
    }
    if (allowed.length === 0) continue;
    const ok = type === 'number' ? allowed.some((a) => Number(a) === Number(v.text)) : allowed.includes(v.text);
    if (!ok)
      out.push({
        ...v,
        message: `'${v.text}' is not an allowed value of structured property ${name}: ${allowed.join(', ')}`,
      });
  }
  return out;
}
