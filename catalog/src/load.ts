/**
 * `--load FILE…`: DataHub's metadata files into the catalog. A file is what DataHub's `file` sink
 * writes (metadata-ingestion/src/datahub/ingestion/sink/file.py): a JSON array whose items are
 * MetadataChangeProposals (`{"entityType", "entityUrn", "changeType", "aspectName", "aspect":
 * {"json": {...}}}`, or `aspect: {"value": "<JSON>", "contentType"}` as the REST emitter posts it)
 * and MetadataChangeEvents (`{"proposedSnapshot": {"com.linkedin.pegasus2avro.metadata.snapshot.
 * <Kind>Snapshot": {"urn", "aspects"}}}`). One object alone is taken as a one-item file.
 *
 * Every item goes through the checks of the Rest.li paths (ingest.ts, mce.ts) and is written in its
 * own transaction: a refused item is reported (file, index, aspect, why) and the rest still load. The
 * spec mode writes each aspect that creates its entity (model EXISTENCE_ASPECTS) before the others,
 * so that a file's order does not matter; the DataHub mode keeps the files' order (every upsert
 * creates its entity).
 */
import { EXISTENCE_ASPECTS } from '../../model/src/aspects';
import { aspectOfRecord } from '../../model/src/entityAspects';
import { isRecord } from '../../model/src/json';
import type { CompatMode } from './compat';
import { CatalogError } from './errors';
import { proposalToWrite } from './ingest';
import { pegasusForm, snapshotToWrites } from './mce';
import type { NamespacePolicy } from './namespaces';
import type { AspectStore } from './store';
import { writeAspect, writeCreates, type AspectWrite } from './writes';

/** One item of a file, ready for a Rest.li path: a proposal body or an MCE body. */
export type LoadRequest =
  | { kind: 'proposal'; file: string; index: number; aspect: string; body: { proposal: unknown; async: 'false' } }
  | {
      kind: 'mce';
      file: string;
      index: number;
      aspect: string;
      body: { entity: { value: unknown }; systemMetadata?: unknown };
    };

export interface AspectCount {
  loaded: number;
  refused: number;
}

export interface LoadReport {
  /** Per aspect name (`(item)` for an item that is neither an MCP nor an MCE). */
  byAspect: Map<string, AspectCount>;
  /** One line per refusal: `file[index] <entity type> <aspect> <urn>: why`. */
  refusals: string[];
}

/** The items of one file's text; throws an Error naming the file when it is not JSON or not an array of objects. */
export function fileItems(text: string, file: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file}: not JSON (${(e as Error).message})`);
  }
  if (Array.isArray(parsed)) return parsed;
  if (isRecord(parsed)) return [parsed];
  throw new Error(`${file}: expected a JSON array of MCPs and MCEs, as DataHub's file sink writes`);
}

/** What an item is: the Rest.li request it stands for. Throws a CatalogError saying why an item is neither. */
export function itemRequest(item: unknown, file: string, index: number): LoadRequest {
  const where = `${file}[${index}]`;
  if (!isRecord(item)) throw new CatalogError(400, `${where}: expected an MCP or an MCE object`);
  if (item['proposedSnapshot'] !== undefined) {
    const snapshot = pegasusForm(item['proposedSnapshot']);
    const sm = item['systemMetadata'];
    const inner = isRecord(snapshot) ? Object.values(snapshot)[0] : undefined;
    const count = isRecord(inner) && Array.isArray(inner['aspects']) ? inner['aspects'].length : 0;
    return {
      kind: 'mce',
      file,
      index,
      aspect: `(MCE of ${count} aspects)`,
      body: { entity: { value: snapshot }, ...(isRecord(sm) ? { systemMetadata: pegasusForm(sm) } : {}) },
    };
  }
  if (typeof item['aspectName'] === 'string' || item['entityType'] !== undefined) {
    const aspect = item['aspect'];
    let generic: unknown = aspect;
    if (isRecord(aspect) && aspect['json'] !== undefined) {
      generic = { value: JSON.stringify(pegasusForm(aspect['json'])), contentType: 'application/json' };
    }
    const proposal: Record<string, unknown> = {};
    for (const k of ['entityType', 'entityUrn', 'changeType', 'aspectName', 'systemMetadata', 'headers']) {
      if (item[k] !== undefined && item[k] !== null) proposal[k] = item[k];
    }
    proposal['aspect'] = generic;
    return {
      kind: 'proposal',
      file,
      index,
      aspect: typeof item['aspectName'] === 'string' ? item['aspectName'] : '(no aspectName)',
      body: { proposal, async: 'false' },
    };
  }
  throw new CatalogError(
    400,
    `${where}: neither an MCP (entityType, entityUrn, changeType, aspectName, aspect) nor an MCE (proposedSnapshot)`,
  );
}

