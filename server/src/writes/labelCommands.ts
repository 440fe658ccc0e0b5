/**
 * Tags, glossary terms and owners appended to a dataset (tags and terms also to one of its
 * columns), and removed again (the client's Undo): on both write paths through DataHub's own
 * mutations, which append what is missing and keep everything else
 * (datahub-graphql-core/.../resolvers/mutate/AddTagsResolver.java, AddTermsResolver.java,
 * AddOwnersResolver.java with util/LabelUtils.java and util/OwnerUtils.java; the removals
 * RemoveTagResolver.java, RemoveTermResolver.java, RemoveOwnerResolver.java).
 *
 * Each command reads what the dataset has first (its aspects, fresh), sends only what it lacks
 * (or, to remove, only what it has), and answers exactly those in `added` (`removed`): Undo then
 * removes what this write added and nothing that was there before. The catalog checks that the
 * tag, term or owner exists (LabelUtils.validateLabel, OwnerUtils.validateOwner) and its refusal,
 * in its own words, is the command's failure.
 */
import type { GlobalTags, GlossaryTerms, Owner, Ownership } from '../../../model/src/aspects';
import { OWNERSHIP_TYPES, ownershipTypeUrn, ownerTypeUrn } from '../../../model/src/aspects';
import { entityName } from '../../../model/src/entityNames';
import { findField } from '../../../model/src/fieldPath';
import { inertText } from '../../../model/src/inertText';
import type { WriteResult } from '../../../model/src/protocol';
import { shownColumns, type GqlDataset } from '../../../model/src/readShapes';
import { entityTypeOf } from '../../../model/src/urn';
import { ADD_OWNERS, ADD_TAGS, ADD_TERMS, REMOVE_OWNER, REMOVE_TAG, REMOVE_TERM } from '../catalogClient/queries';
import { urnArg, type ParsedArg } from './args';
import { mustExist, type StepDeps } from './catalogSteps';
import { failed, failedFrom, label, unchanged } from './refusal';

/** What a tag or term command appends to or removes from. */
interface LabelKind {
  /** The argument that lists them. */
  list: 'tags' | 'terms';
  /** Their entity type. */
  entityType: 'tag' | 'glossaryTerm';
  noun: 'tag' | 'glossary term';
  /** The dataset's aspect that holds them (a column's are in editableSchemaMetadata). */
  aspect: 'globalTags' | 'glossaryTerms';
}

const TAGS: LabelKind = { list: 'tags', entityType: 'tag', noun: 'tag', aspect: 'globalTags' };
const TERMS: LabelKind = { list: 'terms', entityType: 'glossaryTerm', noun: 'glossary term', aspect: 'glossaryTerms' };

/** A URN list argument whose every item is of `entityType`. */
function listArg(a: Record<string, unknown>, key: string, entityTypes: readonly string[]): ParsedArg[] {
  const v = a[key];
  if (!Array.isArray(v) || v.length === 0)
    return failed('badInput', `'${key}' must be a non-empty list of ${entityTypes.join(' or ')} URNs`);
  return v.map((x, i) => {
    const p = urnArg({ [`${key}[${i}]`]: x }, `${key}[${i}]`);
    if (!entityTypes.includes(entityTypeOf(p.urn)))
      failed('badInput', `'${key}[${i}]' must be a ${entityTypes.join(' or ')} URN, not a ${entityTypeOf(p.urn)} URN`);
    return p;
  });
}

function fieldPathArg(a: Record<string, unknown>): string | undefined {
  const v = a['fieldPath'];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v === '') return failed('badInput', "'fieldPath' must be a column's field path");
  return v;
}

/** `pii`, `Classification.Sensitive`, `jdoe`: the name people read in a tag's, term's or owner's URN. */
function nameOf(p: ParsedArg): string {
  return inertText(entityName(p.urn), 'notification', 120);
}

function names(noun: string, values: readonly ParsedArg[]): string {
  return `${noun}${values.length === 1 ? '' : 's'} ${values.map(nameOf).join(', ')}`;
}

