/**
 * The shared, read-only fixtures next to the repository (`../shared` from its root): DataHub's
 * aspect payloads and GraphQL SDL. Tests that need them skip, naming the folder, when absent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { buildSchema, type GraphQLSchema } from 'graphql';

/** The repository root: the nearest folder above this file with a package.json (tests run from out/). */
function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${__dirname}`);
    dir = up;
  }
  return dir;
}

export const REPO_ROOT = repoRoot();
export const SHARED_DIR = resolve(REPO_ROOT, '..', 'shared');
export const MCPS_DIR = join(SHARED_DIR, 'fixtures', 'datahub-mcps');
export const GRAPHQL_DIR = join(SHARED_DIR, 'fixtures', 'datahub-graphql');

/** A skip reason naming the folder when it is missing, else false (for `describe`'s `skip` option). */
export function skipUnlessPresent(dir: string): string | false {
  return existsSync(dir) ? false : `shared fixtures folder ${dir} is missing`;
}

export interface FixtureProposal {
  /** `<file>[<index>]`, for assertion messages. */
  at: string;
  entityType: string;
  entityUrn: string;
  aspectName: string;
  /** The aspect, parsed from `aspect.value`. */
  aspect: Record<string, unknown>;
}

export function loadProposals(): FixtureProposal[] {
  const files = readdirSync(MCPS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort();
  return files.flatMap((file) => {
    const proposals = JSON.parse(readFileSync(join(MCPS_DIR, file), 'utf8')) as Array<{
      entityType: string;
      entityUrn: string;
      aspectName: string;
      aspect: { value: string };
    }>;
    return proposals.map((p, i) => ({
      at: `${file}[${i}]`,
      entityType: p.entityType,
      entityUrn: p.entityUrn,
      aspectName: p.aspectName,
      aspect: JSON.parse(p.aspect.value) as Record<string, unknown>,
    }));
  });
}

/** DataHub's GraphQL schema: every *.graphql of the fixture concatenated, as its README says. */
export function loadDataHubSchema(): GraphQLSchema {
  const files = readdirSync(GRAPHQL_DIR)
    .filter((f) => f.endsWith('.graphql'))
    .sort();
  return buildSchema(files.map((f) => readFileSync(join(GRAPHQL_DIR, f), 'utf8')).join('\n'));
}

/** Every string inside `value` (any depth) that starts with `urn:`, with its JSON path. */
export function urnStringsIn(value: unknown, path = ''): Array<{ path: string; urn: string }> {
  if (typeof value === 'string') return value.startsWith('urn:') ? [{ path, urn: value }] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => urnStringsIn(v, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => urnStringsIn(v, path ? `${path}.${k}` : k));
  }
  return [];
}
