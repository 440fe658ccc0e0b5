/**
 * Connection without configuration, as DataHub's own CLI finds its server
 * (metadata-ingestion/src/datahub/cli/config_utils.py, `load_client_config`): the environment first —
 * `DATAHUB_GMS_URL`, or `DATAHUB_GMS_PROTOCOL`://`DATAHUB_GMS_HOST`:`DATAHUB_GMS_PORT`, with
 * `DATAHUB_GMS_TOKEN` — then `~/.datahubenv` (YAML `gms: {server, token}`, what `datahub init`
 * writes) unless `DATAHUB_SKIP_CONFIG` is set. Used only when `catalogLens.url` is empty and the
 * workspace is trusted; a token found here only ever goes to the server found with it.
 */
import { isRecord } from '../../../model/src/json';
import { parse } from 'yaml';

export interface DatahubSource {
  url: string;
  token: string | undefined;
  /** Where it came from, as the status and the log name it. */
  from: 'DATAHUB_GMS_URL' | 'DATAHUB_GMS_HOST' | '~/.datahubenv';
}

export type ReadText = (path: string) => string | undefined;

export function datahubSource(
  env: NodeJS.ProcessEnv,
  home: string | undefined,
  readText: ReadText,
): DatahubSource | { problem: string } | undefined {
  const token = nonEmpty(env['DATAHUB_GMS_TOKEN']);
  const host = nonEmpty(env['DATAHUB_GMS_HOST']);
  const port = nonEmpty(env['DATAHUB_GMS_PORT']);
  if (port !== undefined && host !== undefined) {
    const protocol = nonEmpty(env['DATAHUB_GMS_PROTOCOL']) ?? 'http';
    return checked({ url: `${protocol}://${host}:${port}`, token, from: 'DATAHUB_GMS_HOST' });
  }
  const url = nonEmpty(env['DATAHUB_GMS_URL']);
  if (url !== undefined) return checked({ url, token, from: 'DATAHUB_GMS_URL' });
  // config_utils.py takes a lone DATAHUB_GMS_HOST as a URL, for backward compatibility.
  if (host !== undefined) return checked({ url: host, token, from: 'DATAHUB_GMS_HOST' });
  if (nonEmpty(env['DATAHUB_SKIP_CONFIG']) !== undefined && /^(1|true|yes)$/i.test(env['DATAHUB_SKIP_CONFIG']!))
    return undefined;
  if (!home) return undefined;
  const path = `${home.replace(/\/+$/, '')}/.datahubenv`;
  const text = readText(path);
  if (text === undefined) return undefined;
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    return {
      problem: `~/.datahubenv is not valid YAML (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); it is ignored`,
    };
  }
  const gms = isRecord(doc) && isRecord(doc['gms']) ? doc['gms'] : undefined;
  const server = gms && typeof gms['server'] === 'string' ? nonEmpty(gms['server']) : undefined;
  if (!gms || server === undefined) return { problem: '~/.datahubenv has no gms.server; it is ignored' };
  const fileToken = typeof gms['token'] === 'string' ? nonEmpty(gms['token']) : undefined;
  return checked({ url: server, token: fileToken, from: '~/.datahubenv' });
}

function checked(s: DatahubSource): DatahubSource | { problem: string } {
  let u: URL;
  try {
    u = new URL(s.url);
  } catch {
    return { problem: `${s.from} holds '${s.url.slice(0, 100)}', which is not a URL; it is ignored` };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    return { problem: `${s.from} is not an http(s) URL; it is ignored` };
  if (u.username || u.password)
    return { problem: `${s.from} holds credentials in the URL; it is ignored (use DATAHUB_GMS_TOKEN)` };
  return { ...s, url: s.url.replace(/\/+$/, '') };
}

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== '' ? v.trim() : undefined;
}
