/**
 * The strings the workspace index keeps are flat strings of their own (server/src/index/
 * workspaceIndex.ts: keys printed by printUrnIn joining their parts, the rest copied by own()):
 * not V8 cons strings (a tree of concatenations that a map flattens into a second copy when it
 * first hashes it, and that keeps its parts alive) and not sliced strings (which keep the whole
 * text they were cut from alive: a file's text, a URI). Their content is checked elsewhere
 * (workspaceIndexFused.test.ts); here, how V8 holds them, read from a heap snapshot (node:v8),
 * where a string's node type is `string`, `concatenated string` or `sliced string`. A cons string
 * stays one after a map has flattened it (it then points at its flat copy), and after the full
 * collection a snapshot makes, so the snapshot shows what the index kept.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getHeapSnapshot } from 'node:v8';
import { DEFAULT_SETTINGS } from '../../model/src/protocol';
import { scanText, scanTextForIndex } from '../../server/src/pipeline/check';
import { clearParseCache } from '../../server/src/scan/parseCache';
import { packText, WorkspaceIndex } from '../../server/src/index/workspaceIndex';

/** What the snapshot is searched from: one index per way a file comes in, by name. */
class FlatProbe {
  constructor(readonly indexes: Record<string, WorkspaceIndex>) {}
}

/** The index's fields that hold strings it keeps (arrays, and one map's values). */
const ARRAYS = ['eKey', 'eLower', 'folders', 'fName'] as const;
const MAPS = ['eSpelling'] as const;
type Field = (typeof ARRAYS)[number] | (typeof MAPS)[number];

/** A heap snapshot's types of a string's node: flat (sequential, external, thin), cons, sliced. */
const STRING_TYPES = new Set(['string', 'concatenated string', 'sliced string']);

interface SnapshotString {
  type: string;
  /** The text, for a flat string; `(concatenated string)` or `(sliced string)` otherwise. */
  name: string;
}

