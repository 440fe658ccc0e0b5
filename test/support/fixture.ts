/** A real local catalog (sample data, in memory) and a real server process pointed at it. */
import { after, before } from 'node:test';
import { startCatalog } from '../../catalog/src/server';
import { startSession, type LspSession, type SessionOptions } from './lspClient';

export type Catalog = Awaited<ReturnType<typeof startCatalog>>;

export async function sampleCatalog(opts: { token?: string } = {}): Promise<Catalog> {
  return startCatalog({ port: 0, db: ':memory:', sample: true, log: () => undefined, ...(opts.token ? { token: opts.token } : {}) });
}

export async function serverFor(url: string, opts: SessionOptions = {}): Promise<LspSession> {
  return startSession({ ...opts, settings: { url, ...opts.settings } });
}

/** In a describe block: a sample catalog and a server pointed at it, for every test of the block. */
export function useSampleServer(opts: SessionOptions = {}): { catalog: Catalog; lsp: LspSession } {
  const env = {} as { catalog: Catalog; lsp: LspSession };
  before(async () => {
    env.catalog = await sampleCatalog();
    env.lsp = await serverFor(env.catalog.url, opts);
  });
  after(async () => {
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
