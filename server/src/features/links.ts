/** Links to an entity's page in the catalog's web UI (DataHub's page pattern, notes §8). */
import { entityPageUrl } from '../../../model/src/entityPage';
import type { Settings } from '../../../model/src/protocol';
import type { Urn } from '../../../model/src/urn';

/** The page of the entity for hovers and document links; none when there is no web UI or the URN is too long for a URL. */
export function entityUrlFor(s: Settings, urn: Urn, text: string): string | undefined {
  const page = entityPageUrl(s, urn, text);
  return 'url' in page ? page.url : undefined;
}
