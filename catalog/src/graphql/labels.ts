/**
 * `addTags`, `removeTag`, `addTerms`, `removeTerm`, `addOwners` and `removeOwner`, in both modes
 * as DataHub does them (the specification says nothing of them), from datahub-graphql-core's
 * resolvers/mutate/: AddTagsResolver, AddTermsResolver, AddOwnersResolver, RemoveTagResolver,
 * RemoveTermResolver, RemoveOwnerResolver, with util/LabelUtils.java and util/OwnerUtils.java
 * (metadata-service's OwnerServiceUtils for how an owner is added and compared).
 *
 * Tags and terms: LabelUtils.validateResourceAndLabel checks, label by label, that the URN is of
 * the label's entity type ("… Urn type does not match entity type tag..") and exists ("… Urn does
 * not exist."), then that the resource exists ("Failed to update resource with urn <urn>. Entity
 * does not exist.") and, for a column, that subResource and subResourceType come together and the
 * field is in the dataset's schema; a removal checks the resource only. The tags go into the
 * entity's `globalTags`, the terms into `glossaryTerms` (its auditStamp set to now), a column's
 * into its entry of `editableSchemaMetadata.editableSchemaFieldInfo` (made when missing): each
 * appended unless there (addTagsIfNotExists, addTermsIfNotExists); a removal takes out every
 * association with that URN.
 *
 * Owners: OwnerUtils.validateAddOwnerInput checks that the resource exists, then per owner that
 * its URN is of the ownerEntityType given, that it exists, that a custom ownership type exists,
 * and that a type or an ownershipTypeUrn is given. Each owner is added as
 * `{owner, type, typeUrn, source: {type: MANUAL}}`, where type defaults to NONE and typeUrn to
 * `urn:li:ownershipType:__system__<type>`, after taking out the same owner of the same type
 * (OwnerServiceUtils.addOwnerToAspect); `lastModified` is set. removeOwner takes out the owner as
 * an owner of that type (of every type when none is given: isOwnerEqual).
 *
 * Each refusal is an IllegalArgumentException, which DataHub answers as BAD_REQUEST with its
 * message. DataHub reads the aspect and writes it back with no precondition: the DataHub mode
 * lets other requests run between its read and its write, as DataHub does; the spec mode reads,
 * checks and writes in one transaction. Either way through writeAspect, so versions and reads
 * (a hover's tags, terms and owners) see the change.
 */
import { ASPECTS_BY_ENTITY, ownershipTypeUrn, ownerTypeUrn } from '../../../model/src/aspects';
import { CATALOG_KINDS, isCatalogKind, type CatalogKind } from '../../../model/src/kinds';
import { isRecord } from '../../../model/src/json';
import { badRequest } from '../errors';
import { entityExists, writeAspect } from '../writes';
import { otherRequestsRun } from './datahubMutations';
import type { ReadContext } from './readShapes';

type Json = Record<string, unknown>;

interface SubResourceArgs {
  resourceUrn: string;
  subResourceType?: string | null;
  subResource?: string | null;
}

export interface AddTagsArgs {
  input: SubResourceArgs & { tagUrns: string[] };
}
export interface RemoveTagArgs {
  input: SubResourceArgs & { tagUrn: string };
}
export interface AddTermsArgs {
  input: SubResourceArgs & { termUrns: string[] };
}
export interface RemoveTermArgs {
  input: SubResourceArgs & { termUrn: string };
}
export interface OwnerInputArgs {
  ownerUrn: string;
  ownerEntityType: 'CORP_USER' | 'CORP_GROUP';
  type?: string | null;
  ownershipTypeUrn?: string | null;
}
export interface AddOwnersArgs {
  input: { owners: OwnerInputArgs[]; resourceUrn: string };
}
export interface RemoveOwnerArgs {
  input: { ownerUrn: string; ownershipTypeUrn?: string | null; resourceUrn: string };
}

/** What a label mutation changes: the tags or the terms. */
interface Labels {
  field: string;
  entityType: 'tag' | 'glossaryTerm';
  aspect: 'globalTags' | 'glossaryTerms';
  /** The list in the aspect, and the URN key of each of its associations. */
  list: 'tags' | 'terms';
  key: 'tag' | 'urn';
}

const TAGS: Labels = { field: 'tag', entityType: 'tag', aspect: 'globalTags', list: 'tags', key: 'tag' };
const TERMS: Labels = { field: 'term', entityType: 'glossaryTerm', aspect: 'glossaryTerms', list: 'terms', key: 'urn' };

