/** JSON as it arrives from the other side of a wire or a file: untrusted, narrowed one check at a time. */

/** A JSON object (not null, not an array), whose members are still unknown. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
