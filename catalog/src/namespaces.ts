/**
 * The namespace words this catalog answers to (`li` for DataHub, `svc` in the spec). In the spec
 * mode URNs in any accepted word name the same entity: the storage key is the URN printed in the
 * first word. In the DataHub mode they are different entities, as at DataHub (which compares
 * URNs as strings): the key is the URN as written.
 */
import { parseUrn, printUrn, withNamespace, type Urn } from '../../model/src/urn';
import type { KeyForm } from './compat';
import { badRequest } from './errors';

export interface ResolvedUrn {
  /** The URN as the caller wrote it (GraphQL echoes this one). */
  requested: string;
  /** The storage key: the same URN in the canonical (first) namespace word, or as written (DataHub mode). */
  key: string;
  urn: Urn;
}

export const DEFAULT_NAMESPACES: readonly string[] = ['li', 'svc'];

const WORD_RE = /^[A-Za-z][A-Za-z0-9_-]*$/;

export class NamespacePolicy {
  readonly words: readonly string[];
  readonly canonical: string;

  constructor(
    words: readonly string[] = DEFAULT_NAMESPACES,
    readonly keyForm: KeyForm = 'canonical',
  ) {
    if (words.length === 0) throw new Error('namespaces: at least one namespace word is needed (e.g. li)');
    for (const w of words) {
      if (!WORD_RE.test(w))
        throw new Error(
          `namespaces: '${w}' is not a namespace word (letters, digits, '_' or '-', starting with a letter)`,
        );
    }
    this.words = [...words];
    this.canonical = words[0]!;
  }

  /** Parse and map to the storage key; throws a 400 naming `where` when the URN is not usable. */
  resolve(text: string, where: string): ResolvedUrn {
    const parsed = parseUrn(text);
    if (!parsed.ok) {
      throw badRequest(
        `${where}: '${text}' is not a valid URN: ${parsed.error.message} (at offset ${parsed.error.offset})`,
      );
    }
    if (!this.words.includes(parsed.urn.namespace)) {
      throw badRequest(
        `${where}: '${text}' is in namespace '${parsed.urn.namespace}', which this catalog does not accept ` +
          `(accepted: ${this.words.join(', ')}; start the catalog with --namespaces to add one)`,
      );
    }
    return { requested: text, key: this.keyFor(parsed.urn), urn: parsed.urn };
  }

  private keyFor(urn: Urn): string {
    return printUrn(this.keyForm === 'canonical' ? withNamespace(urn, this.canonical) : urn);
  }

  /** The storage key of a URN held inside an aspect (a reference), or undefined when it is not usable. */
  keyOf(text: string): string | undefined {
    const parsed = parseUrn(text);
    if (!parsed.ok || !this.words.includes(parsed.urn.namespace)) return undefined;
    return this.keyFor(parsed.urn);
  }

  /** A URN of this catalog's canonical namespace, e.g. the default actor. */
  userUrn(user: string): string {
    return `urn:${this.canonical}:corpuser:${user}`;
  }
}
