/**
 * The member-list commands: add features to a feature table or a model, groups to a model, and
 * remove them again (the client's Undo and the Remove palette commands). Both paths write these
 * through the aspect path: read-merge-write of the properties aspect, with If-Version-Match.
 */
import type { MlFeatureTableProperties, MlModelProperties } from '../../../model/src/aspects';
import type { WriteResult } from '../../../model/src/protocol';
import { urnArg, urnList, type ParsedArg } from './args';
import { missingOf, readMergeWrite, resolveFresh, type StepDeps } from './catalogSteps';
import { appendUnique, removeAll } from './merge';
import { failed, label, unchanged } from './refusal';

/** A member list of an ML entity's properties aspect, and the argument names its commands take. */
export interface MemberList {
  target: 'table' | 'model';
  targetKind: 'mlFeatureTable' | 'mlModel';
  members: 'features' | 'groups';
  memberKind: 'mlFeature' | 'mlModelGroup';
  aspectName: 'mlFeatureTableProperties' | 'mlModelProperties';
  list: 'mlFeatures' | 'groups';
}

export const FEATURES_OF_TABLE: MemberList = {
  target: 'table',
  targetKind: 'mlFeatureTable',
  members: 'features',
  memberKind: 'mlFeature',
  aspectName: 'mlFeatureTableProperties',
  list: 'mlFeatures',
};
export const FEATURES_OF_MODEL: MemberList = {
  target: 'model',
  targetKind: 'mlModel',
  members: 'features',
  memberKind: 'mlFeature',
  aspectName: 'mlModelProperties',
  list: 'mlFeatures',
};
export const GROUPS_OF_MODEL: MemberList = {
  target: 'model',
  targetKind: 'mlModel',
  members: 'groups',
  memberKind: 'mlModelGroup',
  aspectName: 'mlModelProperties',
  list: 'groups',
};

/** An append or a removal on one member list, its arguments read and checked by the list's names. */
export function listWrite(
  op: typeof appendToList,
  l: MemberList,
): (a: Record<string, unknown>, ctx: StepDeps) => Promise<WriteResult> {
  return (a, ctx) =>
    op(ctx, urnArg(a, l.target, l.targetKind), urnList(a, l.members, l.memberKind), l.aspectName, l.list);
}

export async function appendToList(
  ctx: StepDeps,
  target: ParsedArg,
  values: ParsedArg[],
  aspectName: 'mlFeatureTableProperties' | 'mlModelProperties',
  list: 'mlFeatures' | 'groups',
): Promise<WriteResult> {
  if (values.length === 0)
    failed('badInput', `'${list === 'groups' ? 'groups' : 'features'}' is empty: nothing to add`);
  // The target and every member must exist: DataHub's upsert would create a ghost of either, and
  // the catalog would list entities nobody can open.
  // One request for the target and its new members.
  const found = await resolveFresh(ctx, [target, ...values]);
  if (missingOf(found, [target]).length > 0)
    failed('notFound', `${label(target.urn)} does not exist in the catalog: create it first (nothing was written)`);
  const absent = missingOf(found, values);
  if (absent.length > 0)
    failed('notFound', `not in the catalog, create ${absent.length === 1 ? 'it' : 'them'} first: ${absent.join(', ')}`);
  let added: string[] = [];
  const wrote = await readMergeWrite<MlFeatureTableProperties & MlModelProperties>(ctx, target, aspectName, (cur) => {
    // An entity DataHub holds without its properties aspect (only its key, say) gets one with the list.
    const old = cur?.[list] ?? [];
    const next = appendUnique(
      old,
      values.map((v) => v.text),
    );
    added = next ? next.slice(old.length) : [];
    return next ? { ...(cur ?? {}), [list]: next } : undefined;
  });
  ctx.client.invalidate([target.text]);
  const noun = list === 'groups' ? 'group' : 'feature';
  if (!wrote) return unchanged(target.urn, `every ${noun} is already there`);
  return {
    status: 'written',
    aspects: [aspectName],
    message: `Added ${added.length} ${noun}${added.length === 1 ? '' : 's'} to ${label(target.urn)}`,
    added,
  };
}

/**
 * The inverse of appendToList (the client's Undo, and the Remove palette commands): the same
 * read-merge-write with If-Version-Match and a retry on a conflict, so a member someone else
 * appended meanwhile stays. Only the target must exist; a member need not (a reference to an
 * entity deleted since is exactly what one removes). A list the removal empties is dropped from the
 * aspect: `mlFeatures` and `groups` are optional (DataHub's MLFeatureTableProperties.pdl,
 * MLModelProperties.pdl), and an append to an aspect without the list created it, so its undo
 * leaves the aspect as it was.
 */
export async function removeFromList(
  ctx: StepDeps,
  target: ParsedArg,
  values: ParsedArg[],
  aspectName: 'mlFeatureTableProperties' | 'mlModelProperties',
  list: 'mlFeatures' | 'groups',
): Promise<WriteResult> {
  const noun = list === 'groups' ? 'model group' : 'feature';
  if (values.length === 0)
    failed('badInput', `'${list === 'groups' ? 'groups' : 'features'}' is empty: nothing to remove`);
  const found = await resolveFresh(ctx, [target]);
  if (missingOf(found, [target]).length > 0)
    failed('notFound', `${label(target.urn)} does not exist in the catalog; nothing was removed`);
  let removed: string[] = [];
  const wrote = await readMergeWrite<MlFeatureTableProperties & MlModelProperties>(ctx, target, aspectName, (cur) => {
    const r = removeAll(
      cur?.[list],
      values.map((v) => v.text),
    );
    removed = r?.removed ?? [];
    if (!r || !cur) return undefined;
    const next: Record<string, unknown> = { ...cur, [list]: r.next };
    if (r.next.length === 0) delete next[list];
    return next;
  });
  ctx.client.invalidate([target.text]);
  if (!wrote)
    return unchanged(
      target.urn,
      values.length === 1 ? `it lists no such ${noun}` : `it lists none of these ${values.length} ${noun}s`,
    );
  return {
    status: 'written',
    aspects: [aspectName],
    message: `Removed ${removed.length} ${noun}${removed.length === 1 ? '' : 's'} from ${label(target.urn)}`,
    removed,
  };
}
