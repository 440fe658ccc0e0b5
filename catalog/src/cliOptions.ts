/** Command-line options of `catalog-lens-catalog`; a bad flag is a UsageError (exit code 2). */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { LOCAL_CATALOG_TOKEN_ENV } from '../../model/src/localCatalog';
import { COMPAT_MODES, isCompatMode, type CompatMode } from './compat';
import { PAGE_ACCESS_MODES, type PageAccess } from './pages/access';
import { PAGES_SECRET_RE } from './security';
import type { Durability } from './store';

export const DEFAULT_PORT = 9410;
export const TOKEN_ENV = LOCAL_CATALOG_TOKEN_ENV;
/** A secret that also serves the pages under `/_pages/SECRET/` through an editor's port proxy (security.ts). */
export const PAGES_SECRET_ENV = 'CATALOG_LENS_PAGES_SECRET';

export interface CliOptions {
  port: number;
  host: string;
  db: string;
  token: string | undefined;
  /** Where the token came from: the environment (TOKEN_ENV), a file, or the command line (which `ps` shows). */
  tokenSource: { kind: 'env' } | { kind: 'file'; file: string } | { kind: 'flag' } | undefined;
  /** Who may read the HTML pages when a token is set; undefined = by the bind address (server.ts). */
  pages: PageAccess | undefined;
  /** More names the Host header may hold (security.ts). */
  allowedHosts: string[];
  /** The secret of the pages' proxy prefix `/_pages/SECRET/` (security.ts), from PAGES_SECRET_ENV. */
  pagesSecret: string | undefined;
  /** Undefined = connections.ts's defaults. */
  maxConnections: number | undefined;
  headersTimeoutMs: number | undefined;
  bodyTimeoutMs: number | undefined;
  sample: boolean;
  /** `--load FILE…`: DataHub metadata files (MCPs and MCEs, as its file sink writes them), absolute paths. */
  load: string[];
  /** `--into URL`: post the --load files to the catalog running there instead of starting one. */
  into: string | undefined;
  namespaces: string[];
  maxBodyBytes: number | undefined;
  durability: Durability;
  compat: CompatMode;
  /** DataHub mode only; undefined = DataHub's default. */
  graphqlComplexityLimit: number | undefined;
  graphqlDepthLimit: number | undefined;
  quiet: boolean;
  help: boolean;
}

export class UsageError extends Error {}

export const USAGE = `Usage: catalog-lens-catalog [options]

The local metadata catalog of Catalog Lens: DataHub's GraphQL endpoint and aspect
write/read paths on SQLite.

Options:
  --port N             port to listen on (default ${DEFAULT_PORT}; 0 = a free port)
  --host H             address to bind (default 127.0.0.1)
  --db FILE            SQLite database file (default .catalog-lens/catalog.db, in DataHub mode
                       .catalog-lens/catalog-datahub.db; ':memory:' = not kept)
  --token-file FILE    require "Authorization: Bearer <token>", the token read from FILE (its
                       first line); or set the environment variable ${TOKEN_ENV}
  --token T            the same with the token on the command line, where any user of this
                       machine can read it with ps (a warning says so): prefer the two above
  --pages MODE         who may read the read-only HTML pages when a token is set: open (the
                       default on loopback: links open in a browser, which has no token) or
                       token (the default beyond loopback: Bearer, or the browser's sign-in
                       with the token as password)
  --allowed-hosts A,B  more names the Host header may hold (e.g. a name other machines use when
                       --host binds beyond loopback); the catalog's own are always accepted
                       (the environment variable ${PAGES_SECRET_ENV}=S also serves the pages under
                       /_pages/S/ to a loopback Host on any port: an editor's port proxy)
  --sample             load the sample catalog that matches examples/
  --load FILE…         load DataHub metadata files (a JSON array of MCPs and MCEs, as DataHub's
                       file sink writes them) before serving; a report per aspect (loaded,
                       refused and why) goes to stderr
  --into URL           with --load: post the files' items to the catalog (or DataHub) running at
                       URL through its ingest paths, print the report and exit
  --namespaces W,W     accepted URN namespace words, first = storage namespace (default li,svc)
  --max-body BYTES     largest request body accepted (default 16 MiB)
  --durability MODE    full (default: acknowledged = on disk) or normal (faster, may lose the
                       last writes on power loss)
  --compat MODE        spec (default: as shared/spec/catalog-interface.md says) or datahub
                       (as a real DataHub answers where it differs; see docs/local-catalog.md)
  --graphql-complexity-limit N   DataHub mode: graphql-java's query complexity limit (default 2000)
  --graphql-depth-limit N        DataHub mode: graphql-java's query depth limit (default 50)
  --max-connections N  sockets open at once (default: half the open-file limit, at most 1000); at
                       the cap the stalest socket not being answered gives way to a new one
  --headers-timeout-ms N  close a socket whose request headers are not complete after N ms
                       (default 10000)
  --body-timeout-ms N  answer 408 and close a request whose body gains less than 1 KiB in N ms
                       (default 5000)
  --quiet              no log line per request
  --help               this text
`;