const kindOf = (u: { kind: string; entityType?: string }): string =>
  u.kind === 'other' ? (u.entityType ?? u.kind) : u.kind;

/** The resource: an entity kind of this catalog that holds `aspect`. */
function resource(ctx: ReadContext, urn: string, where: string, aspect: string): { key: string; kind: CatalogKind } {
  const r = ctx.namespaces.resolve(urn, where);
  const kind = kindOf(r.urn);
  const holders = CATALOG_KINDS.filter((k) => (ASPECTS_BY_ENTITY[k] as readonly string[]).includes(aspect));
  if (!isCatalogKind(kind) || !holders.includes(kind))
    throw badRequest(
      `${where}: a ${kind} has no ${aspect} in this catalog; ${aspect} belong to ${holders.join(', ')} entities`,
    );
  return { key: r.key, kind };
}

function exists(ctx: ReadContext, key: string, kind: string): boolean {
  return entityExists(ctx.store, key, kind, ctx.compat);
}

/** LabelUtils.validateResource: the entity exists; a column comes with its type and is in the schema. */
function validateResource(ctx: ReadContext, input: SubResourceArgs, key: string, kind: string): string | undefined {
  const urn = input.resourceUrn;
  if (!exists(ctx, key, kind)) throw badRequest(`Failed to update resource with urn ${urn}. Entity does not exist.`);
  const sub = input.subResource ?? null;
  const subType = input.subResourceType ?? null;
  if ((sub === null || sub === '') && subType === null) return undefined;
  if (sub === null || sub === '')
    throw badRequest(
      `Failed to update resource with urn ${urn}. SubResourceType (${subType}) provided without a subResource.`,
    );
  if (subType === null)
    throw badRequest(
      `Failed to updates resource with urn ${urn}. SubResource (${sub}) provided without a subResourceType.`,
    );
  // MutationUtils.validateSubresourceExists: a schema, and a field whose path is exactly this one.
  const schema = ctx.store.get(key, 'schemaMetadata')?.value;
  if (!schema) throw badRequest(`Failed to update ${urn} & field ${sub}. ${urn} has no schema.`);
  const fields = Array.isArray(schema['fields']) ? schema['fields'] : [];
  if (!fields.some((f) => isRecord(f) && f['fieldPath'] === sub))
    throw badRequest(`Failed to update ${urn} & field ${sub}. Field ${sub} does not exist in the datasets schema.`);
  return sub;
}

/** LabelUtils.validateLabel: of the label's entity type, and existing. */
function validateLabel(ctx: ReadContext, text: string, labels: Labels, where: string): void {
  const r = ctx.namespaces.resolve(text, where);
  if (kindOf(r.urn) !== labels.entityType)
    throw badRequest(
      `Failed to validate label with urn ${text}. Urn type does not match entity type ${labels.entityType}..`,
    );
  if (!exists(ctx, r.key, labels.entityType))
    throw badRequest(`Failed to validate label with urn ${text}. Urn does not exist.`);
}

/** The associations of `holder` (an aspect, or a column's entry) with `change` made to its list. */
function changed(holder: Json | undefined, labels: Labels, change: (list: Json[]) => Json[]): Json {
  const current = holder ?? {};
  const list = Array.isArray(current[labels.list]) ? (current[labels.list] as Json[]) : [];
  return { ...current, [labels.list]: change(list) };
}

/** `list` with an association for each URN it lacks appended (addTagsIfNotExists, addTermsIfNotExists). */
function appended(labels: Labels, urns: readonly string[]): (list: Json[]) => Json[] {
  return (list) => {
    const out = [...list];
    for (const u of urns) if (!out.some((a) => isRecord(a) && a[labels.key] === u)) out.push({ [labels.key]: u });
    return out;
  };
}

function without(labels: Labels, urn: string): (list: Json[]) => Json[] {
  return (list) => list.filter((a) => !(isRecord(a) && a[labels.key] === urn));
}

/**
 * Reads the aspect the labels go into, changes it, writes it (the mode's way): the entity's own
 * aspect, or the column's entry of editableSchemaMetadata (made when missing).
 */
