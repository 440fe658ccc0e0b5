/** An HTTP server of a test on 127.0.0.1 (a free port), closed with every connection it holds. */
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export async function listenOnLoopback(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
