/**
 * What Go to Symbol in Workspace shows of an entity, and how its matches are ranked.
 *
 * VS Code sorts the answer again by its own fuzzy score of each symbol's `name` alone (its
 * workspace symbol quick access), and a name that is the query itself scores above one that only
 * starts with it. So a dataset is named by the last part of its name (`db.users` → `users`), and
 * the rest goes in `containerName` with the platform and env (`db · hive · PROD`): `users` ranks
 * `db.users` above `users_table` in VS Code too. A client that keeps the server's order sees the
 * same ranking (symbolRank).
 */
import { entityName, kindWord } from '../../../model/src/entityNames';
import { decodePart, type Urn } from '../../../model/src/urn';

export interface SymbolText {
  /** What the symbol is called: the last part of a dataset's name, a feature's own name, else the entity's name. */
  name: string;
  /** The entity's full name, of which `name` is the end (`db.users`); the server searches this. */
  full: string;
  /** Where it lives: the rest of a dataset's name, its platform and env; a feature's table; … */
  container: string;
}

/**
 * Where a dataset's name splits into qualifier and own name: at its last `/` when it is a path
 * (`bucket/dir/file.csv` → `file.csv`), else at its last `.` (`db.users` → `users`); -1 when it
 * does not (no separator, or one at either end).
 */
function splitAt(name: string): number {
  const at = name.includes('/') ? name.lastIndexOf('/') : name.lastIndexOf('.');
  return at > 0 && at < name.length - 1 ? at : -1;
}

const joined = (parts: Array<string | undefined>): string =>
  parts.filter((p) => p !== undefined && p !== '').join(' · ');

/**
 * symbolText's `full`, and where its `name` starts there (`full` ends with `name`), without the
 * container (the workspace index's symbol search needs these two of every new entity).
 */
export function symbolFullName(urn: Urn): { full: string; nameAt: number } {
  switch (urn.kind) {
    case 'dataset': {
      const full = decodePart(urn.name);
      const at = splitAt(full);
      return { full, nameAt: at < 0 ? 0 : at + 1 };
    }
    case 'mlFeature':
      return { full: decodePart(urn.feature), nameAt: 0 };
    case 'mlFeatureTable':
      return { full: decodePart(urn.table), nameAt: 0 };
    case 'mlModel':
    case 'mlModelGroup':
      return { full: decodePart(urn.name), nameAt: 0 };
    default:
      return { full: entityName(urn), nameAt: 0 };
  }
}

export function symbolText(urn: Urn): SymbolText {
  switch (urn.kind) {
    case 'dataset': {
      const full = decodePart(urn.name);
      const at = splitAt(full);
      const name = at < 0 ? full : full.slice(at + 1);
      return { name, full, container: joined([at < 0 ? undefined : full.slice(0, at), urn.platform, urn.env]) };
    }
    case 'mlFeature': {
      const name = decodePart(urn.feature);
      return { name, full: name, container: decodePart(urn.table) };
    }
    case 'mlFeatureTable':
      return { name: decodePart(urn.table), full: decodePart(urn.table), container: urn.platform };
    case 'mlModel':
    case 'mlModelGroup':
      return { name: decodePart(urn.name), full: decodePart(urn.name), container: joined([urn.platform, urn.env]) };
    default: {
      const name = entityName(urn);
      return { name, full: name, container: kindWord(urn.kind) };
    }
  }
}

/**
 * How well an entity matches a lower-case query, best 0; undefined when it does not. `lower` is its
 * full name in lower case and its own name starts at `nameAt` there. 0: the own or full name is
 * the query; 1: the own name starts with it; 2: the full name does; 3: either holds it.
 */
export function symbolRank(lower: string, nameAt: number, query: string): number | undefined {
  if (query === '') return 0;
  const at = lower.indexOf(query);
  if (at < 0) return undefined;
  if (lower === query || (lower.length - nameAt === query.length && lower.startsWith(query, nameAt))) return 0;
  if (lower.startsWith(query, nameAt)) return 1;
  return at === 0 ? 2 : 3;
}
