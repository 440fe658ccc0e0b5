/**
 * The write commands (docs/dev/lsp-extensions.md "Server commands"): each reads what the catalog
 * holds, merges (merge.ts) and writes only what changed, through the aspect path (default) or the
 * GraphQL mutations (`catalogLens.writePath`).
 * Each answers a WriteResult: written, unchanged (nothing written), or failed with why.
 */
import { randomBytes } from 'node:crypto';
import type { CancellationToken } from 'vscode-languageserver';
import {
  checkAspect,
  type AspectName,
  EDITABLE_ML_ASPECT,
  type AuditStamp,
  type EditableDatasetProperties,
  type EditableMlProperties,
  type EditableSchemaMetadata,
  type InstitutionalMemory,
  type MlFeatureTableProperties,
  type MlModelProperties,
} from '../../../model/src/aspects';
import { findField, simplePath } from '../../../model/src/fieldPath';
import { shownMlDescription } from '../../../model/src/readShapes';
import { inertText, MESSAGE_LIMIT } from '../../../model/src/inertText';
import { ServerCommands as Commands } from '../../../model/src/commandIds';
import { type Settings, type WriteCommandId, type WriteResult, writeOutcome } from '../../../model/src/protocol';
import { entityTypeOf, parseUrn, type Urn } from '../../../model/src/urn';
import { entityName, kindWord, nearNames } from '../../../model/src/entityNames';
import type { CatalogClient, Resolution } from '../catalogClient/client';
import type { CatalogClientError } from '../catalogClient/errors';
import {
  ADD_LINK,
  DATASET_LINKS,
  isResolvable,
  UPDATE_DATASET,
  UPDATE_DESCRIPTION,
  type ResolvableKind,
} from '../catalogClient/queries';
import { signalOf, type CommandHandler } from '../lsp';
import type { PipelineContext } from '../pipeline/check';
import {
  appendUnique,
  mergeColumnDescription,
  mergeDatasetDescription,
  mergeDescription,
  mergeLink,
  removeAll,
} from './merge';

const MAX_ATTEMPTS = 25;

class Refusal extends Error {
  constructor(readonly result: WriteResult & { status: 'failed' }) {
    super(result.message);
  }
}

const failed = (kind: Extract<WriteResult, { status: 'failed' }>['kind'], message: string): never => {
  throw new Refusal({ status: 'failed', kind, message });
};

/** What the write commands are given by the wiring: settings and catalog clients, trust, and a way to re-check. */
export interface WriteContext extends PipelineContext<CatalogClient> {
  /** false in Restricted Mode: every write is refused. */
  readonly trusted: boolean;
  /** Check the open documents again: a write changed what the catalog answers. */
  revalidateAll(): void;
}

interface Ctx {
  settings: Settings;
  client: CatalogClient;
  signal: AbortSignal | undefined;
  /** `systemMetadata.runId` of every aspect this command writes (see runIdFor). */
  runId: string;
}

/**
 * One run id per command: DataHub's rollback (`datahub ingest rollback --run-id`) then undoes that
 * one edit. A fixed id would tie every edit ever made through the extension to one rollback.
 */
export function runIdFor(now: Date = new Date()): string {
  return `catalog-lens-${now.toISOString().replace(/[-:]|\.\d+/g, '')}-${randomBytes(4).toString('hex')}`;
}

