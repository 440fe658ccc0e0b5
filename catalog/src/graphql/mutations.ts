/**
 * `updateDataset` and `updateDescription` in the spec mode, written as DataHub writes them
 * (DatasetUpdateInputMapper, UpdateDescriptionResolver) but failing when the entity does not exist,
 * and merging into the current aspects; datahubMutations.ts has the DataHub mode's. Each mutation checks and
 * writes in one transaction through the same write path as the Rest.li proposals, so versions
 * and concurrent conditional writes see every change.
 */
import type { AuditStamp } from '../../../model/src/aspects';
import { simplePath } from '../../../model/src/fieldPath';
import { isRecord } from '../../../model/src/json';
import { parseUrn, type DatasetUrn } from '../../../model/src/urn';
import { badRequest } from '../errors';
import type { ResolvedUrn } from '../namespaces';
import { entityExists, missingEntityError, writeAspect } from '../writes';
import { datasetNode, type ReadContext } from './readShapes';

type Json = Record<string, unknown>;

export interface MemoryElementInputArgs {
  url: string;
  description?: string | null;
  author: string;
  createdAt?: number | null;
}

export interface UpdateDatasetArgs {
  urn: string;
  input: {
    editableProperties?: { description: string; name?: string | null } | null;
    institutionalMemory?: { elements: MemoryElementInputArgs[] } | null;
  };
}

export interface UpdateDescriptionArgs {
  input: { description: string; resourceUrn: string; subResourceType?: string | null; subResource?: string | null };
}

export function resolveDataset(ctx: ReadContext, text: string, where: string): ResolvedUrn & { urn: DatasetUrn } {
  const r = ctx.namespaces.resolve(text, where);
  if (r.urn.kind !== 'dataset') {
    const kind = r.urn.kind === 'other' ? r.urn.entityType : r.urn.kind;
    throw badRequest(`${where}: expected a dataset URN, found a ${kind} URN '${text}'`);
  }
  return r as ResolvedUrn & { urn: DatasetUrn };
}

export function updateDataset(args: UpdateDatasetArgs, ctx: ReadContext): Json {
  const target = resolveDataset(ctx, args.urn, 'updateDataset(urn)');
  const store = ctx.store;
  const memory = args.input.institutionalMemory
    ? memoryElements(ctx, args.input.institutionalMemory.elements)
    : undefined;
  store.transaction(() => {
    if (!entityExists(store, target.key, 'dataset', 'spec'))
      throw missingEntityError(args.urn, 'dataset', `updateDataset of ${args.urn}`);
    const now = Date.now();
    const stamp: AuditStamp = { time: now, actor: ctx.actor };
    const editable = args.input.editableProperties;
    if (editable) {
      const current = store.get(target.key, 'editableDatasetProperties')?.value ?? {};
      const value: Json = { ...current, description: editable.description };
      if (typeof editable.name === 'string') value['name'] = editable.name;
      if (!isRecord(value['created'])) value['created'] = stamp;
      writeAspect(
        store,
        {
          key: target.key,
          requestedUrn: args.urn,
          entityType: 'dataset',
          aspectName: 'editableDatasetProperties',
          value,
        },
        ctx.actor,
        now,
        'spec',
      );
    }
    if (memory) {
      const current = store.get(target.key, 'institutionalMemory')?.value ?? {};
      // DataHub's updateDataset replaces the element list with the one given.
      const elements = memory.map((e) => ({
        url: e.url,
        description: e.description ?? '',
        createStamp: { time: e.createdAt ?? now, actor: e.author },
      }));
      writeAspect(
        store,
        {
          key: target.key,
          requestedUrn: args.urn,
          entityType: 'dataset',
          aspectName: 'institutionalMemory',
          value: { ...current, elements },
        },
        ctx.actor,
        now,
        'spec',
      );
    }
  });
  ctx.forget(target.key);
  return datasetNode(ctx, args.urn, target.urn, target.key);
}

function memoryElements(ctx: ReadContext, elements: MemoryElementInputArgs[]): MemoryElementInputArgs[] {
  elements.forEach((e, i) => {
    const where = `updateDataset(input.institutionalMemory.elements[${i}]`;
    const author = ctx.namespaces.resolve(e.author, `${where}.author)`);
    if (author.urn.kind !== 'corpuser' && !(author.urn.kind === 'other' && author.urn.entityType === 'corpGroup')) {
      throw badRequest(
        `${where}.author): expected a user URN (urn:${ctx.namespaces.canonical}:corpuser:<id>), found '${e.author}'`,
      );
    }
    if (e.url.trim() === '') throw badRequest(`${where}.url): the link's URL is empty`);
    if (e.createdAt !== undefined && e.createdAt !== null && !Number.isSafeInteger(e.createdAt)) {
      throw badRequest(
        `${where}.createdAt): expected milliseconds since epoch (an integer), found ${JSON.stringify(e.createdAt)}`,
      );
    }
  });
  return elements;
}