const VALUE_FLAGS = new Set([
  '--port',
  '--host',
  '--db',
  '--token',
  '--namespaces',
  '--max-body',
  '--durability',
  '--compat',
  '--graphql-complexity-limit',
  '--graphql-depth-limit',
  '--token-file',
  '--allowed-hosts',
  '--max-connections',
  '--headers-timeout-ms',
  '--body-timeout-ms',
  '--pages',
  '--into',
]);
const BOOLEAN_FLAGS = new Set(['--sample', '--quiet', '--help']);

export function parseCliOptions(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): CliOptions {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const load: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (name === '--load') {
      // --load=FILE, or --load FILE FILE … up to the next option.
      const before = load.length;
      if (name !== arg) load.push(arg.slice(eq + 1));
      else while (i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) load.push(argv[++i]!);
      if (load.length === before || load.slice(before).some((f) => f === ''))
        throw new UsageError('--load needs one or more files (e.g. --load mces.json mcps.json)');
    } else if (BOOLEAN_FLAGS.has(name)) {
      if (name !== arg) throw new UsageError(`${name} takes no value`);
      flags.add(name);
    } else if (VALUE_FLAGS.has(name)) {
      const value = name !== arg ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || (name === arg && value.startsWith('--')))
        throw new UsageError(`${name} needs a value`);
      values.set(name, value);
    } else {
      throw new UsageError(`unknown option '${arg}'`);
    }
  }
  const port = integer(values.get('--port'), '--port', DEFAULT_PORT, 0, 65535);
  const maxBody = values.has('--max-body')
    ? integer(values.get('--max-body'), '--max-body', 0, 1, Number.MAX_SAFE_INTEGER)
    : undefined;
  const durability = values.get('--durability') ?? 'full';
  if (durability !== 'full' && durability !== 'normal')
    throw new UsageError(`--durability must be full or normal, found '${durability}'`);
  const namespaces = (values.get('--namespaces') ?? 'li,svc')
    .split(',')
    .map((w) => w.trim())
    .filter((w) => w !== '');
  if (namespaces.length === 0) throw new UsageError('--namespaces needs at least one word, e.g. li,svc');
  for (const w of namespaces) {
    if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(w)) throw new UsageError(`--namespaces: '${w}' is not a namespace word`);
  }
  const compat = values.get('--compat') ?? 'spec';
  if (!isCompatMode(compat)) throw new UsageError(`--compat must be ${COMPAT_MODES.join(' or ')}, found '${compat}'`);
  const limit = (flag: string): number | undefined => {
    if (!values.has(flag)) return undefined;
    if (compat !== 'datahub') throw new UsageError(`${flag} applies to the DataHub mode only: add --compat datahub`);
    return integer(values.get(flag), flag, 0, 1, 1_000_000);
  };
  const graphqlComplexityLimit = limit('--graphql-complexity-limit');
  const graphqlDepthLimit = limit('--graphql-depth-limit');
  // Each mode its own default file: their keys differ (a file refuses to open in the other mode).
  const db =
    values.get('--db') ?? path.join(cwd, '.catalog-lens', compat === 'datahub' ? 'catalog-datahub.db' : 'catalog.db');
  const { token, tokenSource } = readToken(values, env, cwd);
  const allowedHosts = (values.get('--allowed-hosts') ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  for (const h of allowedHosts) {
    if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)(:\d{1,5})?$/.test(h))
      throw new UsageError(
        `--allowed-hosts: '${h}' is not a host name, an IP address or [IPv6], with an optional :port`,
      );
  }
  const maxConnections = values.has('--max-connections')
    ? integer(values.get('--max-connections'), '--max-connections', 0, 1, 1_000_000)
    : undefined;
  // Node wants the headers timeout no longer than the request timeout (60 s, connections.ts).
  const headersTimeoutMs = values.has('--headers-timeout-ms')
    ? integer(values.get('--headers-timeout-ms'), '--headers-timeout-ms', 0, 1, 60_000)
    : undefined;
  const bodyTimeoutMs = values.has('--body-timeout-ms')
    ? integer(values.get('--body-timeout-ms'), '--body-timeout-ms', 0, 100, 60_000)
    : undefined;
  const pages = values.get('--pages');
  if (pages !== undefined && !(PAGE_ACCESS_MODES as readonly string[]).includes(pages))
    throw new UsageError(`--pages must be ${PAGE_ACCESS_MODES.join(' or ')}, found '${pages}'`);
  const pagesSecret = env[PAGES_SECRET_ENV] || undefined;
  if (pagesSecret !== undefined && !PAGES_SECRET_RE.test(pagesSecret))
    throw new UsageError(`${PAGES_SECRET_ENV} must be 16 to 128 characters of A-Z a-z 0-9 _ -`);
  const into = values.get('--into');
  if (into !== undefined && load.length === 0) throw new UsageError('--into needs --load FILE…: the files to post');
  if (into !== undefined && !/^https?:\/\/[^\s/]+/.test(into))
    throw new UsageError(`--into must be an http:// or https:// URL, found '${into}'`);
  const host = values.get('--host') ?? '127.0.0.1';
  if (host === '') throw new UsageError('--host is empty');
  return {
    port,
    host,
    db,
    token,
    tokenSource,
    pages: pages as PageAccess | undefined,
    allowedHosts,
    pagesSecret,
    maxConnections,
    headersTimeoutMs,
    bodyTimeoutMs,
    namespaces,
    durability,
    compat,
    graphqlComplexityLimit,
    graphqlDepthLimit,
    sample: flags.has('--sample'),
    load: load.map((f) => path.resolve(cwd, f)),
    into,
    maxBodyBytes: maxBody,
    quiet: flags.has('--quiet'),
    help: flags.has('--help'),
  };
}

