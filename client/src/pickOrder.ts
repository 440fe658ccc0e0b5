/**
 * The order of the targets a picker offers (no vscode import: unit-tested in
 * test/client/pickOrder.test.ts). The first item is the one Enter takes, so it must be the likely
 * one, and its description says why it is first.
 *
 * - A feature's table: the table whose name is the feature's namespace (`urn:li:mlFeature:(<table>,<name>)`:
 *   DataHub's Feast source makes both from the feature view's name — feast.py,
 *   `make_ml_feature_urn(feature_view_name, field.name)` and `make_ml_feature_table_urn("feast",
 *   feature_view_name)`). Seen in the workspace: that URN; not seen: one made with the feature's
 *   namespace word and the platform of the tables in the document (else of the tables seen, else
 *   `feast`, the platform of DataHub's feature-store source); the server refuses it if the catalog
 *   lacks it. Then the tables named in the document, then the rest.
 * - A model's group: the group on the model's platform whose name the model's name is, or starts
 *   with followed by a separator (DataHub's MLflow source names a model version
 *   `{registered_model_name}{model_name_separator}{version}` and its group the registered model's
 *   name — mlflow.py; `_`, `-`, `.`, `+` are taken as separators), the longest such name first.
 *   Then the groups named in the document, then the rest.
 * - A feature's model: no name ties a feature to a model, so the models named in the document
 *   come first, then the rest.
 * Within each part, alphabetical; a URN is offered once (both namespace words name one entity).
 */
import { entityKey, parseUrn, printUrn, type MlFeatureTableUrn, type Urn } from '../../model/src/urn';

export interface RankedUrn {
  urn: string;
  /** Why it is where it is, for the first ones: shown as the item's description. */
  why?: string;
}

export const OWN_TABLE = "the feature's own table";
export const OWN_TABLE_UNSEEN = "the feature's own table (not seen in the workspace)";
export const OWN_GROUP = "the model's group, by its name";
export const IN_DOCUMENT = 'in this document';

/** Tables for "Add Feature to Feature Table": the feature's own, the document's, the rest. */
export function rankFeatureTables(
  feature: string,
  known: readonly string[],
  inDocument: readonly string[],
): RankedUrn[] {
  const f = parsed(feature, 'mlFeature');
  const tables = [...inDocument, ...known];
  let own: RankedUrn[] = [];
  if (f) {
    const named = tables.filter((t) => parsed(t, 'mlFeatureTable')?.table === f.table);
    own = unique(named).map((urn) => ({ urn, why: OWN_TABLE }));
    if (own.length === 0) {
      const platformFrom = [...inDocument, ...known]
        .map((t) => parsed(t, 'mlFeatureTable')?.platform)
        .find((p) => p !== undefined);
      const made: MlFeatureTableUrn = {
        kind: 'mlFeatureTable',
        namespace: f.namespace,
        platform: platformFrom ?? 'feast',
        table: f.table,
      };
      own = [{ urn: printUrn(made), why: OWN_TABLE_UNSEEN }];
    }
  }
  return rank(known, inDocument, own);
}

/** Groups for "Add Model Group": the model's own by name, the document's, the rest. */
export function rankModelGroups(model: string, known: readonly string[], inDocument: readonly string[]): RankedUrn[] {
  const m = parsed(model, 'mlModel');
  const own = m
    ? unique([...inDocument, ...known])
        .map((urn) => ({ urn, g: parsed(urn, 'mlModelGroup') }))
        .filter(({ g }) => g !== undefined && g.platform === m.platform && namesGroup(m.name, g.name))
        .sort((a, b) => b.g!.name.length - a.g!.name.length || cmp(a.urn, b.urn))
        .map(({ urn }) => ({ urn, why: OWN_GROUP }))
    : [];
  return rank(known, inDocument, own);
}

/** Models for "Add Feature to Model": the document's, the rest. */
export function rankModels(known: readonly string[], inDocument: readonly string[]): RankedUrn[] {
  return rank(known, inDocument);
}

function namesGroup(model: string, group: string): boolean {
  return model === group || (model.startsWith(group) && /^[-_.+]/.test(model.slice(group.length)));
}

/** `first`, then the URNs named in the document, then the others seen. */
export function rank(
  known: readonly string[],
  inDocument: readonly string[],
  first: readonly RankedUrn[] = [],
): RankedUrn[] {
  const seen = new Set<string>();
  const out: RankedUrn[] = [];
  const add = (r: RankedUrn): void => {
    const key = entityKey(r.urn);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(r);
  };
  first.forEach(add);
  [...inDocument].sort(cmp).forEach((urn) => add({ urn, why: IN_DOCUMENT }));
  [...known].sort(cmp).forEach((urn) => add({ urn }));
  return out;
}

function unique(urns: readonly string[]): string[] {
  const seen = new Set<string>();
  return urns.filter((u) => !seen.has(entityKey(u)) && (seen.add(entityKey(u)), true));
}

function parsed<K extends Urn['kind']>(text: string, kind: K): Extract<Urn, { kind: K }> | undefined {
  const p = parseUrn(text);
  return p.ok && p.urn.kind === kind ? (p.urn as Extract<Urn, { kind: K }>) : undefined;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
