/**
 * Completion inside a URN being typed: entity kinds after `urn:<ns>:` (the spec's first, then
 * the rest of DataHub's entity registry), then the platform URN after `(`, platforms seen in the
 * workspace and resolved entities, then envs.
 */
import { CompletionItemKind, type CompletionItem, type Position } from 'vscode-languageserver';
import { FABRIC_TYPES, URN_KINDS } from '../../../model/src/urn';
import { ENTITY_REGISTRY, REGISTRY_ENTITY_TYPES } from '../../../model/src/registry';

const COMMON_PLATFORMS = [
  'hive',
  'kafka',
  'snowflake',
  'bigquery',
  'postgres',
  'mysql',
  's3',
  'redshift',
  'databricks',
  'feast',
  'mlflow',
  'sagemaker',
  'vertexai',
];
const SHAPES: Record<string, string> = {
  dataset: '(urn:${ns}:dataPlatform:${1:platform},${2:name},${3:PROD})',
  mlFeature: '(${1:feature_table},${2:feature})',
  mlFeatureTable: '(urn:${ns}:dataPlatform:${1:platform},${2:feature_table})',
  mlModel: '(urn:${ns}:dataPlatform:${1:platform},${2:model},${3:PROD})',
  mlModelGroup: '(urn:${ns}:dataPlatform:${1:platform},${2:group},${3:PROD})',
  corpuser: '${1:user}',
  dataPlatform: '${1:platform}',
};

/** The other registry kinds: a snippet of their key's parts, named after the key fields. */
const REGISTRY_SHAPES: ReadonlyArray<readonly [string, string]> = REGISTRY_ENTITY_TYPES.filter(
  (kind) => SHAPES[kind] === undefined,
).map((kind) => {
  const fields = ENTITY_REGISTRY.get(kind)!.fields;
  const parts = fields.map((f, i) =>
    f.type === 'urn' && f.name === 'platform'
      ? `urn:\${ns}:dataPlatform:\${${i + 1}:platform}`
      : `\${${i + 1}:${f.type === 'enum' ? 'PROD' : f.label}}`,
  );
  return [kind, fields.length === 1 ? parts[0]! : `(${parts.join(',')})`] as const;
});

export function completionsAt(
  linePrefix: string,
  position: Position,
  namespaces: readonly string[],
  platformsSeen: readonly string[],
): CompletionItem[] {
  const nsAlt = namespaces.map(escapeRe).join('|');
  if (!nsAlt) return [];
  const range = (typed: string) => ({
    start: { line: position.line, character: position.character - typed.length },
    end: position,
  });

  let m = new RegExp(
    `urn:(${nsAlt}):(?:dataset|mlModel|mlModelGroup):\\(urn:\\1:dataPlatform:[^,()\\s]+,[^,()\\s]+,([A-Za-z_]*)$`,
  ).exec(linePrefix);
  if (m) {
    const typed = m[2]!;
    return FABRIC_TYPES.map((env, i) => ({
      label: env,
      kind: CompletionItemKind.EnumMember,
      sortText: env === 'PROD' ? '0' : `1${i}`,
      textEdit: { range: range(typed), newText: env },
    }));
  }
  m = new RegExp(
    `urn:(${nsAlt}):(?:dataset|mlModel|mlModelGroup|mlFeatureTable):\\((urn:\\1:dataPlatform:)?([\\w.:-]*)$`,
  ).exec(linePrefix);
  if (m) {
    const ns = m[1]!;
    const typed = (m[2] ?? '') + m[3]!;
    const platforms = [...new Set([...platformsSeen, ...COMMON_PLATFORMS])];
    return platforms.map((p) => ({
      label: `urn:${ns}:dataPlatform:${p}`,
      kind: CompletionItemKind.Value,
      filterText: `urn:${ns}:dataPlatform:${p}`,
      sortText: platformsSeen.includes(p) ? `0${p}` : `1${p}`,
      detail: platformsSeen.includes(p) ? 'seen in the workspace' : 'common platform',
      textEdit: { range: range(typed), newText: `urn:${ns}:dataPlatform:${p}` },
    }));
  }
  m = new RegExp(`urn:(${nsAlt}):([A-Za-z]*)$`).exec(linePrefix);
  if (m) {
    const ns = m[1]!;
    const typed = m[2]!;
    const item = (kind: string, shape: string, sortText: string): CompletionItem => ({
      label: kind,
      kind: CompletionItemKind.Class,
      detail: `urn:${ns}:${kind}:…`,
      sortText,
      insertTextFormat: 2,
      textEdit: { range: range(typed), newText: `${kind}:${shape.replace(/\$\{ns\}/g, ns)}` },
    });
    return [
      ...URN_KINDS.map((kind) => item(kind, SHAPES[kind]!, `0${kind}`)),
      ...REGISTRY_SHAPES.map(([kind, shape]) => item(kind, shape, `1${kind}`)),
    ];
  }
  return [];
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
