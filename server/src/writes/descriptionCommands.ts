/**
 * The description commands: a dataset's description (and a link), a column's, an ML entity's, a
 * glossary term's, glossary node's, data product's or structured property's.
 * Each checks that the entity exists, then lets the writer of its settings (writer.ts) write.
 */
import { EDITABLE_ML_ASPECT } from '../../../model/src/aspects';
import { article, nearNames } from '../../../model/src/entityNames';
import { findField, simplePath } from '../../../model/src/fieldPath';
import { inertText } from '../../../model/src/inertText';
import { isRecord } from '../../../model/src/json';
import { isMlKind, lookupLabels } from '../../../model/src/kinds';
import type { WriteResult } from '../../../model/src/protocol';
import { shownMlDescription } from '../../../model/src/readShapes';
import { entityTypeOf } from '../../../model/src/urn';
import { linkArg, textArg, urnArg } from './args';
import { mustExist, PROPERTIES_ASPECT } from './catalogSteps';
import { UPDATE_DESCRIPTION, UPDATE_STRUCTURED_PROPERTY } from '../catalogClient/queries';
import { failed, failedFrom, label, unchanged } from './refusal';
import type { CommandDeps } from './writer';

export async function setDatasetDescription(a: Record<string, unknown>, ctx: CommandDeps): Promise<WriteResult> {
  const urn = urnArg(a, 'urn', 'dataset');
  const link = a['link'] === undefined || a['link'] === null ? undefined : linkArg(a['link']);
  // With a link and no description, only the link is added.
  const description = a['description'] === undefined && link ? undefined : textArg(a, 'description');
  const dataset = await mustExist(ctx, urn.text, 'dataset');
  const written: string[] = [];
  const found = dataset.state === 'found' && dataset.kind === 'dataset' ? dataset.entity : undefined;
  // What the write replaces: the edited description (what DataHub's UI edits and shows first).
  const previous = nonEmptyText(found?.editableProperties?.description);
  const { written: described, note } =
    description === undefined
      ? { written: false, note: '' }
      : await ctx.writer.setDescription(ctx, urn, found, description);
  if (described) written.push('editableDatasetProperties');
  if (link && (await ctx.writer.addLink(ctx, urn, link))) written.push('institutionalMemory');
  ctx.client.invalidate([urn.text]);
  if (written.length === 0)
    return unchanged(
      urn.urn,
      description === undefined
        ? 'a link with that url exists'
        : link
          ? 'the description is already so and a link with that url exists'
          : 'the description is already so',
    );
  return {
    status: 'written',
    aspects: written,
    message: `${restoring(a) && !written.includes('institutionalMemory') ? RESTORED : wroteWhat(written)} ${label(urn.urn)}${note}`,
    ...(described ? { previous } : {}),
  };
}

/** What a write that undoes an earlier one says it did: it put that write's text back. */
const RESTORED = 'Restored the earlier description of';

/** The write puts back what an earlier write replaced (the extension's Undo sends `restoring`). */
function restoring(a: Record<string, unknown>): boolean {
  return a['restoring'] === true;
}

/** A description as the catalog holds it, or null for none (absent, null or only spaces). */
function nonEmptyText(d: string | null | undefined): string | null {
  return d !== undefined && d !== null && d.trim() !== '' ? d : null;
}

/**
 * What a dataset write did, in the user's words ("Wrote the description and a link of"): the
 * aspect names stay in the result's `aspects` and in the server's log line.
 */
function wroteWhat(aspects: readonly string[]): string {
  const description = aspects.includes('editableDatasetProperties');
  const link = aspects.includes('institutionalMemory');
  if (description && link) return 'Wrote the description and a link of';
  return description ? 'Wrote the description of' : 'Added a link to';
}