async function changeLabels(
  ctx: ReadContext,
  input: SubResourceArgs,
  target: { key: string; kind: CatalogKind },
  labels: Labels,
  validate: () => string | undefined,
  change: (list: Json[]) => Json[],
): Promise<boolean> {
  const store = ctx.store;
  const now = Date.now();
  const stamp = { time: now, actor: ctx.actor };
  const next = (field: string | undefined): { aspectName: string; value: Json } => {
    if (field === undefined) {
      const value = changed(store.get(target.key, labels.aspect)?.value, labels, change);
      if (labels.aspect === 'glossaryTerms') value['auditStamp'] = stamp;
      return { aspectName: labels.aspect, value };
    }
    const current = store.get(target.key, 'editableSchemaMetadata')?.value;
    const value: Json = current ? { ...current } : {};
    const infos = Array.isArray(value['editableSchemaFieldInfo'])
      ? [...(value['editableSchemaFieldInfo'] as Json[])]
      : [];
    let at = infos.findIndex((i) => isRecord(i) && i['fieldPath'] === field);
    if (at < 0) at = infos.push({ fieldPath: field }) - 1;
    const entry = { ...infos[at] };
    const holder = changed(isRecord(entry[labels.aspect]) ? (entry[labels.aspect] as Json) : undefined, labels, change);
    if (labels.aspect === 'glossaryTerms') holder['auditStamp'] = stamp;
    entry[labels.aspect] = holder;
    infos[at] = entry;
    value['editableSchemaFieldInfo'] = infos;
    if (ctx.compat === 'spec' && !isRecord(value['created'])) value['created'] = stamp;
    return { aspectName: 'editableSchemaMetadata', value };
  };
  const write = (w: { aspectName: string; value: Json }): void => {
    writeAspect(
      store,
      { key: target.key, requestedUrn: input.resourceUrn, entityType: target.kind, ...w },
      ctx.actor,
      now,
      ctx.compat,
    );
  };
  if (ctx.compat === 'datahub') {
    const w = next(validate());
    await otherRequestsRun();
    store.transaction(() => write(w));
  } else {
    store.transaction(() => write(next(validate())));
  }
  ctx.forget(target.key);
  return true;
}

function addLabels(ctx: ReadContext, input: SubResourceArgs, urns: readonly string[], labels: Labels, where: string) {
  const target = resource(ctx, input.resourceUrn, `${where}(input.resourceUrn)`, labels.aspect);
  return changeLabels(
    ctx,
    input,
    target,
    labels,
    () => {
      let field: string | undefined;
      for (const u of urns) {
        validateLabel(ctx, u, labels, `${where}(input.${labels.field}Urns)`);
        field = validateResource(ctx, input, target.key, target.kind);
      }
      return field ?? validateResource(ctx, input, target.key, target.kind);
    },
    appended(labels, urns),
  );
}

function removeLabel(ctx: ReadContext, input: SubResourceArgs, urn: string, labels: Labels, where: string) {
  const target = resource(ctx, input.resourceUrn, `${where}(input.resourceUrn)`, labels.aspect);
  ctx.namespaces.resolve(urn, `${where}(input.${labels.field}Urn)`);
  return changeLabels(
    ctx,
    input,
    target,
    labels,
    () => validateResource(ctx, input, target.key, target.kind),
    without(labels, urn),
  );
}

export const addTags = (args: AddTagsArgs, ctx: ReadContext): Promise<boolean> =>
  addLabels(ctx, args.input, args.input.tagUrns, TAGS, 'addTags');
export const removeTag = (args: RemoveTagArgs, ctx: ReadContext): Promise<boolean> =>
  removeLabel(ctx, args.input, args.input.tagUrn, TAGS, 'removeTag');
export const addTerms = (args: AddTermsArgs, ctx: ReadContext): Promise<boolean> =>
  addLabels(ctx, args.input, args.input.termUrns, TERMS, 'addTerms');
export const removeTerm = (args: RemoveTermArgs, ctx: ReadContext): Promise<boolean> =>
  removeLabel(ctx, args.input, args.input.termUrn, TERMS, 'removeTerm');

/** Whether `o` is the owner `owner` of the type `typeUrn` (any type when null): OwnerServiceUtils.isOwnerEqual. */
function isOwnerEqual(o: unknown, owner: string, typeUrn: string | null): boolean {
  if (!isRecord(o) || o['owner'] !== owner) return false;
  if (typeUrn === null) return true;
  return (
    ownerTypeUrn({
      type: typeof o['type'] === 'string' ? o['type'] : null,
      typeUrn: typeof o['typeUrn'] === 'string' ? o['typeUrn'] : null,
    }) === typeUrn
  );
}