function count(report: LoadReport, aspect: string, loaded: boolean): void {
  let c = report.byAspect.get(aspect);
  if (!c) report.byAspect.set(aspect, (c = { loaded: 0, refused: 0 }));
  if (loaded) c.loaded++;
  else c.refused++;
}

interface Pending {
  where: string;
  write: AspectWrite;
}

/** Loads the files' items into the store, each aspect in its own transaction; returns what was loaded and refused. */
export function loadFiles(
  store: AspectStore,
  files: ReadonlyArray<{ file: string; text: string }>,
  namespaces: NamespacePolicy,
  actor: string,
  compat: CompatMode,
): LoadReport {
  const report: LoadReport = { byAspect: new Map(), refusals: [] };
  const pending: Pending[] = [];
  for (const { file, text } of files) {
    fileItems(text, file).forEach((item, index) => {
      const where = `${file}[${index}]`;
      let request: LoadRequest | undefined;
      try {
        request = itemRequest(item, file, index);
        const writes =
          request.kind === 'proposal'
            ? [proposalToWrite(request.body.proposal, 'proposal', namespaces, compat)]
            : snapshotToWrites(
                request.body.entity.value,
                'proposedSnapshot',
                namespaces,
                compat,
                systemMetadataOf(request),
              );
        for (const write of writes) pending.push({ where, write });
      } catch (e) {
        if (!(e instanceof CatalogError)) throw e;
        count(report, request?.aspect ?? '(item)', false);
        const message = e.message.startsWith(`${where}: `) ? e.message.slice(where.length + 2) : e.message;
        report.refusals.push(`${where}${describeItem(item)}: ${e.status} ${message}`);
      }
    });
  }
  const ordered =
    compat === 'datahub'
      ? pending
      : [
          ...pending.filter((p) => writeCreates(p.write.entityType, p.write.aspectName, compat)),
          ...pending.filter((p) => !writeCreates(p.write.entityType, p.write.aspectName, compat)),
        ];
  for (const { where, write } of ordered) {
    try {
      store.transaction(() => writeAspect(store, write, actor, Date.now(), compat));
      count(report, write.aspectName, true);
    } catch (e) {
      if (!(e instanceof CatalogError)) throw e;
      count(report, write.aspectName, false);
      report.refusals.push(
        `${where} ${write.entityType} ${write.aspectName} ${write.requestedUrn}: ${e.status} ${e.message}`,
      );
    }
  }
  return report;
}

function systemMetadataOf(r: LoadRequest): Record<string, unknown> | undefined {
  if (r.kind !== 'mce') return undefined;
  const sm = r.body.systemMetadata;
  return isRecord(sm) ? sm : undefined;
}

function describeItem(item: unknown): string {
  if (!isRecord(item)) return '';
  const parts = [item['entityType'], item['aspectName'], item['entityUrn']].filter((x) => typeof x === 'string');
  return parts.length > 0 ? ` ${parts.join(' ')}` : '';
}

