/**
 * Just enough of RFC 6455 to test a proxy with real WebSocket traffic: the opening handshake
 * (client and server side) and text frames (masked from the client, plain from the server). Node
 * 20 has no WebSocket server and the project does not depend on one.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

export function acceptKey(key: string): string {
  return createHash('sha1')
    .update(key + GUID)
    .digest('base64');
}

/** A text frame; clients must mask theirs (RFC 6455 §5.3). */
export function encodeText(text: string, masked: boolean): Buffer {
  const payload = Buffer.from(text, 'utf8');
  if (payload.length > 0xffff) throw new Error('frames over 64 KiB are not needed here');
  const lengthBytes =
    payload.length < 126
      ? Buffer.from([payload.length | (masked ? 0x80 : 0)])
      : Buffer.from([126 | (masked ? 0x80 : 0), payload.length >> 8, payload.length & 0xff]);
  if (!masked) return Buffer.concat([Buffer.from([0x81]), lengthBytes, payload]);
  const mask = randomBytes(4);
  const body = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!));
  return Buffer.concat([Buffer.from([0x81]), lengthBytes, mask, body]);
}

/** Splits complete frames off the front of `buf`; returns their texts and what is left. */
export function decodeFrames(buf: Buffer): { texts: string[]; rest: Buffer } {
  const texts: string[] = [];
  let at = 0;
  for (;;) {
    if (buf.length - at < 2) break;
    const masked = (buf[at + 1]! & 0x80) !== 0;
    let length = buf[at + 1]! & 0x7f;
    let offset = at + 2;
    if (length === 126) {
      if (buf.length - at < 4) break;
      length = buf.readUInt16BE(at + 2);
      offset = at + 4;
    } else if (length === 127) {
      throw new Error('64-bit frame lengths are not needed here');
    }
    const mask = masked ? buf.subarray(offset, offset + 4) : undefined;
    if (mask) offset += 4;
    if (buf.length < offset + length) break;
    const payload = Buffer.from(buf.subarray(offset, offset + length));
    if (mask) for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i % 4]!;
    texts.push(payload.toString('utf8'));
    at = offset + length;
  }
  return { texts, rest: buf.subarray(at) };
}

/** Server side: answers the upgrade with 101 and then echoes each text frame as `echo:<text>`. */
export function acceptEchoSocket(req: IncomingMessage, socket: Socket, head: Buffer): void {
  const key = req.headers['sec-websocket-key'];
  if (typeof key !== 'string') {
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    return;
  }
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${acceptKey(key)}\r\n\r\n`,
  );
  let pending: Buffer = Buffer.from(head);
  const onData = (chunk: Buffer): void => {
    const { texts, rest } = decodeFrames(Buffer.concat([pending, chunk]));
    pending = rest;
    for (const t of texts) socket.write(encodeText(`echo:${t}`, false));
  };
  socket.on('data', onData);
  socket.on('error', () => socket.destroy());
  // An http.Server's sockets allow half-open connections: close this side when the peer closes its own.
  socket.on('end', () => socket.end());
  if (head.length > 0) onData(Buffer.alloc(0));
}

export interface UpgradeAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body after the head (for refusals); empty for 101. */
  body: string;
  socket: Socket;
  /** Sends a text frame and resolves with the next text frame received. */
  exchange(text: string): Promise<string>;
}

/**
 * Client side, over a raw socket so that any Host and Origin can be sent: the upgrade request,
 * then the answer's status and head. A refusal's body is read until the server closes.
 */
export function upgrade(port: number, target: string, headers: Record<string, string>): Promise<UpgradeAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const key = randomBytes(16).toString('base64');
    const all: Record<string, string> = {
      Host: `127.0.0.1:${port}`,
      Connection: 'Upgrade',
      Upgrade: 'websocket',
      'Sec-WebSocket-Version': '13',
      'Sec-WebSocket-Key': key,
      ...headers,
    };
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.write(
        `GET ${target} HTTP/1.1\r\n${Object.entries(all)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('')}\r\n`,
      );
    });
    let buf: Buffer = Buffer.alloc(0);
    const onHead = (chunk: Buffer): void => {
      buf = Buffer.concat([buf, chunk]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onHead);
      const [statusLine, ...lines] = buf.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '')?.[1]);
      const head: Record<string, string> = {};
      for (const l of lines) {
        const colon = l.indexOf(':');
        head[l.slice(0, colon).trim().toLowerCase()] = l.slice(colon + 1).trim();
      }
      let rest: Buffer = buf.subarray(end + 4);
      if (status === 101) {
        if (head['sec-websocket-accept'] !== acceptKey(key)) {
          socket.destroy();
          reject(new Error(`wrong Sec-WebSocket-Accept ${head['sec-websocket-accept']}`));
          return;
        }
        const frames: string[] = [];
        const waiters: ((t: string) => void)[] = [];
        socket.on('data', (c: Buffer) => {
          const decoded = decodeFrames(Buffer.concat([rest, c]));
          rest = decoded.rest;
          frames.push(...decoded.texts);
          while (frames.length > 0 && waiters.length > 0) waiters.shift()!(frames.shift()!);
        });
        const exchange = (text: string): Promise<string> =>
          new Promise((res) => {
            waiters.push(res);
            socket.write(encodeText(text, true));
          });
        resolve({ status, headers: head, body: '', socket, exchange });
        return;
      }
      // A refusal: its body is Content-Length bytes long, or runs until the server closes.
      const length = head['content-length'] !== undefined ? Number(head['content-length']) : undefined;
      let body: Buffer = rest;
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        socket.destroy();
        resolve({
          status,
          headers: head,
          body: body.toString('utf8'),
          socket,
          exchange: () => Promise.reject(new Error(`no WebSocket: the answer was ${status}`)),
        });
      };
      const onBody = (c: Buffer): void => {
        body = Buffer.concat([body, c]);
        if (length !== undefined && body.length >= length) finish();
      };
      socket.on('data', onBody);
      socket.once('close', finish);
      onBody(Buffer.alloc(0));
    };
    socket.on('data', onHead);
  });
}