export async function setColumnDescription(a: Record<string, unknown>, ctx: CommandDeps): Promise<WriteResult> {
  const urn = urnArg(a, 'urn', 'dataset');
  const column = textArg(a, 'fieldPath');
  const description = textArg(a, 'description');
  const dataset = await mustExist(ctx, urn.text, 'dataset');
  if (dataset.state !== 'found' || dataset.kind !== 'dataset')
    return failed('notFound', `${label(urn.urn)} is not in the catalog`);
  const fields = dataset.entity.schemaMetadata?.fields ?? [];
  const field = findField(fields, column);
  if (!field) {
    const near = nearNames(
      column,
      fields.map((f) => simplePath(f.fieldPath)),
    );
    return failed(
      'badInput',
      `${label(urn.urn)} has no column '${inertText(column, 'notification')}'${near.length ? `; near names: ${near.map((n) => inertText(n, 'notification', 80)).join(', ')}` : fields.length ? '' : ' (the catalog holds no schema for it)'}`,
    );
  }
  const previous = nonEmptyText(
    dataset.entity.editableSchemaMetadata?.editableSchemaFieldInfo.find((e) => e.fieldPath === field.fieldPath)
      ?.description,
  );
  if (!(await ctx.writer.setColumnDescription(ctx, urn, dataset.entity, field.fieldPath, description)))
    return unchanged(urn.urn, `column '${inertText(column, 'notification')}' already has this description`);
  ctx.client.invalidate([urn.text]);
  return {
    status: 'written',
    aspects: ['editableSchemaMetadata'],
    previous,
    message: `${restoring(a) ? RESTORED : 'Wrote the description of'} column '${inertText(simplePath(field.fieldPath), 'notification')}' of ${label(urn.urn)}`,
  };
}

/**
 * The description of an ML entity, written where what the catalog shows comes from. DataHub keeps
 * two: the properties aspect (`mlFeatureProperties` …), which ingestion writes and may overwrite on
 * its next run, and the edited aspect (`editableMlFeatureProperties` …), which its UI and
 * updateDescription write and which the UI shows first (readShapes.shownMlDescription).
 *
 * - GraphQL path: `updateDescription` with the entity as resourceUrn, as DataHub's own UI does
 *   (UpdateDescriptionResolver → DescriptionUtils.updateMl…Description: checks the entity exists,
 *   reads the edited aspect, sets its description, writes it back). A catalog that refuses it — the
 *   local catalog's default mode describes only dataset fields there — gets the aspect path
 *   instead, and the message says so.
 * - Aspect path: read-merge-write (If-Version-Match) of the edited aspect when it holds a
 *   description (writing the properties aspect would change nothing the user sees), else of the
 *   properties aspect; every other field is kept, and nothing is written when it already says so.
 *
 * The entity must exist: DataHub's upsert would otherwise create a ghost.
 */
export async function setMlDescription(a: Record<string, unknown>, ctx: CommandDeps): Promise<WriteResult> {
  const urn = urnArg(a, 'urn');
  const kind = urn.urn.kind;
  if (kind !== 'mlFeature' && kind !== 'mlFeatureTable' && kind !== 'mlModel' && kind !== 'mlModelGroup')
    return failed(
      'badInput',
      `'urn' must name an ML feature, feature table, ML model or model group, not a ${entityTypeOf(urn.urn)}${kind === 'dataset' ? ' (setDatasetDescription describes datasets)' : ''}`,
    );
  const description = textArg(a, 'description');
  const found = await mustExist(ctx, urn.text, kind);
  const entity = found.state === 'found' && found.kind === kind ? found.entity : undefined;
  if (entity && shownMlDescription(entity) === description) return unchanged(urn.urn, 'the description is already so');
  const edited = entity?.editableProperties?.description;
  const where = edited && edited.trim() !== '' ? EDITABLE_ML_ASPECT[kind] : PROPERTIES_ASPECT[kind]!;
  // What the write replaces: the description of the aspect it writes.
  const previous = nonEmptyText(edited && edited.trim() !== '' ? edited : entity?.properties?.description);
  const wrote = await ctx.writer.setMlDescription(ctx, urn, kind, where, description);
  ctx.client.invalidate([urn.text]);
  if (!wrote) return unchanged(urn.urn, 'the description is already so');
  return {
    status: 'written',
    aspects: [wrote.aspect],
    previous,
    message: `${restoring(a) ? RESTORED : 'Wrote the description of'} ${label(urn.urn)}${wrote.note}`,
  };
}

