/**
 * The shared, read-only fixtures next to the repository (`../shared` from its root): DataHub's
 * aspect payloads and GraphQL SDL. Tests that need them skip (`needsShared`) when absent.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, type GraphQLSchema } from 'graphql';
import { SHARED_DIR } from '../support/shared';

export { REPO_ROOT } from '../support/shared';
export const MCPS = 'fixtures/datahub-mcps';
export const GRAPHQL = 'fixtures/datahub-graphql';
export const MCPS_DIR = join(SHARED_DIR, MCPS);
export const GRAPHQL_DIR = join(SHARED_DIR, GRAPHQL);

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