export function writeCommands(context: WriteContext): Record<WriteCommandId, CommandHandler<WriteResult>> {
  const wrap =
    (
      command: WriteCommandId,
      run: (args: Record<string, unknown>, ctx: Ctx) => Promise<WriteResult>,
    ): CommandHandler<WriteResult> =>
    async (args: unknown, token: CancellationToken): Promise<WriteResult> => {
      let path: Settings['writePath'] | undefined;
      const logged = (r: WriteResult): WriteResult => {
        context.log(writeLogLine(command, args, path, r));
        return r;
      };
      try {
        if (!context.trusted)
          failed(
            'rejected',
            'This workspace is not trusted (Restricted Mode): Catalog Lens writes nothing to the catalog here.',
          );
        if (typeof args !== 'object' || args === null || Array.isArray(args))
          failed('badInput', 'expected one object argument');
        const a = args as Record<string, unknown>;
        const settings = await context.settingsFor(typeof a['uri'] === 'string' ? a['uri'] : undefined);
        path = settings.writePath;
        const client = context.clientFor(settings);
        if (!client.configured) failed('notConfigured', 'no catalog is configured (catalogLens.url is empty)');
        const result = await run(a, { settings, client, signal: signalOf(token), runId: runIdFor() });
        if (result.status === 'written') context.revalidateAll();
        return logged(shown(result));
      } catch (e) {
        if (e instanceof Refusal) return logged(shown(e.result));
        context.log(`write ${command} ${targetOf(args)}: failed: ${e instanceof Error ? e.message : String(e)}`);
        throw e;
      }
    };
  // The output boundary: whatever a message quotes (URNs, paths, the catalog's words), the client
  // shows it in a notification, where `[label](command:…)` would be a link that runs a command.
  const shown = (r: WriteResult): WriteResult => ({
    ...r,
    message: inertText(r.message, 'notification', MESSAGE_LIMIT),
  });

  return {
    [Commands.setDatasetDescription]: wrap(Commands.setDatasetDescription, setDatasetDescription),
    [Commands.setColumnDescription]: wrap(Commands.setColumnDescription, setColumnDescription),
    [Commands.addFeaturesToTable]: wrap(Commands.addFeaturesToTable, listWrite(appendToList, FEATURES_OF_TABLE)),
    [Commands.addFeaturesToModel]: wrap(Commands.addFeaturesToModel, listWrite(appendToList, FEATURES_OF_MODEL)),
    [Commands.addGroupsToModel]: wrap(Commands.addGroupsToModel, listWrite(appendToList, GROUPS_OF_MODEL)),
    [Commands.removeFeaturesFromTable]: wrap(
      Commands.removeFeaturesFromTable,
      listWrite(removeFromList, FEATURES_OF_TABLE),
    ),
    [Commands.removeFeaturesFromModel]: wrap(
      Commands.removeFeaturesFromModel,
      listWrite(removeFromList, FEATURES_OF_MODEL),
    ),
    [Commands.removeGroupsFromModel]: wrap(Commands.removeGroupsFromModel, listWrite(removeFromList, GROUPS_OF_MODEL)),
    [Commands.createEntity]: wrap(Commands.createEntity, createEntity),
    [Commands.setMlDescription]: wrap(Commands.setMlDescription, setMlDescription),
  };
}