/** "db.users" or "column user_id of db.users". */
function where(dataset: ParsedArg, fieldPath: string | undefined): string {
  const name = inertText(entityName(dataset.urn), 'notification', 200);
  return fieldPath === undefined ? name : `column ${inertText(fieldPath, 'notification', 200)} of ${name}`;
}

/** The dataset (it must exist), and the column as its schema spells it (it must be there). */
async function target(
  ctx: StepDeps,
  a: Record<string, unknown>,
): Promise<{ dataset: ParsedArg; fieldPath: string | undefined }> {
  const dataset = urnArg(a, 'urn', 'dataset');
  const wanted = fieldPathArg(a);
  const found = await mustExist(ctx, dataset.text, 'dataset');
  if (wanted === undefined) return { dataset, fieldPath: undefined };
  const entity = found.state === 'found' ? (found.entity as GqlDataset) : undefined;
  const field = entity ? findField(shownColumns(entity), wanted) : undefined;
  if (!field)
    return failed(
      'notFound',
      `${label(dataset.urn)} has no column ${inertText(wanted, 'notification', 200)}; nothing was written`,
    );
  return { dataset, fieldPath: field.fieldPath };
}

/** The tags or terms the dataset (or its column) has now, as DataHub's UI lists them. */
async function current(ctx: StepDeps, dataset: ParsedArg, kind: LabelKind, fieldPath?: string): Promise<Set<string>> {
  const aspects = fieldPath === undefined ? [kind.aspect] : ['editableSchemaMetadata', 'schemaMetadata'];
  const r = await ctx.client.readAspects(dataset.text, aspects, ctx.signal);
  if (!r.ok) return failedFrom(r.error);
  const of = (holder: unknown): string[] => {
    if (typeof holder !== 'object' || holder === null) return [];
    if (kind.list === 'tags') return ((holder as GlobalTags).tags ?? []).map((t) => t.tag);
    return ((holder as GlossaryTerms).terms ?? []).map((t) => t.urn);
  };
  if (fieldPath === undefined) return new Set(of(r.aspects[kind.aspect]?.value));
  const out = new Set<string>();
  const holderKey = kind.list === 'tags' ? 'globalTags' : 'glossaryTerms';
  for (const name of ['editableSchemaMetadata', 'schemaMetadata']) {
    const value = r.aspects[name]?.value as Record<string, unknown> | undefined;
    const list = value?.[name === 'schemaMetadata' ? 'fields' : 'editableSchemaFieldInfo'];
    if (!Array.isArray(list)) continue;
    for (const f of list as Array<Record<string, unknown>>)
      if (f?.['fieldPath'] === fieldPath) for (const u of of(f[holderKey])) out.add(u);
  }
  return out;
}

/** Only what the editable side holds can be removed (DataHub's removeTag edits that side). */
async function removable(ctx: StepDeps, dataset: ParsedArg, kind: LabelKind, fieldPath?: string): Promise<Set<string>> {
  if (fieldPath === undefined) return current(ctx, dataset, kind);
  const r = await ctx.client.readAspects(dataset.text, ['editableSchemaMetadata'], ctx.signal);
  if (!r.ok) return failedFrom(r.error);
  const value = r.aspects['editableSchemaMetadata']?.value as Record<string, unknown> | undefined;
  const infos = Array.isArray(value?.['editableSchemaFieldInfo'])
    ? (value['editableSchemaFieldInfo'] as Array<Record<string, unknown>>)
    : [];
  const out = new Set<string>();
  for (const f of infos) {
    if (f?.['fieldPath'] !== fieldPath) continue;
    const holder = f[kind.list === 'tags' ? 'globalTags' : 'glossaryTerms'];
    if (kind.list === 'tags') for (const t of (holder as GlobalTags | undefined)?.tags ?? []) out.add(t.tag);
    else for (const t of (holder as GlossaryTerms | undefined)?.terms ?? []) out.add(t.urn);
  }
  return out;
}

