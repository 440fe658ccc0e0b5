/**
 * DataHub's GraphQL schema (shared/fixtures/datahub-graphql), for tests that check a GraphQL
 * document against it. The fixtures live outside the repository; tests skip with a message when
 * they are missing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { TestContext } from 'node:test';
import {
  buildSchema,
  getVariableValues,
  GraphQLSchema,
  Kind,
  parse,
  validate,
  type OperationDefinitionNode,
} from 'graphql';
import { needsShared, SHARED_DIR } from './shared';

const SDL = 'fixtures/datahub-graphql';
const SDL_DIR = path.join(SHARED_DIR, SDL);

let cached: GraphQLSchema | null | undefined;

/** DataHub's schema built from every *.graphql file (cached); undefined when the folder is missing. */
export function datahubSchema(): GraphQLSchema | undefined {
  if (cached === undefined) {
    if (!existsSync(SDL_DIR)) {
      cached = null;
    } else {
      const sdl = readdirSync(SDL_DIR)
        .filter((f) => f.endsWith('.graphql'))
        .sort()
        .map((f) => readFileSync(path.join(SDL_DIR, f), 'utf8'))
        .join('\n');
      cached = buildSchema(sdl);
    }
  }
  return cached ?? undefined;
}

/** Skips the test (and returns true) when DataHub's schema files are not there. */
export function skipWithoutShared(t: TestContext): boolean {
  if (datahubSchema() !== undefined) return false;
  t.skip(needsShared(SDL) || `needs ../shared/${SDL} (not read from ${SDL_DIR})`);
  return true;
}

/**
 * What is wrong with a GraphQL document (and the variables a request would send) against
 * DataHub's schema; [] = valid. Throws when the schema is missing: call skipWithoutShared first.
 */
export function validateDocument(query: string, variables?: Record<string, unknown>): string[] {
  const schema = datahubSchema();
  if (!schema) throw new Error(`DataHub's GraphQL schema is not available (looked in ${SDL_DIR})`);
  let doc;
  try {
    doc = parse(query);
  } catch (e) {
    return [(e as Error).message];
  }
  const errors = validate(schema, doc).map((e) => e.message);
  if (errors.length > 0 || variables === undefined) return errors;
  for (const def of doc.definitions) {
    if (def.kind !== Kind.OPERATION_DEFINITION) continue;
    const op: OperationDefinitionNode = def;
    const coerced = getVariableValues(schema, op.variableDefinitions ?? [], variables);
    if (coerced.errors) errors.push(...coerced.errors.map((e) => e.message));
  }
  return errors;
}
