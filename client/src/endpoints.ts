/**
 * The catalog's endpoints as the client sees them: which origin a token belongs to, what to ask
 * the user before a token leaves this machine, and the web page of an entity. No `vscode` here,
 * so the rules are unit-tested on their own.
 */
import { isLoopbackHost, originOf, parseHttpUrl } from '../../model/src/origin';

/** SecretStorage key of the token for one catalog origin: a token is only given to the origin it was stored for. */
export function tokenSecretKey(origin: string): string {
  return `catalogLens.token:${origin}`;
}

/**
 * Why the user should confirm before the token is sent; `key` identifies the answer to remember.
 * `insecureHost` (host:port) is set for plain-HTTP destinations: once accepted, the server is told
 * so (initializationOptions.allowInsecureHosts) and does not ask a second time.
 */
export interface TokenRisk {
  key: string;
  message: string;
  insecureHost?: string;
  /** Set for another origin than the token's: once accepted, the server is told (initializationOptions.allowTokenOrigins). */
  otherOrigin?: string;
}

/**
 * The destinations of the token are the catalog URL and, when set, the GraphQL URL. Each one on
 * plain HTTP off this machine is a risk (anyone on the path reads the token), and so is a
 * GraphQL URL on another origin — scheme, host and port — than the one the token was stored for:
 * another port on the same host may be another program. `allowed` lists origins the user's
 * settings already allow (catalogLens.allowTokenOrigins).
 */
export function tokenRisks(url: string, graphqlUrl: string, allowed: readonly string[] = []): TokenRisk[] {
  const risks: TokenRisk[] = [];
  const main = parseHttpUrl(url);
  if (!main) return risks;
  const gql = graphqlUrl.trim() ? parseHttpUrl(graphqlUrl) : undefined;
  for (const u of gql && gql.origin !== main.origin ? [main, gql] : [main]) {
    if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) {
      risks.push({
        key: `insecure:${u.origin}`,
        message: `The access token would be sent to ${u.origin} over plain HTTP, where anyone on the network can read it.`,
        insecureHost: u.host,
      });
    }
  }
  if (gql && gql.origin !== main.origin && !allowed.some((o) => originOf(o) === gql.origin)) {
    risks.push({
      key: `graphql:${main.origin}->${gql.origin}`,
      message: `The access token stored for ${main.origin} would also be sent to ${gql.origin} (catalogLens.graphqlUrl), another ${gql.hostname === main.hostname ? 'port' : 'host'}.`,
      otherOrigin: gql.origin,
    });
  }
  return risks;
}

/** An error message for a catalog URL typed by the user, or undefined when it is fine. */
export function checkCatalogUrl(text: string, opts: { optional: boolean }): string | undefined {
  const t = text.trim();
  if (t === '')
    return opts.optional
      ? undefined
      : "Enter the catalog URL, e.g. http://localhost:8080 (DataHub GMS) or the local catalog's URL.";
  let u: URL;
  try {
    u = new URL(t);
  } catch (e) {
    return `Not a URL (${e instanceof Error ? e.message : String(e)}); write it as http://host:port`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `Use an http:// or https:// URL, not ${u.protocol}`;
  if (u.username || u.password)
    return 'Do not put credentials in the URL: use "Catalog Lens: Set Access Token", which keeps the token in VS Code\'s secret storage.';
  if (u.search || u.hash) return 'The URL takes no query (?…) or fragment (#…).';
  return undefined;
}