async function mutate(ctx: StepDeps, query: string, input: Record<string, unknown>): Promise<void> {
  const r = await ctx.client.mutate(query, { input }, ctx.signal);
  if (!r.ok) failedFrom(r.error);
}

function unique(values: readonly ParsedArg[]): ParsedArg[] {
  const seen = new Set<string>();
  return values.filter((v) => !seen.has(v.text) && seen.add(v.text) !== undefined);
}

function subResource(fieldPath: string | undefined): Record<string, unknown> {
  return fieldPath === undefined ? {} : { subResource: fieldPath, subResourceType: 'DATASET_FIELD' };
}

async function addLabels(ctx: StepDeps, a: Record<string, unknown>, kind: LabelKind): Promise<WriteResult> {
  const values = unique(listArg(a, kind.list, [kind.entityType]));
  const { dataset, fieldPath } = await target(ctx, a);
  const has = await current(ctx, dataset, kind, fieldPath);
  const missing = values.filter((v) => !has.has(v.text));
  if (missing.length === 0)
    return unchanged(
      dataset.urn,
      `${fieldPath === undefined ? 'it' : `column ${inertText(fieldPath, 'notification', 200)}`} already has ${names(kind.noun, values)}`,
    );
  const urns = missing.map((m) => m.text);
  await mutate(ctx, kind.list === 'tags' ? ADD_TAGS : ADD_TERMS, {
    [kind.list === 'tags' ? 'tagUrns' : 'termUrns']: urns,
    resourceUrn: dataset.text,
    ...subResource(fieldPath),
  });
  ctx.client.invalidate([dataset.text]);
  return {
    status: 'written',
    aspects: [fieldPath === undefined ? kind.aspect : 'editableSchemaMetadata'],
    message: `Added ${names(kind.noun, missing)} to ${where(dataset, fieldPath)}.`,
    added: urns,
  };
}

async function removeLabels(ctx: StepDeps, a: Record<string, unknown>, kind: LabelKind): Promise<WriteResult> {
  const values = unique(listArg(a, kind.list, [kind.entityType]));
  const { dataset, fieldPath } = await target(ctx, a);
  const has = await removable(ctx, dataset, kind, fieldPath);
  const there = values.filter((v) => has.has(v.text));
  if (there.length === 0)
    return unchanged(
      dataset.urn,
      `${fieldPath === undefined ? 'it' : `column ${inertText(fieldPath, 'notification', 200)}`} has no ${names(kind.noun, values)}`,
    );
  for (const v of there)
    await mutate(ctx, kind.list === 'tags' ? REMOVE_TAG : REMOVE_TERM, {
      [kind.list === 'tags' ? 'tagUrn' : 'termUrn']: v.text,
      resourceUrn: dataset.text,
      ...subResource(fieldPath),
    });
  ctx.client.invalidate([dataset.text]);
  return {
    status: 'written',
    aspects: [fieldPath === undefined ? kind.aspect : 'editableSchemaMetadata'],
    message: `Removed ${names(kind.noun, there)} from ${where(dataset, fieldPath)}.`,
    removed: there.map((t) => t.text),
  };
}

export const addTags = (a: Record<string, unknown>, ctx: StepDeps): Promise<WriteResult> => addLabels(ctx, a, TAGS);
export const removeTags = (a: Record<string, unknown>, ctx: StepDeps): Promise<WriteResult> =>
  removeLabels(ctx, a, TAGS);
export const addTerms = (a: Record<string, unknown>, ctx: StepDeps): Promise<WriteResult> => addLabels(ctx, a, TERMS);
export const removeTerms = (a: Record<string, unknown>, ctx: StepDeps): Promise<WriteResult> =>
  removeLabels(ctx, a, TERMS);