async function changeOwners(
  ctx: ReadContext,
  resourceUrn: string,
  target: { key: string; kind: CatalogKind },
  validate: () => void,
  change: (owners: unknown[]) => unknown[],
): Promise<boolean> {
  const store = ctx.store;
  const now = Date.now();
  const next = (): Json => {
    const current = store.get(target.key, 'ownership')?.value ?? {};
    const owners = Array.isArray(current['owners']) ? (current['owners'] as unknown[]) : [];
    return { ...current, owners: change(owners), lastModified: { time: now, actor: ctx.actor } };
  };
  const write = (value: Json): void => {
    writeAspect(
      store,
      { key: target.key, requestedUrn: resourceUrn, entityType: target.kind, aspectName: 'ownership', value },
      ctx.actor,
      now,
      ctx.compat,
    );
  };
  if (ctx.compat === 'datahub') {
    validate();
    const value = next();
    await otherRequestsRun();
    store.transaction(() => write(value));
  } else {
    store.transaction(() => {
      validate();
      write(next());
    });
  }
  ctx.forget(target.key);
  return true;
}

export function addOwners(args: AddOwnersArgs, ctx: ReadContext): Promise<boolean> {
  const { owners, resourceUrn } = args.input;
  const target = resource(ctx, resourceUrn, 'addOwners(input.resourceUrn)', 'ownership');
  const validate = (): void => {
    for (const o of owners) {
      // OwnerUtils.validateAddOwnerInput, owner by owner: the resource, then validateOwner.
      if (!exists(ctx, target.key, target.kind))
        throw badRequest(`Failed to change ownership for resource ${resourceUrn}. Resource does not exist.`);
      const r = ctx.namespaces.resolve(o.ownerUrn, 'addOwners(input.owners.ownerUrn)');
      const kind = kindOf(r.urn);
      if (o.ownerEntityType === 'CORP_GROUP' && kind !== 'corpGroup')
        throw badRequest(`Failed to change ownership for resource(s). Expected a corp group urn, found ${o.ownerUrn}`);
      if (o.ownerEntityType === 'CORP_USER' && kind !== 'corpuser')
        throw badRequest(`Failed to change ownership for resource(s). Expected a corp user urn, found ${o.ownerUrn}.`);
      if (!exists(ctx, r.key, kind))
        throw badRequest(`Failed to change ownership for resource(s). Owner with urn ${o.ownerUrn} does not exist.`);
      if (typeof o.ownershipTypeUrn === 'string') {
        const t = ctx.namespaces.resolve(o.ownershipTypeUrn, 'addOwners(input.owners.ownershipTypeUrn)');
        if (!exists(ctx, t.key, 'ownershipType'))
          throw badRequest(
            `Failed to change ownership for resource(s). Custom Ownership type with urn ${o.ownershipTypeUrn} does not exist.`,
          );
      }
      if ((o.type ?? null) === null && (o.ownershipTypeUrn ?? null) === null)
        throw badRequest(
          'Failed to change ownership for resource(s). Expected either type or ownershipTypeUrn to be specified.',
        );
    }
  };
  return changeOwners(ctx, resourceUrn, target, validate, (current) => {
    let out = [...current];
    for (const o of owners) {
      const type = o.type ?? 'NONE';
      const typeUrn = o.ownershipTypeUrn ?? ownershipTypeUrn(type);
      out = out.filter((x) => !isOwnerEqual(x, o.ownerUrn, typeUrn));
      out.push({ owner: o.ownerUrn, type, typeUrn, source: { type: 'MANUAL' } });
    }
    return out;
  });
}

export function removeOwner(args: RemoveOwnerArgs, ctx: ReadContext): Promise<boolean> {
  const { ownerUrn, resourceUrn } = args.input;
  const typeUrn = args.input.ownershipTypeUrn ?? null;
  const target = resource(ctx, resourceUrn, 'removeOwner(input.resourceUrn)', 'ownership');
  ctx.namespaces.resolve(ownerUrn, 'removeOwner(input.ownerUrn)');
  return changeOwners(
    ctx,
    resourceUrn,
    target,
    () => {
      // OwnerUtils.validateRemoveInput.
      if (!exists(ctx, target.key, target.kind))
        throw badRequest(`Failed to change ownership for resource ${resourceUrn}. Resource does not exist.`);
    },
    (current) => current.filter((x) => !isOwnerEqual(x, ownerUrn, typeUrn)),
  );
}
