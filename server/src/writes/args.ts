/**
 * The write commands' arguments, read and checked: a bad one ends the command with a `badInput`
 * refusal that names the argument.
 */
import { entityTypeOf, parseUrn, type Urn } from '../../../model/src/urn';
import { failed } from './refusal';

/** A URN argument: its text as given and what it parses to. */
export interface ParsedArg {
  text: string;
  urn: Urn;
}

export function urnArg(a: Record<string, unknown>, key: string, kind?: Urn['kind']): ParsedArg {
  const v = a[key];
  if (typeof v !== 'string' || v === '') return failed('badInput', `'${key}' must be a URN string`);
  const p = parseUrn(v);
  if (!p.ok) return failed('badInput', `'${key}' is not a valid URN: ${p.error.message} (at offset ${p.error.offset})`);
  if (kind && p.urn.kind !== kind)
    return failed('badInput', `'${key}' must be a ${kind} URN, not a ${entityTypeOf(p.urn)} URN`);
  return { text: v, urn: p.urn };
}

export function urnList(a: Record<string, unknown>, key: string, kind: Urn['kind']): ParsedArg[] {
  const v = a[key];
  if (!Array.isArray(v)) return failed('badInput', `'${key}' must be a list of ${kind} URNs`);
  return v.map((x, i) => urnArg({ [`${key}[${i}]`]: x }, `${key}[${i}]`, kind));
}

export function textArg(a: Record<string, unknown>, key: string): string {
  const v = a[key];
  if (typeof v !== 'string') return failed('badInput', `'${key}' must be a string`);
  if (v.length > 1_000_000) return failed('badInput', `'${key}' is longer than 1,000,000 characters`);
  return v;
}

/** A link to add to a dataset. */
export interface LinkArg {
  url: string;
  description: string;
}

export function linkArg(v: unknown): LinkArg {
  if (typeof v !== 'object' || v === null) return failed('badInput', "'link' must be an object {url, description}");
  const l = v as Record<string, unknown>;
  if (typeof l['url'] !== 'string' || !/^https?:\/\/\S+$/i.test(l['url']))
    return failed('badInput', "'link.url' must be an http(s) URL");
  return { url: l['url'], description: typeof l['description'] === 'string' ? l['description'] : '' };
}