function ownershipTypeArg(a: Record<string, unknown>): string {
  const v = a['ownershipType'];
  if (typeof v === 'string' && v.startsWith('urn:li:ownershipType:') && v.length > 'urn:li:ownershipType:'.length)
    return v;
  if (typeof v === 'string' && OWNERSHIP_TYPES.includes(v.toUpperCase()) && v.toUpperCase() !== 'CUSTOM')
    return v.toUpperCase();
  return failed(
    'badInput',
    `'ownershipType' must be an ownership type (${OWNERSHIP_TYPES.filter((t) => t !== 'CUSTOM').join(', ')}) or an urn:li:ownershipType: URN`,
  );
}

/** "TECHNICAL_OWNER", or a custom type's id. */
function typeWord(type: string): string {
  return inertText(type.startsWith('urn:') ? type.slice(type.lastIndexOf(':') + 1) : type, 'notification', 80);
}

async function currentOwners(ctx: StepDeps, dataset: ParsedArg): Promise<Owner[]> {
  const r = await ctx.client.readAspects(dataset.text, ['ownership'], ctx.signal);
  if (!r.ok) return failedFrom(r.error);
  const value = r.aspects['ownership']?.value as Ownership | undefined;
  return Array.isArray(value?.owners) ? value.owners : [];
}

export async function addOwners(a: Record<string, unknown>, ctx: StepDeps): Promise<WriteResult> {
  const owners = unique(listArg(a, 'owners', ['corpuser', 'corpGroup']));
  const type = ownershipTypeArg(a);
  const typeUrn = ownershipTypeUrn(type);
  const { dataset } = await target(ctx, { urn: a['urn'] });
  const has = await currentOwners(ctx, dataset);
  const missing = owners.filter((o) => !has.some((h) => h.owner === o.text && ownerTypeUrn(h) === typeUrn));
  if (missing.length === 0)
    return unchanged(dataset.urn, `it already has ${names('owner', owners)} (${typeWord(type)})`);
  // A type name goes as `type` (DataHub keys it by its __system__ entity); a custom type as its URN.
  const typed = type.startsWith('urn:') ? { type: 'CUSTOM', ownershipTypeUrn: type } : { type };
  await mutate(ctx, ADD_OWNERS, {
    owners: missing.map((o) => ({
      ownerUrn: o.text,
      ownerEntityType: entityTypeOf(o.urn) === 'corpGroup' ? 'CORP_GROUP' : 'CORP_USER',
      ...typed,
    })),
    resourceUrn: dataset.text,
  });
  ctx.client.invalidate([dataset.text]);
  return {
    status: 'written',
    aspects: ['ownership'],
    message: `Added ${names('owner', missing)} (${typeWord(type)}) to ${where(dataset, undefined)}.`,
    added: missing.map((o) => o.text),
  };
}

/** The inverse of addOwners: each owner removed as an owner of that type only (removeOwner with its ownershipTypeUrn). */
export async function removeOwners(a: Record<string, unknown>, ctx: StepDeps): Promise<WriteResult> {
  const owners = unique(listArg(a, 'owners', ['corpuser', 'corpGroup']));
  const type = ownershipTypeArg(a);
  const typeUrn = ownershipTypeUrn(type);
  const { dataset } = await target(ctx, { urn: a['urn'] });
  const has = await currentOwners(ctx, dataset);
  const there = owners.filter((o) => has.some((h) => h.owner === o.text && ownerTypeUrn(h) === typeUrn));
  if (there.length === 0) return unchanged(dataset.urn, `it has no ${names('owner', owners)} (${typeWord(type)})`);
  for (const o of there)
    await mutate(ctx, REMOVE_OWNER, { ownerUrn: o.text, ownershipTypeUrn: typeUrn, resourceUrn: dataset.text });
  ctx.client.invalidate([dataset.text]);
  return {
    status: 'written',
    aspects: ['ownership'],
    message: `Removed ${names('owner', there)} (${typeWord(type)}) from ${where(dataset, undefined)}.`,
    removed: there.map((o) => o.text),
  };
}
