/** A real local catalog (sample data, in memory) and a real server process pointed at it. */
import { after, afterEach, before, beforeEach } from 'node:test';
import { COMPAT_MODES, type CompatMode } from '../../catalog/src/compat';
import { startCatalog } from '../../catalog/src/server';
import { startSession, type LspSession, type SessionOptions } from './lspClient';

export type Catalog = Awaited<ReturnType<typeof startCatalog>>;

/**
 * The catalog's two modes: the spec's, and DataHub's (Rest.li protocol versions, `exists: false`
 * objects, upserts that create, whole-aspect mutations, query cost limits, its error texts).
 * Protocol-level suites run against both.
 */
export { COMPAT_MODES, type CompatMode };

export async function sampleCatalog(opts: { token?: string; compat?: CompatMode } = {}): Promise<Catalog> {
  return startCatalog({
    port: 0,
    db: ':memory:',
    sample: true,
    log: () => undefined,
    ...(opts.token ? { token: opts.token } : {}),
    ...(opts.compat ? { compat: opts.compat } : {}),
  });
}

export async function serverFor(url: string, opts: SessionOptions = {}): Promise<LspSession> {
  return startSession({ ...opts, settings: { url, ...opts.settings } });
}

/** In a describe block: a sample catalog (in `compat` mode) and a server pointed at it, for every test of the block. */
export function useSampleServer(
  opts: SessionOptions = {},
  compat: CompatMode = 'spec',
): { catalog: Catalog; lsp: LspSession } {
  const env = {} as { catalog: Catalog; lsp: LspSession };
  before(async () => {
    env.catalog = await sampleCatalog({ compat });
    env.lsp = await serverFor(env.catalog.url, opts);
  });
  after(async () => {
    await env.lsp?.stop();
    await env.catalog?.close();
  });
  return env;
}

/**
 * As useSampleServer, but a new catalog and server for each test of the block, for tests that
 * write: a test finds the sample data and its own doing, whatever ran before it.
 */
export function useSampleServerPerTest(
  opts: SessionOptions = {},
  compat: CompatMode = 'spec',
): { catalog: Catalog; lsp: LspSession } {
  const env = {} as { catalog: Catalog; lsp: LspSession };
  beforeEach(async () => {
    env.catalog = await sampleCatalog({ compat });
    env.lsp = await serverFor(env.catalog.url, opts);
  });
  afterEach(async () => {
    await env.lsp?.stop();
    await env.catalog?.close();
  });
  return env;
}

export const S = {
  users: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)',
  orders: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)',
  clicks: 'urn:li:dataset:(urn:li:dataPlatform:kafka,events.clicks,PROD)',
  revenue: 'urn:li:dataset:(urn:li:dataPlatform:snowflake,analytics.public.revenue,PROD)',
  ghost: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.ghost,PROD)',
  age: 'urn:li:mlFeature:(users_table,age)',
  country: 'urn:li:mlFeature:(users_table,country)',
  signupDays: 'urn:li:mlFeature:(users_table,signup_days)',
  orderCount: 'urn:li:mlFeature:(orders_table,order_count)',
  avgAmount: 'urn:li:mlFeature:(orders_table,avg_amount)',
  ghostFeature: 'urn:li:mlFeature:(users_table,ghost)',
  usersTable: 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users_table)',
  ordersTable: 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,orders_table)',
  churnGroup: 'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn-model,PROD)',
  ltvGroup: 'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,ltv-model,PROD)',
  churnModel: 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn-model-v3,PROD)',
  ltvModel: 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,ltv-model-v1,PROD)',
} as const;