function readToken(
  values: Map<string, string>,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Pick<CliOptions, 'token' | 'tokenSource'> {
  const flag = values.get('--token');
  const file = values.get('--token-file');
  if (flag !== undefined && file !== undefined)
    throw new UsageError('give the token one way: --token-file FILE or --token T, not both');
  if (file !== undefined) {
    const full = path.resolve(cwd, file);
    let text: string;
    try {
      text = readFileSync(full, 'utf8');
    } catch (e) {
      throw new UsageError(`--token-file: cannot read ${full}: ${(e as Error).message}`);
    }
    const token = text.split(/\r?\n/)[0]!.trim();
    if (token === '')
      throw new UsageError(`--token-file: the first line of ${full} is empty; it should hold the token`);
    return { token, tokenSource: { kind: 'file', file: full } };
  }
  if (flag !== undefined) {
    if (flag.trim() === '') throw new UsageError('--token is empty');
    return { token: flag, tokenSource: { kind: 'flag' } };
  }
  const fromEnv = env[TOKEN_ENV];
  if (fromEnv === undefined || fromEnv === '') return { token: undefined, tokenSource: undefined };
  if (fromEnv.trim() === '') throw new UsageError(`${TOKEN_ENV} is blank`);
  return { token: fromEnv, tokenSource: { kind: 'env' } };
}

function integer(text: string | undefined, flag: string, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag} must be a whole number, found '${text}'`);
  const n = Number(text);
  if (n < min || n > max) throw new UsageError(`${flag} must be between ${min} and ${max}, found ${n}`);
  return n;
}
