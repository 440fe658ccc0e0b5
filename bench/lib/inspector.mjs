// A minimal Chrome DevTools Protocol client over the inspector's WebSocket (127.0.0.1 only), so
// the memory benchmark can force a full garbage collection in the server process and read
// process.memoryUsage() there: RSS alone keeps heap V8 has not returned to the system.
import net from 'node:net';
import { randomBytes } from 'node:crypto';

/** Connects to `ws://127.0.0.1:<port>/<id>` as printed by `node --inspect=127.0.0.1:0`. */
export async function connectInspector(wsUrl) {
  const url = new URL(wsUrl);
  if (url.hostname !== '127.0.0.1') throw new Error(`the inspector is not on loopback: ${wsUrl}`);
  const socket = net.connect(Number(url.port), '127.0.0.1');
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(
    [
      `GET ${url.pathname} HTTP/1.1`,
      `Host: ${url.host}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      'Sec-WebSocket-Version: 13',
      '',
      '',
    ].join('\r\n'),
  );
  let buffer = Buffer.alloc(0);
  let upgraded = false;
  // Frames sent before the 101 answer may be dropped by the inspector: wait for it.
  let onUpgrade;
  const upgrade = new Promise((resolve, reject) => {
    onUpgrade = { resolve, reject };
  });
  let nextId = 1;
  const pending = new Map();
  let failed;
  const fail = (e) => {
    failed = e;
    onUpgrade.reject(e);
    for (const { reject } of pending.values()) reject(e);
    pending.clear();
  };
  socket.on('error', fail);
  socket.on('close', () => fail(new Error('the inspector connection closed')));
  socket.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    if (!upgraded) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      if (!/^HTTP\/1\.1 101/.test(buffer.subarray(0, end).toString())) {
        fail(new Error(`the inspector refused the WebSocket upgrade: ${buffer.subarray(0, end)}`));
        return;
      }
      upgraded = true;
      buffer = buffer.subarray(end + 4);
      onUpgrade.resolve();
    }
    for (;;) {
      const frame = readFrame(buffer);
      if (!frame) return;
      buffer = buffer.subarray(frame.size);
      if (frame.opcode !== 1) continue;
      const message = JSON.parse(frame.payload.toString('utf8'));
      const waiter = pending.get(message.id);
      if (!waiter) continue;
      pending.delete(message.id);
      if (message.error) waiter.reject(new Error(`${message.error.message} (${JSON.stringify(message.error)})`));
      else waiter.resolve(message.result);
    }
  });
  await upgrade;
  return {
    send(method, params = {}) {
      if (failed) return Promise.reject(failed);
      const id = nextId++;
      socket.write(maskedFrame(Buffer.from(JSON.stringify({ id, method, params }))));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`the inspector did not answer ${method} within 60 s`));
        }, 60_000);
        pending.set(id, {
          resolve: (v) => {
            clearTimeout(timer);
            resolve(v);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        });
      });
    },
    close() {
      socket.removeAllListeners('close');
      socket.destroy();
    },
  };
}

/** One unfragmented server frame at the start of `b` (servers do not mask), or undefined. */
function readFrame(b) {
  if (b.length < 2) return undefined;
  const opcode = b[0] & 0x0f;
  let length = b[1] & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (b.length < 4) return undefined;
    length = b.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (b.length < 10) return undefined;
    length = Number(b.readBigUInt64BE(2));
    offset = 10;
  }
  if (b.length < offset + length) return undefined;
  return { opcode, payload: b.subarray(offset, offset + length), size: offset + length };
}

/**
 * A final text frame; clients must mask what they send.
 * @param {Buffer} payload
 */
function maskedFrame(payload) {
  const mask = randomBytes(4);
  const header =
    payload.length < 126
      ? Buffer.from([0x81, 0x80 | payload.length])
      : payload.length < 65536
        ? Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff])
        : (() => {
            const h = Buffer.alloc(10);
            h[0] = 0x81;
            h[1] = 0x80 | 127;
            h.writeBigUInt64BE(BigInt(payload.length), 2);
            return h;
          })();
  const body = Buffer.alloc(payload.length);
  for (let i = 0; i < payload.length; i++) body[i] = payload.readUInt8(i) ^ mask.readUInt8(i & 3);
  return Buffer.concat([header, mask, body]);
}

/** Full GC in the inspected process, then its process.memoryUsage() in MiB. */
export async function memoryAfterGc(inspector) {
  await inspector.send('HeapProfiler.enable');
  await inspector.send('HeapProfiler.collectGarbage');
  const r = await inspector.send('Runtime.evaluate', {
    expression: 'JSON.stringify(process.memoryUsage())',
    returnByValue: true,
  });
  const usage = JSON.parse(r.result.value);
  const mib = (n) => n / 1024 / 1024;
  return { rss: mib(usage.rss), heapUsed: mib(usage.heapUsed) };
}