/** The report as lines: a table of aspects (loaded, refused), then each refusal (the first `maxRefusals`). */
export function reportLines(report: LoadReport, maxRefusals = 50): string[] {
  const rows = [...report.byAspect].sort(([a], [b]) => a.localeCompare(b));
  const loaded = rows.reduce((n, [, c]) => n + c.loaded, 0);
  const refused = rows.reduce((n, [, c]) => n + c.refused, 0);
  const width = Math.max(6, ...rows.map(([a]) => a.length));
  const lines = [
    `${loaded} aspects loaded, ${refused} refused`,
    `  ${'aspect'.padEnd(width)}  loaded  refused`,
    ...rows.map(([a, c]) => `  ${a.padEnd(width)}  ${String(c.loaded).padStart(6)}  ${String(c.refused).padStart(7)}`),
  ];
  if (report.refusals.length > 0) {
    lines.push('refused:');
    lines.push(...report.refusals.slice(0, maxRefusals).map((r) => `  ${r}`));
    if (report.refusals.length > maxRefusals) lines.push(`  … and ${report.refusals.length - maxRefusals} more`);
  }
  return lines;
}

/** The aspect names a request writes (an MCE's from its records' names). */
export function requestAspects(r: LoadRequest): string[] {
  if (r.kind === 'proposal') return [r.aspect];
  const snapshot = r.body.entity.value;
  const inner = isRecord(snapshot) ? Object.values(snapshot)[0] : undefined;
  const aspects = isRecord(inner) && Array.isArray(inner['aspects']) ? inner['aspects'] : [];
  return aspects.map((a) => {
    const key = isRecord(a) ? Object.keys(a)[0] : undefined;
    return (key !== undefined ? aspectOfRecord(key) : undefined) ?? key ?? '(item)';
  });
}

/** Whether a request writes an aspect that creates its entity under the specification's rule. */
function createsUnderSpec(r: LoadRequest): boolean {
  const type = r.kind === 'proposal' && isRecord(r.body.proposal) ? r.body.proposal['entityType'] : undefined;
  if (r.kind === 'proposal') return typeof type === 'string' && writeCreates(type, r.aspect, 'spec');
  const creators = new Set<string>(Object.values(EXISTENCE_ASPECTS).flat());
  return requestAspects(r).some((a) => creators.has(a));
}

/**
 * `--load FILE… --into URL`: the same items posted to a running catalog (or a DataHub) through its
 * Rest.li paths, one request per item — proposals to `/aspects?action=ingestProposal`, MCEs to
 * `/entities?action=ingest` — the items that create their entity first. Each answer counts.
 */
export async function loadInto(
  url: string,
  files: ReadonlyArray<{ file: string; text: string }>,
  token: string | undefined,
): Promise<LoadReport> {
  const report: LoadReport = { byAspect: new Map(), refusals: [] };
  const requests: LoadRequest[] = [];
  for (const { file, text } of files) {
    fileItems(text, file).forEach((item, index) => {
      try {
        requests.push(itemRequest(item, file, index));
      } catch (e) {
        if (!(e instanceof CatalogError)) throw e;
        count(report, '(item)', false);
        report.refusals.push(`${e.message}`);
      }
    });
  }
  const ordered = [...requests.filter(createsUnderSpec), ...requests.filter((r) => !createsUnderSpec(r))];
  const base = url.replace(/\/+$/, '');
  for (const r of ordered) {
    const path = r.kind === 'proposal' ? '/aspects?action=ingestProposal' : '/entities?action=ingest';
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-RestLi-Protocol-Version': '2.0.0',
        ...(token !== undefined ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(r.body),
    });
    const text = await res.text();
    const names = requestAspects(r);
    for (const n of names) count(report, n, res.ok);
    if (!res.ok) {
      let message = text;
      try {
        const body = JSON.parse(text) as { message?: unknown; error?: unknown };
        message = String(body.message ?? body.error ?? text);
      } catch {
        // not JSON: the text as it came
      }
      report.refusals.push(`${r.file}[${r.index}] ${names.join(', ')}: ${res.status} ${message.slice(0, 500)}`);
    }
  }
  return report;
}
