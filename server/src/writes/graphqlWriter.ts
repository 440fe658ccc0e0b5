/**
 * The GraphQL path (`catalogLens.writePath: graphql`): DataHub's own mutations, as its UI sends
 * them, where they change only what the command names; the aspect path where a mutation would
 * erase more (an edited dataset description) or the catalog refuses it (an ML description), and
 * the message then says so.
 */
import {
  EDITABLE_ML_ASPECT,
  type EditableDatasetProperties,
  type EditableMlProperties,
} from '../../../model/src/aspects';
import { ADD_LINK, UPDATE_DATASET, UPDATE_DESCRIPTION } from '../catalogClient/queries';
import { readMergeWrite, stamp, type StepDeps } from './catalogSteps';
import { mergeDatasetDescription, mergeDescription } from './merge';
import { failed, failedFrom, label } from './refusal';
import type { Writer } from './writer';

const GRAPHQL_WOULD_ERASE =
  "the dataset already has an edited description, which DataHub's updateDataset would replace whole (erasing its display name and created stamp), so Catalog Lens changes it through the aspect path";

const ML_NOT_DESCRIBED =
  "this catalog's updateDescription does not describe ML entities, so the description goes through the aspect path";

export const graphqlWriter: Writer = {
  path: 'graphql',

  async setDescription(ctx, urn, dataset, description) {
    const edited = dataset?.editableProperties;
    if (!edited) {
      // No edited aspect yet: updateDataset creates it, and there is nothing it could drop.
      await mutate(ctx, UPDATE_DATASET, { urn: urn.text, input: { editableProperties: { description } } });
      return { written: true, note: '' };
    }
    if (edited.description === description) return { written: false, note: '' };
    // updateDataset would replace the edited aspect whole: its display name dropped, `created`
    // reset (DatasetUpdateInputMapper); the aspect path changes the description alone.
    const written = await readMergeWrite<EditableDatasetProperties>(
      ctx,
      urn,
      'editableDatasetProperties',
      (cur) => mergeDatasetDescription(cur, description, stamp(ctx)),
      GRAPHQL_WOULD_ERASE,
    );
    return written
      ? {
          written,
          note: " (through the aspect path: DataHub's updateDataset would erase the edited display name and created stamp)",
        }
      : { written, note: '' };
  },

  /**
   * A link through DataHub's `addLink`, which appends and keeps every other link (LinkUtils.addLink);
   * `updateDataset` would replace the whole list. Added only when no link has its url:
   * addLink itself compares url and label.
   */
  async addLink(ctx, urn, link) {
    const r = await ctx.client.readLinks(urn.text, ctx.signal);
    if (!r.ok) return failedFrom(r.error);
    if (!r.links) return failed('notFound', `${label(urn.urn)} is not in the catalog; nothing was written`);
    if (r.links.some((e) => e.url === link.url)) return false;
    await mutate(ctx, ADD_LINK, {
      input: { linkUrl: link.url, label: link.description || link.url, resourceUrn: urn.text },
    });
    return true;
  },

  async setColumnDescription(ctx, urn, dataset, fieldPath, description) {
    // updateDescription edits the entry whose path equals the schema's exactly (DescriptionUtils), as the check does.
    const entry = dataset.editableSchemaMetadata?.editableSchemaFieldInfo.find((e) => e.fieldPath === fieldPath);
    if (entry && entry.description === description) return false;
    await mutate(ctx, UPDATE_DESCRIPTION, {
      input: { description, resourceUrn: urn.text, subResource: fieldPath, subResourceType: 'DATASET_FIELD' },
    });
    return true;
  },

  /**
   * `updateDescription` with the entity as resourceUrn, as DataHub's own UI does; a catalog that
   * refuses it (a GraphQL error, not a lost connection or a missing privilege) gets the aspect path.
   * Its own words (which may name aspects and inputs) are left out of the message; the path taken is named.
   */
  async setMlDescription(ctx, urn, kind, where, description) {
    const r = await ctx.client.mutate(
      UPDATE_DESCRIPTION,
      { input: { description, resourceUrn: urn.text } },
      ctx.signal,
    );
    if (r.ok) return { aspect: EDITABLE_ML_ASPECT[kind], note: '' };
    if (r.error.kind !== 'rejected') return failedFrom(r.error);
    const wrote = await readMergeWrite<EditableMlProperties>(
      ctx,
      urn,
      where,
      (cur) => mergeDescription(cur, description),
      ML_NOT_DESCRIBED,
    );
    return wrote
      ? {
          aspect: where,
          note: " (through the aspect path: this catalog's updateDescription does not describe ML entities)",
        }
      : undefined;
  },
};

async function mutate(ctx: StepDeps, query: string, variables: Record<string, unknown>): Promise<void> {
  const r = await ctx.client.mutate(query, variables, ctx.signal);
  if (!r.ok) failedFrom(r.error);
}