/** The kinds setDescription describes, and the aspect and field DataHub keeps their description in. */
const DESCRIBED_ELSEWHERE = {
  glossaryTerm: 'glossaryTermInfo.definition',
  glossaryNode: 'glossaryNodeInfo.definition',
  dataProduct: 'dataProductProperties.description',
  structuredProperty: 'propertyDefinition.description',
} as const;

/**
 * The description of a glossary term, a glossary node (term group), a data product or a structured
 * property definition, on either write path through DataHub's own mutation, as its UI sends it.
 * These kinds keep one description only, with no edited aspect beside it, and the mutation
 * changes that field alone:
 *
 * - `updateDescription` with the entity as resourceUrn (datahub-graphql-core/.../resolvers/mutate/
 *   UpdateDescriptionResolver.java → DescriptionUtils.java: updateGlossaryTermDescription sets
 *   glossaryTermInfo.definition, updateGlossaryNodeDescription glossaryNodeInfo.definition,
 *   updateDataProductDescription dataProductProperties.description; each checks the entity
 *   exists, reads the aspect, changes that field and writes the aspect back);
 * - a structured property: `updateStructuredProperty` with `{urn, description}`
 *   (UpdateStructuredPropertyResolver: a patch of the definition's description).
 *
 * A catalog that refuses the mutation (the spec's describes dataset fields only) makes the write
 * fail with its words. The entity must exist: checked here first.
 */
export async function setDescription(a: Record<string, unknown>, ctx: CommandDeps): Promise<WriteResult> {
  const urn = urnArg(a, 'urn');
  const kind = urn.urn.kind === 'other' ? urn.urn.entityType : urn.urn.kind;
  if (!Object.hasOwn(DESCRIBED_ELSEWHERE, kind))
    return failed(
      'badInput',
      `'urn' must name a glossary term, glossary node, data product or structured property, not a ${entityTypeOf(urn.urn)}${kind === 'dataset' ? ' (setDatasetDescription describes datasets)' : isMlKind(kind) ? ' (setMlDescription describes ML entities)' : ''}`,
    );
  const described = kind as keyof typeof DESCRIBED_ELSEWHERE;
  const description = textArg(a, 'description');
  ctx.client.invalidate([urn.text]);
  const found = (await ctx.client.resolve([{ urn: urn.text, kind: described }], ctx.signal)).get(urn.text);
  if (!found) return failed('cancelled', 'cancelled');
  if (found.state === 'error') return failedFrom(found.error);
  const word = lookupLabels(described).word;
  if (found.state === 'missing')
    return failed(
      'notFound',
      `${label(urn.urn)} is not in the catalog; nothing was written (${article(word)} ${word} must exist before it is described)`,
    );
  const current = found.kind === described ? nonEmptyText(catalogText(found.entity, described)) : null;
  if (current === description) return unchanged(urn.urn, 'the description is already so');
  const r =
    described === 'structuredProperty'
      ? await ctx.client.mutate(UPDATE_STRUCTURED_PROPERTY, { input: { urn: urn.text, description } }, ctx.signal)
      : await ctx.client.mutate(UPDATE_DESCRIPTION, { input: { description, resourceUrn: urn.text } }, ctx.signal);
  ctx.client.invalidate([urn.text]);
  if (!r.ok) return failedFrom(r.error);
  return {
    status: 'written',
    aspects: [DESCRIBED_ELSEWHERE[described].split('.')[0]!],
    previous: current,
    message: `${restoring(a) ? RESTORED : 'Wrote the description of'} ${label(urn.urn)}`,
  };
}

/** What the catalog shows as the description (`properties.description`; a property's `definition.description`). */
function catalogText(entity: unknown, kind: keyof typeof DESCRIBED_ELSEWHERE): string | undefined {
  const holder = isRecord(entity) ? entity[kind === 'structuredProperty' ? 'definition' : 'properties'] : undefined;
  const d = isRecord(holder) ? holder['description'] : undefined;
  return typeof d === 'string' ? d : undefined;
}
