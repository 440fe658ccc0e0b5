/**
 * Rest.li protocol versions, as DataHub's GMS (a Rest.li server) reads them. Without an
 * `X-RestLi-Protocol-Version` header a request is protocol 1.0.0
 * (linkedin/rest.li ProtocolVersionUtil.extractProtocolVersion); a version outside
 * 1.0.0 ≤ v ≤ 2.0.0 (AllProtocolVersions OLDEST_SUPPORTED … NEXT) is refused with 400 "Rest.li
 * protocol version X used by the client is not supported!" (RestLiServer
 * ensureRequestUsesValidRestliProtocol). Protocol 1.0 query parameters have no `List(a,b)`
 * syntax: `?aspects=List(a,b)` is one value, the literal string `List(a,b)`
 * (ResourceContextImpl → QueryParamsDataMap.parseDataMapKeys, a single value read as a
 * one-element list), so DataHub's EntityV2Resource asks for one aspect of that name.
 */
import { CatalogError } from '../errors';

export type RestLiProtocol = '1.0' | '2.0';

export const PROTOCOL_HEADER = 'x-restli-protocol-version';

/** The protocol a request speaks; throws DataHub's 400 for a version GMS does not support. */
export function restliProtocol(header: string | string[] | undefined): RestLiProtocol {
  if (header === undefined) return '1.0';
  const text = Array.isArray(header) ? header.join(',') : header;
  const m = /^\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(text);
  const parts = m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : undefined;
  const cmp = (a: number[], b: number[]): number => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;
  if (!parts || cmp(parts, [1, 0, 0]) < 0 || cmp(parts, [2, 0, 0]) > 0) {
    throw new CatalogError(400, `Rest.li protocol version ${text} used by the client is not supported!`);
  }
  return cmp(parts, [2, 0, 0]) >= 0 ? '2.0' : '1.0';
}

/**
 * The values of an array query parameter such as `aspects`: under 2.0 `List(a,b)` is a list
 * (and plain repeated values are taken as they are); under 1.0 every value is taken literally.
 */
export function arrayParam(query: URLSearchParams, name: string, protocol: RestLiProtocol): string[] | undefined {
  const raw = query.getAll(name);
  if (raw.length === 0) return undefined;
  if (protocol === '1.0') return raw;
  return raw.flatMap((r) => {
    const m = /^List\((.*)\)$/s.exec(r);
    return (m ? m[1]!.split(',') : [r]).map((s) => s.trim()).filter((s) => s !== '');
  });
}

/**
 * The `stackTrace` DataHub's Rest.li error bodies carry (RestLiServiceException's toString, then
 * frames). Clients show `message`; the trace is there so a client that parses the
 * body whole meets the same keys as at DataHub.
 */
export function restliStackTrace(status: number, message: string | undefined): string {
  const head = `com.linkedin.restli.server.RestLiServiceException [HTTP Status:${status}]${message === undefined ? '' : `: ${message}`}`;
  return `${head}\n\tat com.linkedin.restli.server.RestLiServiceException.<init>(RestLiServiceException.java)\n\t(frames of the local catalog's DataHub mode)`;
}
