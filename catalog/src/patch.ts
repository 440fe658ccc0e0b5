/**
 * PATCH proposals (`changeType: "PATCH"`), as DataHub's ingestion sources emit them: `aspect.value`
 * is a JSON Patch array (RFC 6902: add, remove, replace), or `{"patch": [...], "arrayPrimaryKeys":
 * {...}}` (GenericJsonPatch). DataHub applies it to the stored aspect, or to its template's default
 * when there is none (metadata-io/.../aspect/patch/template/: DatasetPropertiesTemplate,
 * GlobalTagsTemplate …). Its templates address an array's items by their key rather than their index
 * (`/tags/urn:li:tag:pii`, `/customProperties/key`); so does this: a path step into an array that is
 * not an index or `-` names the item one of whose string fields equals it. Missing objects on the
 * way of an `add` are created, as a template's default holds them.
 */
import { isRecord } from '../../model/src/json';
import { unprocessable } from './errors';

export interface PatchOp {
  op: 'add' | 'remove' | 'replace';
  path: string;
  value?: unknown;
}

/** The operations of a PATCH proposal's value; throws a 422 naming `where` when it is not one. */
export function patchOps(value: unknown, where: string): PatchOp[] {
  const list = isRecord(value) && Array.isArray(value['patch']) ? value['patch'] : value;
  if (!Array.isArray(list))
    throw unprocessable(`${where}: a PATCH's value is a JSON Patch array ([{"op", "path", "value"}])`);
  return list.map((o, i) => {
    if (!isRecord(o) || typeof o['path'] !== 'string' || !['add', 'remove', 'replace'].includes(String(o['op'])))
      throw unprocessable(`${where}[${i}]: expected {"op": "add" | "remove" | "replace", "path": "/…", "value"}`);
    return { op: o['op'] as PatchOp['op'], path: o['path'], ...('value' in o ? { value: o['value'] } : {}) };
  });
}

function steps(path: string, where: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw unprocessable(`${where}.path: '${path}' does not start with /`);
  return path
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The index in `list` a step names: a number, or the item one of whose string fields equals it (-1: none). */
function indexOf(list: unknown[], step: string): number {
  if (/^(0|[1-9]\d*)$/.test(step)) return Number(step);
  return list.findIndex((x) => x === step || (isRecord(x) && Object.values(x).some((v) => v === step)));
}

/** `base` with `ops` applied, a new object (`base` is not changed). */
export function applyPatch(
  base: Record<string, unknown>,
  ops: readonly PatchOp[],
  where: string,
): Record<string, unknown> {
  const root = structuredClone(base);
  ops.forEach((o, i) => {
    const at = `${where}[${i}]`;
    const path = steps(o.path, at);
    if (path.length === 0) throw unprocessable(`${at}.path: the whole aspect cannot be patched; name a field`);
    let parent: unknown = root;
    for (const step of path.slice(0, -1)) {
      if (Array.isArray(parent)) {
        const n = indexOf(parent, step);
        if (n < 0 || n >= parent.length) throw unprocessable(`${at}.path: '${o.path}': no item '${step}'`);
        parent = parent[n];
      } else if (isRecord(parent)) {
        if (!isRecord(parent[step]) && !Array.isArray(parent[step])) {
          if (o.op !== 'add') throw unprocessable(`${at}.path: '${o.path}': no field '${step}'`);
          parent[step] = {};
        }
        parent = parent[step];
      } else {
        throw unprocessable(`${at}.path: '${o.path}' goes through a value that is not an object or array`);
      }
    }
    const last = path[path.length - 1]!;
    if (Array.isArray(parent)) {
      const n = last === '-' ? parent.length : indexOf(parent, last);
      if (o.op === 'remove') {
        if (n >= 0 && n < parent.length) parent.splice(n, 1);
      } else if (n >= 0 && n < parent.length) parent[n] = o.value;
      else parent.push(o.value);
    } else if (isRecord(parent)) {
      if (o.op === 'remove') delete parent[last];
      else parent[last] = o.value;
    } else {
      throw unprocessable(`${at}.path: '${o.path}' ends in a value that is not an object or array`);
    }
  });
  return root;
}