async function setDatasetDescription(a: Record<string, unknown>, ctx: Ctx): Promise<WriteResult> {
  const urn = urnArg(a, 'urn', 'dataset');
  const description = textArg(a, 'description');
  const link = a['link'] === undefined || a['link'] === null ? undefined : linkArg(a['link']);
  const dataset = await mustExist(ctx, urn.text, 'dataset');
  const written: string[] = [];
  let note = '';
  if (ctx.settings.writePath === 'graphql') {
    const edited = dataset.state === 'found' && dataset.kind === 'dataset' ? dataset.entity.editableProperties : null;
    if (!edited) {
      // No edited aspect yet: updateDataset creates it, and there is nothing it could drop.
      await mutate(ctx, UPDATE_DATASET, { urn: urn.text, input: { editableProperties: { description } } });
      written.push('editableDatasetProperties');
    } else if (edited.description !== description) {
      // updateDataset would replace the edited aspect whole: its display name dropped, `created`
      // reset (DatasetUpdateInputMapper); the aspect path changes the description alone.
      if (
        await readMergeWrite<EditableDatasetProperties>(
          ctx,
          urn,
          'editableDatasetProperties',
          (cur) => mergeDatasetDescription(cur, description, stamp(ctx)),
          GRAPHQL_WOULD_ERASE,
        )
      ) {
        written.push('editableDatasetProperties');
        note =
          " (through the aspect path: DataHub's updateDataset would erase the edited display name and created stamp)";
      }
    }
    if (link && (await addLinkByGraphql(ctx, urn, link))) written.push('institutionalMemory');
  } else {
    if (
      await readMergeWrite<EditableDatasetProperties>(ctx, urn, 'editableDatasetProperties', (cur) =>
        mergeDatasetDescription(cur, description, stamp(ctx)),
      )
    ) {
      written.push('editableDatasetProperties');
    }
    if (
      link &&
      (await readMergeWrite<InstitutionalMemory>(ctx, urn, 'institutionalMemory', (cur) =>
        mergeLink(cur, link, stamp(ctx)),
      ))
    ) {
      written.push('institutionalMemory');
    }
  }
  ctx.client.invalidate([urn.text]);
  if (written.length === 0)
    return unchanged(
      urn.urn,
      link ? 'the description is already so and a link with that url exists' : 'the description is already so',
    );
  return { status: 'written', aspects: written, message: `${wroteWhat(written)} ${label(urn.urn)}${note}` };
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

const GRAPHQL_WOULD_ERASE =
  "the dataset already has an edited description, which DataHub's updateDataset would replace whole (erasing its display name and created stamp), so Catalog Lens changes it through the aspect path";

/**
 * A link through DataHub's `addLink`, which appends and keeps every other link (LinkUtils.addLink);
 * `updateDataset` would replace the whole list. Added only when no link has its url:
 * addLink itself compares url and label.
 */
async function addLinkByGraphql(
  ctx: Ctx,
  urn: ParsedArg,
  link: { url: string; description: string },
): Promise<boolean> {
  const r = await ctx.client.mutate(DATASET_LINKS, { urn: urn.text }, ctx.signal);
  if (!r.ok) return failedFrom(r.error);
  const dataset = r.data['dataset'] as {
    exists?: boolean | null;
    institutionalMemory?: { elements?: Array<{ url?: string }> } | null;
  } | null;
  if (!dataset || dataset.exists === false)
    return failed('notFound', `${label(urn.urn)} is not in the catalog; nothing was written`);
  if ((dataset.institutionalMemory?.elements ?? []).some((e) => e.url === link.url)) return false;
  await mutate(ctx, ADD_LINK, {
    input: { linkUrl: link.url, label: link.description || link.url, resourceUrn: urn.text },
  });
  return true;
}

async function setColumnDescription(a: Record<string, unknown>, ctx: Ctx): Promise<WriteResult> {
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
  const schemaPaths = fields.map((f) => f.fieldPath);
  if (ctx.settings.writePath === 'graphql') {
    // updateDescription edits the entry whose path equals the schema's exactly (DescriptionUtils), as the check does.
    const entry = dataset.entity.editableSchemaMetadata?.editableSchemaFieldInfo.find(
      (e) => e.fieldPath === field.fieldPath,
    );
    if (entry && entry.description === description)
      return unchanged(urn.urn, `column '${inertText(column, 'notification')}' already has this description`);
    await mutate(ctx, UPDATE_DESCRIPTION, {
      input: { description, resourceUrn: urn.text, subResource: field.fieldPath, subResourceType: 'DATASET_FIELD' },
    });
  } else {
    const wrote = await readMergeWrite<EditableSchemaMetadata>(ctx, urn, 'editableSchemaMetadata', (cur) =>
      mergeColumnDescription(cur, field.fieldPath, description, stamp(ctx), schemaPaths),
    );
    if (!wrote) return unchanged(urn.urn, `column '${inertText(column, 'notification')}' already has this description`);
  }
  ctx.client.invalidate([urn.text]);
  return {
    status: 'written',
    aspects: ['editableSchemaMetadata'],
    message: `Wrote the description of column '${inertText(simplePath(field.fieldPath), 'notification')}' of ${label(urn.urn)}`,
  };
}

/** A member list of an ML entity's properties aspect, and the argument names its commands take. */
interface MemberList {
  target: 'table' | 'model';
  targetKind: 'mlFeatureTable' | 'mlModel';
  members: 'features' | 'groups';
  memberKind: 'mlFeature' | 'mlModelGroup';
  aspectName: 'mlFeatureTableProperties' | 'mlModelProperties';
  list: 'mlFeatures' | 'groups';
}

const FEATURES_OF_TABLE: MemberList = {
  target: 'table',
  targetKind: 'mlFeatureTable',
  members: 'features',
  memberKind: 'mlFeature',
  aspectName: 'mlFeatureTableProperties',
  list: 'mlFeatures',
};
const FEATURES_OF_MODEL: MemberList = {
  target: 'model',
  targetKind: 'mlModel',
  members: 'features',
  memberKind: 'mlFeature',
  aspectName: 'mlModelProperties',
  list: 'mlFeatures',
};
const GROUPS_OF_MODEL: MemberList = {
  target: 'model',
  targetKind: 'mlModel',
  members: 'groups',
  memberKind: 'mlModelGroup',
  aspectName: 'mlModelProperties',
  list: 'groups',
};

/** An append or a removal on one member list, its arguments read and checked by the list's names. */
function listWrite(
  op: typeof appendToList,
  l: MemberList,
): (a: Record<string, unknown>, ctx: Ctx) => Promise<WriteResult> {
  return (a, ctx) =>
    op(ctx, urnArg(a, l.target, l.targetKind), urnList(a, l.members, l.memberKind), l.aspectName, l.list);
}

async function appendToList(
  ctx: Ctx,
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
async function removeFromList(
  ctx: Ctx,
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

const PROPERTIES_ASPECT: Partial<Record<Urn['kind'], AspectName>> = {
  mlFeature: 'mlFeatureProperties',
  mlFeatureTable: 'mlFeatureTableProperties',
  mlModel: 'mlModelProperties',
  mlModelGroup: 'mlModelGroupProperties',
};

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
async function setMlDescription(a: Record<string, unknown>, ctx: Ctx): Promise<WriteResult> {
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
  let note = '';
  if (ctx.settings.writePath === 'graphql') {
    const r = await ctx.client.mutate(
      UPDATE_DESCRIPTION,
      { input: { description, resourceUrn: urn.text } },
      ctx.signal,
    );
    if (r.ok) {
      ctx.client.invalidate([urn.text]);
      return {
        status: 'written',
        aspects: [EDITABLE_ML_ASPECT[kind]],
        message: `Wrote the description of ${label(urn.urn)}`,
      };
    }
    // Refused (a GraphQL error, not a lost connection or a missing privilege): a catalog whose
    // updateDescription describes no ML entity. Its own words (which may name aspects and inputs)
    // are left out of the message; the path taken is named.
    if (r.error.kind !== 'rejected') return failedFrom(r.error);
    note = " (through the aspect path: this catalog's updateDescription does not describe ML entities)";
  }
  const wrote = await readMergeWrite<EditableMlProperties>(
    ctx,
    urn,
    where,
    (cur) => mergeDescription(cur, description),
    note
      ? "this catalog's updateDescription does not describe ML entities, so the description goes through the aspect path"
      : undefined,
  );
  ctx.client.invalidate([urn.text]);
  if (!wrote) return unchanged(urn.urn, 'the description is already so');
  return { status: 'written', aspects: [where], message: `Wrote the description of ${label(urn.urn)}${note}` };
}

async function createEntity(a: Record<string, unknown>, ctx: Ctx): Promise<WriteResult> {
  const urn = urnArg(a, 'urn');
  const aspectName = PROPERTIES_ASPECT[urn.urn.kind];
  if (!aspectName)
    return failed(
      'badInput',
      `createEntity makes ML entities (mlFeature, mlFeatureTable, mlModel, mlModelGroup), not a ${entityTypeOf(urn.urn)}`,
    );
  const properties = a['properties'] ?? {};
  const problems = checkAspect(aspectName, properties);
  if (problems.length > 0)
    return failed(
      'badInput',
      `the properties given for ${label(urn.urn)} do not fit: ${problems.slice(0, 5).join('; ')}`,
    );
  const overwrite = a['overwrite'] === true;
  const members = memberUrns(properties);
  const absent = members.length > 0 ? missingOf(await resolveFresh(ctx, members), members) : [];
  if (absent.length > 0)
    failed(
      'notFound',
      `the properties name entities that are not in the catalog, create them first (nothing was written): ${absent.join(', ')}`,
    );
  const current = await read(ctx, urn.text, aspectName);
  if (current.value !== undefined && !overwrite) {
    return failed('rejected', `${label(urn.urn)} already exists; pass overwrite: true to replace its properties`);
  }
  // Create-only writes carry "-1" (only if absent), so two creators cannot both win.
  await write(ctx, urn, aspectName, properties, current.value === undefined ? '-1' : current.version);
  ctx.client.invalidate([urn.text]);
  return {
    status: 'written',
    aspects: [aspectName],
    message: `${current.value === undefined ? 'Created' : 'Replaced'} ${label(urn.urn)}`,
  };
}

/**
 * Read the aspect with its version, merge, write with `If-Version-Match`; on a conflict read
 * again and merge again (bounded). Returns whether anything was written.
 */
async function readMergeWrite<T>(
  ctx: Ctx,
  urn: ParsedArg,
  aspectName: AspectName,
  merge: (current: T | undefined) => T | undefined,
  why?: string,
): Promise<boolean> {
  if (why && !ctx.client.gmsUrl)
    failed(
      'notConfigured',
      `${why}, which needs catalogLens.url (DataHub's metadata service, GMS); nothing was written`,
    );
  for (let attempt = 1; ; attempt++) {
    const current = await read<T>(ctx, urn.text, aspectName);
    const next = merge(current.value);
    if (next === undefined) return false;
    const r = await ctx.client.writeAspect(
      {
        entityType: urn.urn.kind,
        urn: urn.text,
        aspectName,
        value: next,
        ifVersion: current.value === undefined ? '-1' : current.version,
        runId: ctx.runId,
      },
      ctx.signal,
    );
    if (r.ok) return true;
    if (r.error.kind !== 'conflict' || attempt >= MAX_ATTEMPTS) {
      if (r.error.kind === 'conflict')
        failed('conflict', `${label(urn.urn)} kept changing under ${MAX_ATTEMPTS} attempts; nothing was written`);
      failedFrom(r.error);
    }
    await jitter(attempt);
  }
}

async function read<T>(
  ctx: Ctx,
  urn: string,
  aspectName: AspectName,
): Promise<{ value: T | undefined; version: string }> {
  const r = await ctx.client.readAspects(urn, [aspectName], ctx.signal);
  if (!r.ok) return failedFrom(r.error);
  const env = r.aspects[aspectName];
  return env ? { value: env.value as T, version: env.version } : { value: undefined, version: '-1' };
}

async function write(
  ctx: Ctx,
  urn: ParsedArg,
  aspectName: AspectName,
  value: unknown,
  ifVersion: string,
): Promise<void> {
  const r = await ctx.client.writeAspect(
    { entityType: urn.urn.kind, urn: urn.text, aspectName, value, ifVersion, runId: ctx.runId },
    ctx.signal,
  );
  if (!r.ok)
    failedFrom(
      r.error.kind === 'conflict'
        ? {
            ...r.error,
            message: `${label(urn.urn)} was created or changed by someone else meanwhile; nothing was written`,
          }
        : r.error,
    );
}

async function mutate(ctx: Ctx, query: string, variables: Record<string, unknown>): Promise<void> {
  const r = await ctx.client.mutate(query, variables, ctx.signal);
  if (!r.ok) failedFrom(r.error);
}

/**
 * A write to an entity that does not exist must fail: the client checks existence itself, because
 * DataHub's upserts would create the entity.
 */
async function mustExist(ctx: Ctx, urn: string, kind: ResolvableKind): Promise<Resolution> {
  const p = parseUrn(urn);
  const found = await resolveFresh(ctx, p.ok ? [{ text: urn, urn: p.urn }] : []);
  const r = found.get(urn);
  if (!r) return failed('cancelled', 'cancelled');
  if (r.state === 'missing') {
    failed(
      'notFound',
      `${p.ok ? label(p.urn) : urn} is not in the catalog; nothing was written (${kind === 'mlFeature' || kind === 'mlModel' ? 'an' : 'a'} ${kindWord(kind)} must exist before it is described)`,
    );
  }
  return r;
}

/**
 * What the catalog says now of each URN (the cache is bypassed: a write must not rest on an old
 * answer), in one request; an error or a cancellation ends the command.
 */
async function resolveFresh(ctx: Ctx, urns: readonly ParsedArg[]): Promise<Map<string, Resolution>> {
  const items = urns
    .filter((u) => isResolvable(u.urn.kind))
    .map((u) => ({ urn: u.text, kind: u.urn.kind as ResolvableKind }));
  ctx.client.invalidate(items.map((i) => i.urn));
  const res = await ctx.client.resolve(items, ctx.signal);
  const broken = items
    .map((i) => res.get(i.urn))
    .find((r): r is Extract<Resolution, { state: 'error' }> => r?.state === 'error');
  if (broken) failedFrom(broken.error);
  if (items.some((i) => !res.has(i.urn))) failed('cancelled', 'cancelled');
  return res;
}

/** The URNs the catalog does not have (an object with `exists` false counts as absent), quoted for a message. */
function missingOf(found: Map<string, Resolution>, urns: readonly ParsedArg[]): string[] {
  return urns.filter((u) => found.get(u.text)?.state === 'missing').map((u) => inertText(u.text, 'notification'));
}

/** The entity URNs a properties aspect lists (feature sources, table features, model features and groups). */
function memberUrns(properties: unknown): ParsedArg[] {
  if (typeof properties !== 'object' || properties === null) return [];
  const p = properties as Record<string, unknown>;
  const out: ParsedArg[] = [];
  for (const key of ['sources', 'mlFeatures', 'groups']) {
    const list = p[key];
    if (!Array.isArray(list)) continue;
    list.forEach((v, i) => {
      if (typeof v === 'string') out.push(urnArg({ [`properties.${key}[${i}]`]: v }, `properties.${key}[${i}]`));
    });
  }
  return out;
}

function failedFrom(e: CatalogClientError): never {
  return failed(e.kind, e.message);
}

interface ParsedArg {
  text: string;
  urn: Urn;
}

function urnArg(a: Record<string, unknown>, key: string, kind?: Urn['kind']): ParsedArg {
  const v = a[key];
  if (typeof v !== 'string' || v === '') return failed('badInput', `'${key}' must be a URN string`);
  const p = parseUrn(v);
  if (!p.ok) return failed('badInput', `'${key}' is not a valid URN: ${p.error.message} (at offset ${p.error.offset})`);
  if (kind && p.urn.kind !== kind)
    return failed('badInput', `'${key}' must be a ${kind} URN, not a ${entityTypeOf(p.urn)} URN`);
  return { text: v, urn: p.urn };
}

function urnList(a: Record<string, unknown>, key: string, kind: Urn['kind']): ParsedArg[] {
  const v = a[key];
  if (!Array.isArray(v)) return failed('badInput', `'${key}' must be a list of ${kind} URNs`);
  return v.map((x, i) => urnArg({ [`${key}[${i}]`]: x }, `${key}[${i}]`, kind));
}

function textArg(a: Record<string, unknown>, key: string): string {
  const v = a[key];
  if (typeof v !== 'string') return failed('badInput', `'${key}' must be a string`);
  if (v.length > 1_000_000) return failed('badInput', `'${key}' is longer than 1,000,000 characters`);
  return v;
}

function linkArg(v: unknown): { url: string; description: string } {
  if (typeof v !== 'object' || v === null) return failed('badInput', "'link' must be an object {url, description}");
  const l = v as Record<string, unknown>;
  if (typeof l['url'] !== 'string' || !/^https?:\/\/\S+$/i.test(l['url']))
    return failed('badInput', "'link.url' must be an http(s) URL");
  return { url: l['url'], description: typeof l['description'] === 'string' ? l['description'] : '' };
}

function stamp(ctx: Ctx): AuditStamp {
  return { time: Date.now(), actor: ctx.settings.actor };
}

/** The entity as messages name it; its name is document text (`%28`/`%29` decoded), quoted inert. */
function label(urn: Urn): string {
  return `${kindWord(urn.kind)} ${inertText(entityName(urn), 'notification')}`;
}

function unchanged(urn: Urn, why: string): WriteResult {
  return { status: 'unchanged', message: `Nothing written to ${label(urn)}: ${why}` };
}

/**
 * One line of the server's log per write: the command, the entity (its kind and name; the URN's
 * text is in the command's arguments), the column, the write path, and what came of it. Never the
 * token: it is in no argument and no message.
 */
export function writeLogLine(
  command: WriteCommandId,
  args: unknown,
  path: Settings['writePath'] | undefined,
  r: WriteResult,
): string {
  const outcome = writeOutcome(r);
  return `write ${command} ${targetOf(args)}${path ? ` through the ${path} path` : ''}: ${outcome} — ${r.message}`;
}

/** The entity a write's arguments name, as messages name it, with the column or the members added. */
function targetOf(args: unknown): string {
  if (typeof args !== 'object' || args === null) return '(no arguments)';
  const a = args as Record<string, unknown>;
  const text = [a['urn'], a['table'], a['model']].find((v): v is string => typeof v === 'string');
  if (text === undefined) return '(no entity)';
  const p = parseUrn(text);
  const entity = p.ok ? label(p.urn) : inertText(text, 'notification', 200);
  const column = typeof a['fieldPath'] === 'string' ? ` column ${inertText(a['fieldPath'], 'notification', 200)}` : '';
  const members = [a['features'], a['groups']].find(Array.isArray)?.length;
  return `${entity}${column}${members !== undefined ? ` (+${members})` : ''}`;
}

function jitter(attempt: number): Promise<void> {
  const ms = Math.min(200, 5 * attempt) * (0.5 + Math.random());
  return new Promise((r) => setTimeout(r, ms));
}
