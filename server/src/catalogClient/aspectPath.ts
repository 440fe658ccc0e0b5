/**
 * The aspect path of the catalog client: where DataHub's Rest.li paths live (found once, see
 * restBase.ts), aspect reads with their versions (`GET /entitiesV2`) and aspect writes
 * (`POST /aspects?action=ingestProposal`), for read-merge-write.
 */
import { isRecord } from '../../../model/src/json';
import { encodeUrnForPath } from '../../../model/src/urn';
import { raceCancel } from './cache';
import { catalogClientError, displayUrl, type CatalogClientError } from './errors';
import type { CatalogHttp } from './http';
import { discoverRestBase, type RestBase } from './restBase';

export interface AspectEnvelope<T = unknown> {
  value: T;
  version: string;
}

export interface AspectWrite {
  entityType: string;
  urn: string;
  aspectName: string;
  value: unknown;
  /** DataHub's If-Version-Match: the version read, "-1" = only if absent. */
  ifVersion?: string;
  /**
   * `systemMetadata.runId`: one per user command, so `datahub ingest rollback --run-id` undoes one
   * edit, not every edit ever made through the extension.
   */
  runId: string;
}

export interface AspectPathListeners {
  /** The search for the Rest.li base ended in an error about the connection. */
  connectionError(error: CatalogClientError): void;
  /** The Rest.li base differs from the setting (a frontend root was corrected). */
  notice(notice: string): void;
}

/** DataHub's Rest.li reads `List(a,b)` only under protocol 2.0; without this header it assumes 1.0. */
const RESTLI_2 = { 'X-RestLi-Protocol-Version': '2.0.0' } as const;

export class AspectPath {
  reads = 0;
  writes = 0;
  private restBase: Promise<RestBase> | undefined;

  constructor(
    private readonly http: CatalogHttp,
    /** The catalog (GMS) address without a trailing slash; empty when only a GraphQL URL is set. */
    private readonly gmsUrl: string,
    private readonly listeners: AspectPathListeners,
  ) {}

  /**
   * Where the Rest.li paths live, found once (`GET /config`) and kept; see restBase.ts. The search
   * runs without any caller's cancellation, so no caller goes ahead on an address nobody checked; one
   * that said nothing yet (unreachable) is an error for this call and is asked again next time.
   */
  async rest(signal?: AbortSignal): Promise<RestBase> {
    if (!this.restBase) {
      const found = discoverRestBase(this.http, this.gmsUrl).then((b) => {
        if (!b.settled) {
          if (this.restBase === found) this.restBase = undefined;
        } else if (b.error) {
          this.listeners.connectionError(b.error);
        } else if (b.notice) {
          this.listeners.notice(b.notice);
        }
        return b;
      });
      this.restBase = found;
    }
    const b = await raceCancel(this.restBase, signal);
    if (!b)
      return {
        url: this.gmsUrl,
        settled: false,
        error: catalogClientError('cancelled', 'cancelled', displayUrl(this.gmsUrl)),
      };
    return b;
  }

  /** The Rest.li base the aspect reads and writes go to, or why there is none (no `url`, not found). */
  private async base(
    signal?: AbortSignal,
  ): Promise<{ url: string; error?: undefined } | { url?: undefined; error: CatalogClientError }> {
    if (!this.gmsUrl)
      return {
        error: catalogClientError(
          'notConfigured',
          'catalogLens.url is empty: the aspect path needs the catalog (GMS) address',
        ),
      };
    const base = await this.rest(signal);
    return base.error ? { error: base.error } : { url: base.url };
  }

  /**
   * Reads aspects with their versions (`GET /entitiesV2`), for read-merge-write.
   * An aspect the entity does not have is absent from the result.
   */
  async readAspects(
    urn: string,
    names: readonly string[],
    signal?: AbortSignal,
  ): Promise<{ ok: true; aspects: Record<string, AspectEnvelope> } | { ok: false; error: CatalogClientError }> {
    const base = await this.base(signal);
    if (base.error) return { ok: false, error: base.error };
    let path: string;
    try {
      path = encodeUrnForPath(urn);
    } catch {
      return {
        ok: false,
        error: catalogClientError(
          'badInput',
          'the URN holds a lone surrogate (half of a UTF-16 pair) and cannot be put in a URL',
        ),
      };
    }
    this.reads++;
    const url = `${base.url}/entitiesV2/${path}?aspects=List(${names.join(',')})`;
    const r = await this.http.call<unknown>(url, {
      method: 'GET',
      headers: RESTLI_2,
      retry: true,
      accept: [404],
      ...(signal ? { signal } : {}),
    });
    if (!r.ok) return r;
    const aspects: Record<string, AspectEnvelope> = {};
    const map = isRecord(r.body) && isRecord(r.body['aspects']) ? r.body['aspects'] : {};
    for (const name of names) {
      const env = map[name];
      if (!isRecord(env)) continue;
      const sm = isRecord(env['systemMetadata']) ? env['systemMetadata'] : {};
      aspects[name] = {
        value: env['value'],
        version: typeof sm['version'] === 'string' ? sm['version'] : String(sm['version'] ?? '1'),
      };
    }
    return { ok: true, aspects };
  }

  /**
   * Writes one aspect (`POST /aspects?action=ingestProposal`, blocking). With `ifVersion`, the
   * catalog refuses the write when the aspect changed since it was read: a `conflict` error.
   */
  async writeAspect(
    p: AspectWrite,
    signal?: AbortSignal,
  ): Promise<{ ok: true } | { ok: false; error: CatalogClientError }> {
    const base = await this.base(signal);
    if (base.error) return { ok: false, error: base.error };
    this.writes++;
    const proposal: Record<string, unknown> = {
      entityType: p.entityType,
      entityUrn: p.urn,
      changeType: 'UPSERT',
      aspectName: p.aspectName,
      // Pegasus bytes: every character of the string must be ≤ U+00FF, so non-ASCII is written as \uXXXX.
      aspect: { value: asciiJson(p.value), contentType: 'application/json' },
      systemMetadata: { lastObserved: Date.now(), runId: p.runId },
    };
    if (p.ifVersion !== undefined) proposal['headers'] = { 'If-Version-Match': p.ifVersion };
    const url = `${base.url}/aspects?action=ingestProposal`;
    const r = await this.http.call<unknown>(url, {
      method: 'POST',
      headers: RESTLI_2,
      body: { proposal, async: 'false' },
      ...(signal ? { signal } : {}),
    });
    if (r.ok) return { ok: true };
    // On the whole text: DataHub's marker sits past character 300 of its 422 message, beyond the cut message.
    if (
      (r.error.status === 422 || r.error.status === 412) &&
      /Expected version/i.test(r.error.detail ?? r.error.message)
    ) {
      return { ok: false, error: { ...r.error, kind: 'conflict' } };
    }
    return r;
  }
}

/** JSON with every non-ASCII character written as a \uXXXX escape. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
