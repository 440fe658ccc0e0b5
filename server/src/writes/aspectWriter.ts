/**
 * The aspect path (`catalogLens.writePath: aspects`, the default): every write is a read-merge-write
 * of one aspect with If-Version-Match (catalogSteps.ts), which changes only what the command names.
 */
import type {
  EditableDatasetProperties,
  EditableMlProperties,
  EditableSchemaMetadata,
  InstitutionalMemory,
} from '../../../model/src/aspects';
import { readMergeWrite, stamp } from './catalogSteps';
import { mergeColumnDescription, mergeDatasetDescription, mergeDescription, mergeLink } from './merge';
import type { Writer } from './writer';

export const aspectWriter: Writer = {
  path: 'aspects',

  async setDescription(ctx, urn, _dataset, description) {
    const written = await readMergeWrite<EditableDatasetProperties>(ctx, urn, 'editableDatasetProperties', (cur) =>
      mergeDatasetDescription(cur, description, stamp(ctx)),
    );
    return { written, note: '' };
  },

  addLink(ctx, urn, link) {
    return readMergeWrite<InstitutionalMemory>(ctx, urn, 'institutionalMemory', (cur) =>
      mergeLink(cur, link, stamp(ctx)),
    );
  },

  setColumnDescription(ctx, urn, dataset, fieldPath, description) {
    const schemaPaths = (dataset.schemaMetadata?.fields ?? []).map((f) => f.fieldPath);
    return readMergeWrite<EditableSchemaMetadata>(ctx, urn, 'editableSchemaMetadata', (cur) =>
      mergeColumnDescription(cur, fieldPath, description, stamp(ctx), schemaPaths),
    );
  },

  async setMlDescription(ctx, urn, _kind, where, description) {
    const wrote = await readMergeWrite<EditableMlProperties>(ctx, urn, where, (cur) =>
      mergeDescription(cur, description),
    );
    return wrote ? { aspect: where, note: '' } : undefined;
  },
};
