/**
 * DataHub's Python URN builders (metadata-ingestion/src/datahub/emitter/mce_builder.py), in the namespace
 * the caller names. The server uses them to read `make_dataset_urn("hive", "db.users", "PROD")`
 * as the URN it builds.
 */
import { encodePart } from './urn';

function platformUrn(ns: string, platform: string): string {
  const prefix = `urn:${ns}:dataPlatform:`;
  return platform.startsWith(prefix) ? platform : prefix + platform;
}

export function makeDataPlatformUrn(ns: string, platform: string): string {
  return platformUrn(ns, platform);
}

/** `env` is upper-cased and the name's reserved characters encoded, as DataHub does. */
export function makeDatasetUrn(ns: string, platform: string, name: string, env = 'PROD'): string {
  return `urn:${ns}:dataset:(${platformUrn(ns, platform)},${encodePart(name)},${env.toUpperCase()})`;
}

export function makeMlFeatureUrn(ns: string, table: string, feature: string): string {
  return `urn:${ns}:mlFeature:(${table},${feature})`;
}

export function makeMlFeatureTableUrn(ns: string, platform: string, table: string): string {
  return `urn:${ns}:mlFeatureTable:(${platformUrn(ns, platform)},${table})`;
}

export function makeMlModelUrn(ns: string, platform: string, name: string, env: string): string {
  return `urn:${ns}:mlModel:(${platformUrn(ns, platform)},${name},${env})`;
}

export function makeMlModelGroupUrn(ns: string, platform: string, group: string, env: string): string {
  return `urn:${ns}:mlModelGroup:(${platformUrn(ns, platform)},${group},${env})`;
}

export function makeUserUrn(ns: string, user: string): string {
  if (user.startsWith(`urn:${ns}:corpuser:`) || user.startsWith(`urn:${ns}:corpGroup:`)) return user;
  return `urn:${ns}:corpuser:${user}`;
}

/** Each builder: its parameters (for keyword arguments), which are required, and how it builds. */
export interface BuilderSpec {
  params: readonly string[];
  required: number;
  defaults?: Readonly<Record<string, string>>;
  build: (ns: string, args: string[]) => string;
}

export const PYTHON_BUILDERS: Readonly<Record<string, BuilderSpec>> = {
  make_data_platform_urn: { params: ['platform'], required: 1, build: (ns, a) => makeDataPlatformUrn(ns, a[0]!) },
  make_dataset_urn: {
    params: ['platform', 'name', 'env'],
    required: 2,
    defaults: { env: 'PROD' },
    build: (ns, a) => makeDatasetUrn(ns, a[0]!, a[1]!, a[2] ?? 'PROD'),
  },
  make_ml_feature_urn: {
    params: ['feature_table_name', 'feature_name'],
    required: 2,
    build: (ns, a) => makeMlFeatureUrn(ns, a[0]!, a[1]!),
  },
  make_ml_feature_table_urn: {
    params: ['platform', 'feature_table_name'],
    required: 2,
    build: (ns, a) => makeMlFeatureTableUrn(ns, a[0]!, a[1]!),
  },
  make_ml_model_urn: {
    params: ['platform', 'model_name', 'env'],
    required: 3,
    build: (ns, a) => makeMlModelUrn(ns, a[0]!, a[1]!, a[2]!),
  },
  make_ml_model_group_urn: {
    params: ['platform', 'group_name', 'env'],
    required: 3,
    build: (ns, a) => makeMlModelGroupUrn(ns, a[0]!, a[1]!, a[2]!),
  },
  make_user_urn: { params: ['username'], required: 1, build: (ns, a) => makeUserUrn(ns, a[0]!) },
};
