/**
 * createEntity: writes the properties aspect of a new ML entity (or replaces it, with
 * `overwrite`), once every entity its properties name exists. Both paths write it through the
 * aspect path, create-only unless replacing.
 */
import { checkAspect } from '../../../model/src/aspects';
import type { WriteResult } from '../../../model/src/protocol';
import { entityTypeOf } from '../../../model/src/urn';
import { urnArg, type ParsedArg } from './args';
import { missingOf, PROPERTIES_ASPECT, read, resolveFresh, write, type StepDeps } from './catalogSteps';
import { failed, label } from './refusal';

export async function createEntity(a: Record<string, unknown>, ctx: StepDeps): Promise<WriteResult> {
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
