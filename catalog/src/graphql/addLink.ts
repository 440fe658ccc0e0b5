/**
 * `addLink(input: AddLinkInput!): Boolean`, in both modes, as DataHub's AddLinkResolver and
 * LinkUtils do it (datahub-graphql-core/.../resolvers/mutate/AddLinkResolver.java,
 * resolvers/mutate/util/LinkUtils.java): the resource must exist ("Failed to change
 * institutional memory for resource <urn>. Resource does not exist."), then the link
 * `{url, description: label, createStamp: {time: now, actor}}` (plus `settings` when given) is
 * appended to `institutionalMemory.elements`, unless an element has the same url AND label, and
 * the answer is true.
 *
 * The URL: LinkUtils.validateUrl only builds `new Url(linkUrl)`, and com.linkedin.common.url.Url
 * refuses nothing but null (li-utils/.../common/url/Url.java), so DataHub takes any string; the
 * DataHub mode does too. The spec mode asks for a URL that parses (a link's url is typed as a URL),
 * with DataHub's message for it.
 *
 * DataHub reads the aspect and writes it back without a lock or a precondition, so two addLinks at
 * once can lose one link there. The spec mode runs the read, the check and the write in one
 * IMMEDIATE transaction (concurrent addLinks lose nothing); the DataHub mode lets other requests run
 * between its read and its write, as DataHub does.
 */
import { ASPECTS_BY_ENTITY } from '../../../model/src/aspects';
import { CATALOG_KINDS, isCatalogKind } from '../../../model/src/kinds';
import { badRequest } from '../errors';
import { otherRequestsRun } from './datahubMutations';
import { entityExists, existenceRuleText, writeAspect } from '../writes';
import type { ReadContext } from './readShapes';

type Json = Record<string, unknown>;

export interface AddLinkArgs {
  input: {
    linkUrl: string;
    label: string;
    resourceUrn: string;
    settings?: { showInAssetPreview?: boolean | null } | null;
  };
}

const WITH_LINKS = CATALOG_KINDS.filter((t) => ASPECTS_BY_ENTITY[t].includes('institutionalMemory'));

function parsesAsUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

export async function addLink(args: AddLinkArgs, ctx: ReadContext): Promise<boolean> {
  const { linkUrl, label, resourceUrn, settings } = args.input;
  const target = ctx.namespaces.resolve(resourceUrn, 'addLink(input.resourceUrn)');
  const kind = target.urn.kind === 'other' ? target.urn.entityType : target.urn.kind;
  if (!isCatalogKind(kind) || !WITH_LINKS.includes(kind)) {
    throw badRequest(
      `addLink(input.resourceUrn): a ${kind} has no links in this catalog; links (institutionalMemory) belong to ${WITH_LINKS.join(' and ')} entities`,
    );
  }
  if (ctx.compat === 'spec' && !parsesAsUrl(linkUrl)) {
    throw badRequest(
      `Failed to change institutional memory for resource ${resourceUrn}. Expected an url. (addLink(input.linkUrl) '${linkUrl}' is not an absolute URL)`,
    );
  }
  const store = ctx.store;
  const now = Date.now();
  const mustExist = (): void => {
    if (!entityExists(store, target.key, kind, ctx.compat)) {
      const why = ctx.compat === 'spec' ? ` (${existenceRuleText(kind)})` : '';
      throw badRequest(
        `Failed to change institutional memory for resource ${resourceUrn}. Resource does not exist.${why}`,
      );
    }
  };
  /** The aspect with the link appended; undefined when a link with the same url and label is there. */
  const withLink = (): Json | undefined => {
    const current = store.get(target.key, 'institutionalMemory')?.value ?? {};
    const elements = Array.isArray(current['elements']) ? current['elements'] : [];
    // LinkUtils.hasDuplicates: the same url and the same label (stored as description).
    if (
      elements.some(
        (e) =>
          typeof e === 'object' && e !== null && (e as Json)['url'] === linkUrl && (e as Json)['description'] === label,
      )
    )
      return undefined;
    const link: Json = { url: linkUrl, createStamp: { time: now, actor: ctx.actor }, description: label };
    if (settings)
      link['settings'] =
        typeof settings.showInAssetPreview === 'boolean' ? { showInAssetPreview: settings.showInAssetPreview } : {};
    return { ...current, elements: [...elements, link] };
  };
  const write = (value: Json): void => {
    writeAspect(
      store,
      { key: target.key, requestedUrn: resourceUrn, entityType: kind, aspectName: 'institutionalMemory', value },
      ctx.actor,
      now,
      ctx.compat,
    );
  };
  if (ctx.compat === 'datahub') {
    mustExist();
    const value = withLink();
    if (value) {
      await otherRequestsRun();
      store.transaction(() => write(value));
    }
  } else {
    store.transaction(() => {
      mustExist();
      const value = withLink();
      if (value) write(value);
    });
  }
  ctx.forget(target.key);
  return true;
}