export function updateDescription(args: UpdateDescriptionArgs, ctx: ReadContext): boolean {
  const input = args.input;
  if (input.subResourceType !== 'DATASET_FIELD') {
    // Another kind's description (a glossary term's, a data product's) is named as such.
    const other = parseUrn(input.resourceUrn);
    const what =
      other.ok && other.urn.kind !== 'dataset'
        ? `, so it does not describe the ${other.urn.kind === 'other' ? other.urn.entityType : other.urn.kind} '${input.resourceUrn}'`
        : '';
    throw badRequest(
      `updateDescription: this catalog supports only dataset schema fields (spec §4.1 rule 1)${what}: pass ` +
        'subResourceType: DATASET_FIELD, a dataset resourceUrn and the field path as subResource. ' +
        "To set a dataset's own description use updateDataset(input: {editableProperties: {description}}).",
    );
  }
  const target = resolveDataset(ctx, input.resourceUrn, 'updateDescription(input.resourceUrn)');
  const wanted = input.subResource;
  if (typeof wanted !== 'string' || wanted === '') {
    throw badRequest('updateDescription(input.subResource): required with DATASET_FIELD: the field path of the column');
  }
  const store = ctx.store;
  store.transaction(() => {
    if (!entityExists(store, target.key, 'dataset', 'spec')) {
      throw missingEntityError(input.resourceUrn, 'dataset', `updateDescription of ${input.resourceUrn}`);
    }
    const schema = store.get(target.key, 'schemaMetadata')?.value;
    if (!schema) {
      throw badRequest(
        `Failed to update ${input.resourceUrn}: it has no schema (no schemaMetadata aspect), so field '${wanted}' cannot be described.`,
      );
    }
    const fieldPath = schemaFieldPath(schema, wanted, input.resourceUrn);
    const now = Date.now();
    const value = withFieldDescription(
      store.get(target.key, 'editableSchemaMetadata')?.value,
      fieldPath,
      input.description,
    );
    if (!isRecord(value['created'])) value['created'] = { time: now, actor: ctx.actor };
    writeAspect(
      store,
      {
        key: target.key,
        requestedUrn: input.resourceUrn,
        entityType: 'dataset',
        aspectName: 'editableSchemaMetadata',
        value,
      },
      ctx.actor,
      now,
      'spec',
    );
  });
  ctx.forget(target.key);
  return true;
}

/** `editableSchemaMetadata` with the entry of `fieldPath` (exactly that path) described, added when missing. */
export function withFieldDescription(current: Json | undefined, fieldPath: string, description: string): Json {
  const value: Json = current ? { ...current } : {};
  const infos = Array.isArray(value['editableSchemaFieldInfo']) ? [...value['editableSchemaFieldInfo']] : [];
  const at = infos.findIndex((i) => isRecord(i) && i['fieldPath'] === fieldPath);
  if (at >= 0) infos[at] = { ...(infos[at] as Json), description };
  else infos.push({ fieldPath, description });
  value['editableSchemaFieldInfo'] = infos;
  return value;
}

/** The schema's own path for `wanted`: an exact match, else the one field whose simple path equals it. */
function schemaFieldPath(schema: Json, wanted: string, urn: string): string {
  const paths = (Array.isArray(schema['fields']) ? schema['fields'] : [])
    .map((f) => (isRecord(f) && typeof f['fieldPath'] === 'string' ? f['fieldPath'] : undefined))
    .filter((p): p is string => p !== undefined);
  if (paths.includes(wanted)) return wanted;
  const simple = simplePath(wanted);
  const matches = paths.filter((p) => simplePath(p) === simple);
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw badRequest(
      `Field '${wanted}' of ${urn} is ambiguous: it is the simple path of ${matches.map((m) => `'${m}'`).join(', ')}; pass the full field path`,
    );
  }
  const shown = paths
    .slice(0, 20)
    .map((p) => `'${p}'`)
    .join(', ');
  throw badRequest(
    `Field '${wanted}' does not exist in the schema of ${urn} (its fields: ${shown}${paths.length > 20 ? ', …' : ''})`,
  );
}