interface HeapSnapshotJson {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

async function heapSnapshot(): Promise<HeapSnapshotJson> {
  const stream = getHeapSnapshot();
  stream.setEncoding('utf8');
  let text = '';
  for await (const chunk of stream) text += chunk as string;
  return JSON.parse(text) as HeapSnapshotJson;
}

/** The strings each probed index holds in each field, as the heap snapshot types them. */
async function keptStrings(probe: FlatProbe): Promise<Map<string, Record<Field, SnapshotString[]>>> {
  const snap = await heapSnapshot();
  const { node_fields, node_types, edge_fields, edge_types } = snap.snapshot.meta;
  const nf = node_fields.length;
  const ef = edge_fields.length;
  const [TYPE, NAME, EDGE_COUNT] = ['type', 'name', 'edge_count'].map((f) => node_fields.indexOf(f));
  const [E_TYPE, E_NAME, E_TO] = ['type', 'name_or_index', 'to_node'].map((f) => edge_fields.indexOf(f));
  const nodes = snap.nodes;
  const firstEdge = new Map<number, number>();
  for (let n = 0, e = 0; n < nodes.length; n += nf) {
    firstEdge.set(n, e);
    e += nodes[n + EDGE_COUNT!]! * ef;
  }
  const typeOf = (n: number): string => node_types[0][nodes[n + TYPE!]!]!;
  const nameOf = (n: number): string => snap.strings[nodes[n + NAME!]!]!;
  const edgesOf = (n: number): Array<{ type: string; name: string | number; to: number }> => {
    const out = [];
    for (let k = 0, e = firstEdge.get(n)!; k < nodes[n + EDGE_COUNT!]!; k++, e += ef) {
      const type = edge_types[0][snap.edges[e + E_TYPE!]!]!;
      const raw = snap.edges[e + E_NAME!]!;
      out.push({
        type,
        name: type === 'element' || type === 'hidden' ? raw : snap.strings[raw]!,
        to: snap.edges[e + E_TO!]!,
      });
    }
    return out;
  };
  const property = (n: number, name: string): number => {
    const edge = edgesOf(n).find((e) => e.type === 'property' && e.name === name);
    assert.ok(edge, `no ${name} of ${nameOf(n)} in the snapshot`);
    return edge.to;
  };
  const isString = (n: number): boolean => STRING_TYPES.has(typeOf(n));
  const strings = (ns: number[]): SnapshotString[] =>
    ns.filter(isString).map((n) => ({ type: typeOf(n), name: nameOf(n) }));

  const probes: number[] = [];
  for (let n = 0; n < nodes.length; n += nf) if (typeOf(n) === 'object' && nameOf(n) === 'FlatProbe') probes.push(n);
  assert.equal(probes.length, 1, 'one probe in the snapshot');
  const indexes = property(probes[0]!, 'indexes');
  const out = new Map<string, Record<Field, SnapshotString[]>>();
  for (const name of Object.keys(probe.indexes)) {
    const index = property(indexes, name);
    assert.equal(nameOf(index), 'WorkspaceIndex');
    const fields = {} as Record<Field, SnapshotString[]>;
    for (const f of ARRAYS)
      fields[f] = strings(
        edgesOf(property(index, f))
          .filter((e) => e.type === 'element')
          .map((e) => e.to),
      );
    // A map's entries live in its table (an internal array): its keys here are numbers, its values the strings.
    for (const f of MAPS) {
      const table = edgesOf(property(index, f)).find((e) => e.name === 'table');
      assert.ok(table, `no table of ${f}`);
      fields[f] = strings(edgesOf(table.to).map((e) => e.to));
    }
    out.set(name, fields);
  }
  return out;
}

const host = (scan: typeof scanText): ConstructorParameters<typeof WorkspaceIndex>[0] => ({
  settingsFor: () => Promise.resolve(DEFAULT_SETTINGS),
  openDocument: () => undefined,
  scan,
  log: () => undefined,
});

test('the strings the index keeps (keys, lower-case names, spellings, folders, file names) are flat, neither cons nor sliced', async () => {
  // Long enough (13 characters and more) that V8 would make a cons or a sliced string of them;
  // each kind printUrnIn prints by its own case; spellings in another namespace word (kept apart
  // from the key), names with upper case (a lower-case copy, joined from two parts, is kept).
  const urns = [
    'urn:li:dataset:(urn:li:dataPlatform:hive,Warehouse.Orders_By_Day,PROD)',
    'urn:svc:dataset:(urn:svc:dataPlatform:snowflake,Analytics.Public.Revenue,DEV)',
    'urn:li:mlModel:(urn:li:dataPlatform:mlflow,Churn-Model-V3,PROD)',
    'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,Churn-Model-Group,PROD)',
    'urn:li:mlFeature:(Users_Feature_Table,Signup_Days_Count)',
    'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,Users_Feature_Table)',
    'urn:li:corpuser:Someone.With.A_Long_Name',
    'urn:li:dataPlatform:a_platform_with_a_long_name',
    'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,Warehouse.Orders_By_Day,PROD),Order_Total_Eur)',
    'urn:li:glossaryTerm:Finance.Recognised_Revenue_Term',
  ];
  const text = urns.map((u, i) => `URN_${i} = "${u}"\n`).join('');
  const folder = 'file:///w/a_folder_with_a_long_name/';
  const uri = `${folder}a_job_with_a_long_file_name.py`;
  const indexes: Record<string, WorkspaceIndex> = {};
  for (const [name, scan] of [
    ['setText, full scan', scanText],
    ['setText, index scan', scanTextForIndex],
  ] as const) {
    clearParseCache();
    indexes[name] = new WorkspaceIndex(host(scan));
    indexes[name].setText(uri, text, 'python', DEFAULT_SETTINGS);
  }
  // As a worker thread's files come in: packed there, cloned across, stored by setPacked.
  clearParseCache();
  indexes['setPacked, cloned'] = new WorkspaceIndex(host(scanTextForIndex));
  indexes['setPacked, cloned'].setPacked(
    uri,
    structuredClone(packText(text, 'python', DEFAULT_SETTINGS, scanTextForIndex)!),
    DEFAULT_SETTINGS,
  );

  const probe = new FlatProbe(indexes);
  const kept = await keptStrings(probe);
  for (const [name, index] of Object.entries(probe.indexes)) {
    const fields = kept.get(name)!;
    for (const [field, strings] of Object.entries(fields))
      for (const s of strings)
        assert.equal(s.type, 'string', `${name}: ${field} holds a ${s.type}: ${JSON.stringify(strings)}`);
    // The walk found what the index holds: every entity's key, a name per entity, the file and folder.
    assert.equal(index.occurrenceCount, urns.length, name);
    assert.equal(fields.eKey.length, index.entitiesNamedIn().length, `${name}: keys`);
    assert.ok(
      fields.eKey.some((s) => s.name === 'urn:_:dataset:(urn:_:dataPlatform:hive,Warehouse.Orders_By_Day,PROD)'),
      `${name}: ${JSON.stringify(fields.eKey)}`,
    );
    assert.equal(fields.eLower.length, fields.eKey.length, `${name}: lower-case names`);
    assert.deepEqual(
      fields.eSpelling.map((s) => s.name),
      ['urn:svc:dataset:(urn:svc:dataPlatform:snowflake,Analytics.Public.Revenue,DEV)'],
      `${name}: the svc spelling, kept apart from its key`,
    );
    assert.deepEqual(
      fields.folders.map((s) => s.name),
      [folder],
      `${name}: folders`,
    );
    assert.deepEqual(
      fields.fName.map((s) => s.name),
      ['a_job_with_a_long_file_name.py'],
      `${name}: file names`,
    );
  }
});
