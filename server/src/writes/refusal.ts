/**
 * How a write command ends without writing: a Refusal thrown anywhere below the command becomes
 * its `failed` result; and how results name the entity (its kind and name, quoted inert).
 */
import { entityName, kindWord } from '../../../model/src/entityNames';
import { inertText } from '../../../model/src/inertText';
import { isLookupKind, lookupLabels } from '../../../model/src/kinds';
import type { WriteResult } from '../../../model/src/protocol';
import type { Urn } from '../../../model/src/urn';
import type { CatalogClientError } from '../catalogClient/errors';

export class Refusal extends Error {
  constructor(readonly result: WriteResult & { status: 'failed' }) {
    super(result.message);
  }
}

export const failed = (kind: Extract<WriteResult, { status: 'failed' }>['kind'], message: string): never => {
  throw new Refusal({ status: 'failed', kind, message });
};

export function failedFrom(e: CatalogClientError): never {
  return failed(e.kind, e.message);
}

/**
 * The entity as messages name it; its name is document text (`%28`/`%29` decoded), quoted inert.
 * A looked-up-only kind (a glossary term …) by its word.
 */
export function label(urn: Urn): string {
  const word =
    urn.kind === 'other' && isLookupKind(urn.entityType) ? lookupLabels(urn.entityType).word : kindWord(urn.kind);
  return `${word} ${inertText(entityName(urn), 'notification')}`;
}

export function unchanged(urn: Urn, why: string): WriteResult {
  return { status: 'unchanged', message: `Nothing written to ${label(urn)}: ${why}` };
}
