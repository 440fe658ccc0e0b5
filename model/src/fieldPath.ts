/**
 * Field paths of dataset schemas: a simple dotted path, or a version-2 path starting with
 * `[version=2.0]`, whose simple path drops every `[…]` token. Column descriptions match by simple path.
 */

export const V2_PREFIX = '[version=2.0]';

/** The simple path: for a v2 path, the tokens that are neither `[…` nor `…]`, joined by `.`. */
export function simplePath(fieldPath: string): string {
  if (!fieldPath.startsWith(V2_PREFIX)) return fieldPath;
  return fieldPath
    .split('.')
    .filter((t) => !t.startsWith('[') && !t.endsWith(']'))
    .join('.');
}

/**
 * The field named exactly `column`, else the first whose simple path equals that of `column`.
 * The exact match wins because a Kafka schema holds `[key=True]…id` and the value's `…id`, both simply `id`.
 */
export function findField<T extends { fieldPath: string }>(fields: readonly T[], column: string): T | undefined {
  const exact = fields.find((f) => f.fieldPath === column);
  if (exact) return exact;
  const wanted = simplePath(column);
  return fields.find((f) => simplePath(f.fieldPath) === wanted);
}
