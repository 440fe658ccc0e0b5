// The floor of the load benchmark: node:http answering one fixed JSON body to any request, after
// reading the request body (as the catalog must). Nothing else, so the ratio shows what the
// catalog's own work costs on top of Node's HTTP stack. The body is the catalog's own answer to
// the same request (BENCH_BARE_BODY), so both send the same bytes.
import { createServer } from 'node:http';

const BODY = process.env.BENCH_BARE_BODY ?? '{"data":null,"extensions":{}}';
const server = createServer((req, res) => {
  req.on('data', () => undefined);
  req.on('end', () => {
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(BODY),
    });
    res.end(BODY);
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
