// The checks of `npm start -- --smoke` (CI runs them): the local catalog needs its token (its
// read-only pages do not), the editor gate refuses a request without its secret and one with a
// foreign Host (a DNS rebind, page and WebSocket upgrade), and with the secret it serves the
// workbench, workspace trust on.
// Each check throws with what it got; each answer says what passed. No check prints a secret.
import { request } from 'node:http';

/**
 * One request with any headers (fetch would not send a foreign Host); resolves with status, headers and body.
 * @param {string} url
 * @param {{ method?: string, headers?: Record<string, string>, body?: string }} [options]
 * @returns {Promise<{ status: number | undefined, headers: import('node:http').IncomingHttpHeaders, body: string }>}
 */
function send(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    // A 101 would mean the upgrade went through: report it as such, then drop the socket.
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode, headers: res.headers, body: '' });
    });
    req.on('error', reject);
    req.end(body);
  });
}

function expect(what, answer, status, bodyPattern) {
  if (answer.status !== status || (bodyPattern && !bodyPattern.test(answer.body))) {
    throw new Error(
      `${what}: expected ${status}${bodyPattern ? ` and ${bodyPattern}` : ''}, got ${answer.status}: ${answer.body.slice(0, 300)}`,
    );
  }
}

export async function smokeCatalog(url, token, dataset) {
  const query = JSON.stringify({ query: `{ dataset(urn: "${dataset}") { properties { description } } }` });
  const headers = { 'content-type': 'application/json' };
  const without = await send(`${url}/api/graphql`, { method: 'POST', headers, body: query });
  expect('catalog GraphQL without the token', without, 401);
  const withToken = await send(`${url}/api/graphql`, {
    method: 'POST',
    headers: { ...headers, authorization: `Bearer ${token}` },
    body: query,
  });
  expect('catalog GraphQL with the token', withToken, 200, /One row per registered user/);
  // What an editor's "Open in catalog" link opens, in a browser that has no token (docs/local-catalog.md "Pages").
  const page = await send(`${url}/dataset/${dataset}`, { headers: { accept: 'text/html' } });
  expect('the dataset page, without the token', page, 200, /One row per registered user/);
  return `GraphQL 401 without the token, ${withToken.status} with it (db.users described); its page ${page.status}`;
}

/**
 * @param {{ origin: string, port: number, urlWithSecret(path?: string): string }} gate
 * @param {string} path
 * @param {{ catalogPort: string, pagesPath: string, dataset: string }} [pages] "Open in catalog" through code-server's port proxy
 */
export async function smokeEditor(gate, path, pages) {
  const page = `${gate.origin}${path}`;
  expect('the workbench without the secret', await send(page), 403, /Open that URL/);
  const traded = await send(gate.urlWithSecret(path));
  expect('the URL with the secret', traded, 302);
  const cookie = (traded.headers['set-cookie'] ?? [])[0]?.split(';')[0];
  const location = traded.headers.location;
  if (!cookie || !location || location.includes('tkn='))
    throw new Error(`the URL with the secret gave no cookie, no redirect, or kept the secret in ${location}`);

  // A rebound page has the attacker's name as Host and Origin; even with the secret it is refused.
  const rebound = `evil.example:${gate.port}`;
  expect(
    'the workbench under a rebound Host',
    await send(page, { headers: { host: rebound, cookie } }),
    403,
    /answers only at/,
  );
  const upgrade = {
    connection: 'Upgrade',
    upgrade: 'websocket',
    'sec-websocket-version': '13',
    'sec-websocket-key': 'c21va2UtY2hlY2stMDAwMQ==',
  };
  const wsTarget = `${gate.origin}/?reconnectionToken=smoke&reconnection=false&skipWebSocketFrames=false`;
  expect(
    'a WebSocket upgrade under a rebound Host and Origin',
    await send(wsTarget, { headers: { ...upgrade, host: rebound, origin: `http://${rebound}`, cookie } }),
    403,
  );
  expect('a WebSocket upgrade without the secret', await send(wsTarget, { headers: upgrade }), 403);

  const workbench = await send(location, { headers: { cookie } });
  expect('the workbench with the cookie', workbench, 200, /workbench/);
  if (!workbench.body.includes('enableWorkspaceTrust&quot;:true'))
    throw new Error('the workbench has workspace trust off');
  expect('/healthz with the cookie', await send(`${gate.origin}/healthz`, { headers: { cookie } }), 200);
  let proxied = '';
  if (pages) {
    // What the editor opens for "Open in catalog": the catalog's page through code-server's port proxy.
    const through = `${gate.origin}/proxy/${pages.catalogPort}`;
    const headers = { cookie, accept: 'text/html' };
    const page = await send(`${through}${pages.pagesPath}/dataset/${pages.dataset}`, { headers });
    expect("the catalog's page through the editor's port proxy", page, 200, /One row per registered user/);
    const bare = await send(`${through}/dataset/${pages.dataset}`, { headers });
    expect("the catalog's page through the proxy without the pages secret", bare, 403);
    proxied = "; the catalog's page through its port proxy 200 (403 without the pages secret)";
  }
  return `gate: 403 without the secret, 403 for a rebound Host with the secret (page and WebSocket); with the secret: cookie, workbench 200 (workspace trust on), /healthz 200${proxied}`;
}
