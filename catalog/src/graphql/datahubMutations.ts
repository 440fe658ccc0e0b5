/**
 * `updateDataset` and `updateDescription` as DataHub answers them (the DataHub mode):
 *
 * - updateDataset: `DatasetType.update` checks privileges only, with no existence check, and
 *   ingests what `DatasetUpdateInputMapper` makes of the input (datahub-graphql-core/.../types/
 *   dataset/DatasetType.java, commit 45ef0479; mappers/DatasetUpdateInputMapper.java, commit
 *   ccf5a8cf): whole new aspects, no precondition. `editableDatasetProperties` becomes
 *   `{description, created: now, lastModified: now}` (the edited display `name` is not copied, so
 *   it is lost); `institutionalMemory` becomes exactly the elements sent, each built by
 *   `InstitutionalMemoryMetadataUpdateMapper`: `{description, url, createStamp: {actor: author,
 *   time: createdAt ?? now}}` (an element's `updateStamp` and `settings` are gone).
 * - updateStructuredProperty: a definition's display name and description patched
 *   (updateStructuredPropertyAsDataHub below).
 * - updateDescription of a glossary term, a glossary node or a data product: the one field of
 *   the aspect DataHub keeps its description in (updateInfoDescriptionAsDataHub below).
 * - updateDescription of a dataset field: `UpdateDescriptionResolver` refuses a missing
 *   `subResourceType`, then `DescriptionUtils.validateFieldDescriptionInput` asks for the dataset
 *   to exist, to have a schema, and for a `schemaMetadata.fields[].fieldPath` equal to
 *   `subResource` (LabelUtils.validateSubresourceExists): no simple-path matching. Each refusal
 *   is an IllegalArgumentException, which DataHub answers as BAD_REQUEST with its message
 *   (DataHubDataFetcherExceptionHandler walks the cause chain).
 *
 * DataHub's updateDescription and addLink read the aspect, change it, and write it back whole with
 * no lock and no precondition (DescriptionUtils.updateFieldDescription, LinkUtils.addLink →
 * persistAspect). This mode does the same — read, let other requests run, write — so a client
 * tested here meets DataHub's lost-update window instead of a catalog that hides it.
 */
import { EDITABLE_ML_ASPECT } from '../../../model/src/aspects';
import { isMlKind } from '../../../model/src/kinds';
import { parseUrn } from '../../../model/src/urn';
import { badRequest, unknownGraphQLError } from '../errors';
import { writeAspect } from '../writes';
import {
  resolveDataset,
  withFieldDescription,
  type MemoryElementInputArgs,
  type UpdateDatasetArgs,
  type UpdateDescriptionArgs,
} from './mutations';
import { datasetNode, type ReadContext } from './readShapes';

type Json = Record<string, unknown>;

/**
 * One link as InstitutionalMemoryMetadataUpdateMapper builds it. Its setters throw on what DataHub
 * answers only as "An unknown error occurred.": a null description (Pegasus setters refuse null)
 * and an author that CorpuserUrn.createFromString refuses (not `urn:li:corpuser:…`).
 */
function memoryElement(e: MemoryElementInputArgs, i: number, now: number): Json {
  const where = `updateDataset(input.institutionalMemory.elements[${i}]`;
  if (e.description === undefined || e.description === null) {
    throw unknownGraphQLError(
      `${where}.description) is missing: DataHub's InstitutionalMemoryMetadataUpdateMapper calls setDescription(null), which throws`,
    );
  }
  const author = parseUrn(e.author);
  if (!author.ok || author.urn.kind !== 'corpuser' || author.urn.namespace !== 'li') {
    throw unknownGraphQLError(
      `${where}.author) '${e.author}' is not a urn:li:corpuser URN, which DataHub's CorpuserUrn.createFromString refuses`,
    );
  }
  return { description: e.description, url: e.url, createStamp: { actor: e.author, time: e.createdAt ?? now } };
}

export function updateDatasetAsDataHub(args: UpdateDatasetArgs, ctx: ReadContext): Json {
  const target = resolveDataset(ctx, args.urn, 'updateDataset(urn)');
  const now = Date.now();
  const memory = args.input.institutionalMemory;
  const elements = memory ? memory.elements.map((e, i) => memoryElement(e, i, now)) : undefined;
  const editable = args.input.editableProperties;
  const stamp = { actor: ctx.actor, time: now };
  const write = (aspectName: 'institutionalMemory' | 'editableDatasetProperties', value: Json): void => {
    writeAspect(
      ctx.store,
      { key: target.key, requestedUrn: args.urn, entityType: 'dataset', aspectName, value },
      ctx.actor,
      now,
      'datahub',
    );
  };
  ctx.store.transaction(() => {
    if (elements) write('institutionalMemory', { elements });
    if (editable)
      write('editableDatasetProperties', { description: editable.description, lastModified: stamp, created: stamp });
  });
  ctx.forget(target.key);
  return datasetNode(ctx, args.urn, target.urn, target.key);
}

/** Lets every request that has already arrived run, as between DataHub's read and its write. */
export function otherRequestsRun(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export async function updateDescriptionAsDataHub(args: UpdateDescriptionArgs, ctx: ReadContext): Promise<boolean> {
  const input = args.input;
  const urn = input.resourceUrn;
  const target = ctx.namespaces.resolve(urn, 'updateDescription(input.resourceUrn)');
  const kind = target.urn.kind;
  if (isMlKind(kind)) {
    return updateMlDescriptionAsDataHub(input.description, urn, target.key, kind, ctx);
  }
  if (kind === 'other' && Object.hasOwn(DESCRIBED_IN_INFO, target.urn.entityType)) {
    const entityType = target.urn.entityType as keyof typeof DESCRIBED_IN_INFO;
    return updateInfoDescriptionAsDataHub(input.description, urn, target.key, entityType, ctx);
  }
  if (kind !== 'dataset') {
    throw badRequest(
      `updateDescription(input.resourceUrn): the local catalog describes dataset fields, ML entities, glossary terms and nodes and data products only, found a ${kind === 'other' ? target.urn.entityType : kind} URN '${urn}'`,
    );
  }
  if (input.subResourceType === undefined || input.subResourceType === null) {
    throw badRequest('Update description without subresource is not currently supported');
  }
  const field = input.subResource ?? null;
  if (!ctx.store.hasAny(target.key)) throw badRequest(`Failed to update ${urn}. ${urn} does not exist.`);
  const schema = ctx.store.get(target.key, 'schemaMetadata')?.value;
  if (!schema) throw badRequest(`Failed to update ${urn} & field ${field}. ${urn} has no schema.`);
  const fields = Array.isArray(schema['fields']) ? schema['fields'] : [];
  if (
    field === null ||
    !fields.some((f) => typeof f === 'object' && f !== null && (f as Json)['fieldPath'] === field)
  ) {
    throw badRequest(`Failed to update ${urn} & field ${field}. Field ${field} does not exist in the datasets schema.`);
  }
  // DescriptionUtils.updateFieldDescription edits the entry and writes the aspect back; it sets no `created`.
  const value = withFieldDescription(
    ctx.store.get(target.key, 'editableSchemaMetadata')?.value,
    field,
    input.description,
  );
  await otherRequestsRun();
  ctx.store.transaction(() => {
    writeAspect(
      ctx.store,
      { key: target.key, requestedUrn: urn, entityType: 'dataset', aspectName: 'editableSchemaMetadata', value },
      ctx.actor,
      Date.now(),
      'datahub',
    );
  });
  ctx.forget(target.key);
  return true;
}

/**
 * updateDescription of an ML entity, as DataHub's UpdateDescriptionResolver does it
 * (updateMlFeatureDescription … updateMlModelGroupDescription): `DescriptionUtils.validateLabelInput`
 * refuses an entity that does not exist ("Failed to update <urn>. <urn> does not exist."); the
 * sub-resource is ignored; `DescriptionUtils.updateMl…Description` reads the edited aspect
 * (`editableMl…Properties`, a new one when absent), sets its description and writes it back whole,
 * with no precondition — the read, other requests, then the write, as for a dataset field.
 */
async function updateMlDescriptionAsDataHub(
  description: string,
  urn: string,
  key: string,
  kind: keyof typeof EDITABLE_ML_ASPECT,
  ctx: ReadContext,
): Promise<boolean> {
  if (!ctx.store.hasAny(key)) throw badRequest(`Failed to update ${urn}. ${urn} does not exist.`);
  const aspectName = EDITABLE_ML_ASPECT[kind];
  const value = { ...(ctx.store.get(key, aspectName)?.value ?? {}), description };
  await otherRequestsRun();
  ctx.store.transaction(() => {
    writeAspect(
      ctx.store,
      { key, requestedUrn: urn, entityType: kind, aspectName, value },
      ctx.actor,
      Date.now(),
      'datahub',
    );
  });
  ctx.forget(key);
  return true;
}

/**
 * Where DataHub's updateDescription puts the description of a glossary term, a glossary node and a
 * data product (DescriptionUtils.updateGlossaryTermDescription, updateGlossaryNodeDescription,
 * updateDataProductDescription), and what it answers when that aspect is absent: a term or a node
 * without one is refused (an IllegalArgumentException, answered as BAD_REQUEST with its message);
 * a data product gets a new aspect.
 */
const DESCRIBED_IN_INFO = {
  glossaryTerm: {
    aspect: 'glossaryTermInfo',
    field: 'definition',
    absent: 'Properties for this Glossary Term do not yet exist!',
  },
  glossaryNode: { aspect: 'glossaryNodeInfo', field: 'definition', absent: 'Glossary Node does not exist' },
  dataProduct: { aspect: 'dataProductProperties', field: 'description', absent: undefined },
} as const;

/**
 * updateDescription of a glossary term, a glossary node or a data product, as DataHub's
 * UpdateDescriptionResolver does it (updateGlossaryTermDescription, updateGlossaryNodeDescription,
 * updateDataProductDescription): `DescriptionUtils.validateLabelInput` refuses an entity that does
 * not exist ("Failed to update <urn>. <urn> does not exist."); the sub-resource is ignored; the
 * aspect is read, its one field set, and written back whole with no precondition — the read,
 * other requests, then the write, as for a dataset field.
 */
async function updateInfoDescriptionAsDataHub(
  description: string,
  urn: string,
  key: string,
  entityType: keyof typeof DESCRIBED_IN_INFO,
  ctx: ReadContext,
): Promise<boolean> {
  if (!ctx.store.hasAny(key)) throw badRequest(`Failed to update ${urn}. ${urn} does not exist.`);
  const { aspect, field, absent } = DESCRIBED_IN_INFO[entityType];
  const stored = ctx.store.getRaw(key, aspect)?.value;
  const current = typeof stored === 'object' && stored !== null ? (stored as Json) : undefined;
  if (!current && absent !== undefined) throw badRequest(absent);
  const value: Json = { ...(current ?? {}), [field]: description };
  await otherRequestsRun();
  ctx.store.transaction(() => {
    writeAspect(
      ctx.store,
      { key, requestedUrn: urn, entityType, aspectName: aspect, value },
      ctx.actor,
      Date.now(),
      'datahub',
    );
  });
  ctx.forget(key);
  return true;
}

export interface UpdateStructuredPropertyArgs {
  input: { urn: string; displayName?: string | null; description?: string | null };
}

/**
 * updateStructuredProperty's change of a definition's display name and description, as DataHub's
 * UpdateStructuredPropertyResolver makes it (datahub-graphql-core/.../resolvers/structuredproperties/
 * UpdateStructuredPropertyResolver.java): a definition the catalog lacks (no `propertyDefinition`
 * aspect, or no entity) is refused ("Attempting to update a structured property with no
 * definition aspect.", an IllegalArgumentException under its RuntimeException: BAD_REQUEST with
 * that message); else a patch of the given fields and `lastModified`, every other field kept.
 */
export function updateStructuredPropertyAsDataHub(args: UpdateStructuredPropertyArgs, ctx: ReadContext): void {
  const { urn, displayName, description } = args.input;
  const target = ctx.namespaces.resolve(urn, 'updateStructuredProperty(input.urn)');
  const stored = ctx.store.getRaw(target.key, 'propertyDefinition')?.value;
  if (typeof stored !== 'object' || stored === null)
    throw badRequest('Attempting to update a structured property with no definition aspect.');
  const value: Json = { ...(stored as Json) };
  const given = (v: string | null | undefined): v is string => v !== undefined && v !== null;
  if (!given(displayName) && !given(description)) return;
  if (given(displayName)) value['displayName'] = displayName;
  if (given(description)) value['description'] = description;
  const now = Date.now();
  value['lastModified'] = { time: now, actor: ctx.actor };
  ctx.store.transaction(() => {
    writeAspect(
      ctx.store,
      { key: target.key, requestedUrn: urn, entityType: 'structuredProperty', aspectName: 'propertyDefinition', value },
      ctx.actor,
      now,
      'datahub',
    );
  });
  ctx.forget(target.key);
}
