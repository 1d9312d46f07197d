/**
 * For tests of `serve`'s HTTP side alone: a source whose picture the test sets (any size, any number of changes,
 * or a fault), and requests written byte for byte on a raw loopback socket, so no client library normalises the
 * request target (`GET //x` stays `//x`).
 */
import net from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import type { Picture, ServeSource } from '../../src/commands/serve/source.js';

export interface SetSource extends ServeSource {
  /** Makes `p` the picture and tells serve it changed. */
  set(p: Picture): void;
  /** Makes picture() throw this (null: answer again). */
  failWith: Error | null;
}

export function setSource(first: Picture = { count: 0, roots: [] }): SetSource {
  let current = first;
  const listeners = new Set<() => void>();
  const s: SetSource = {
    failWith: null,
    roots: () => [],
    root: () => undefined,
    picture: () => {
      if (s.failWith) throw s.failWith;
      return current;
    },
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    close: async () => undefined,
    set: (p) => {
      current = p;
      for (const l of listeners) l();
    },
  };
  return s;
}

/** The request's bytes: `GET <target>` with Host 127.0.0.1:port unless `headers` names another `host`. */
function request(
  port: number,
  target: string,
  headers: Record<string, string>,
  close: boolean,
  version = '1.1',
): string {
  const lines = [`GET ${target} HTTP/${version}`];
  if (!Object.keys(headers).some((k) => k.toLowerCase() === 'host')) lines.push(`Host: 127.0.0.1:${port}`);
  if (close) lines.push('Connection: close');
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/**
 * Writes `GET <target>` (HTTP/1.1, `Connection: close`, these headers) on a raw socket and resolves with the
 * status (0: the connection ended with no status line) and the whole answer once it ends.
 */
export function rawGet(
  port: number,
  target: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => s.write(request(port, target, headers, true)));
    let text = '';
    s.setEncoding('latin1');
    s.on('data', (c: string) => (text += c));
    s.on('error', reject);
    s.on('close', () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : 0, text });
    });
  });
}

/**
 * An open request on a raw socket (`/events`): what has come so far, and the socket (to pause it). Asked as
 * HTTP/1.0, so the body comes as sent, not in chunks; `onBody` is given the body's text as it comes.
 */
export interface RawStream {
  socket: net.Socket;
  /** Everything received, as text. */
  text(): string;
  /** Bytes received. */
  bytes(): number;
}

export function rawStream(
  port: number,
  target: string,
  headers: Record<string, string> = {},
  onBody?: (text: string) => void,
): RawStream {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let head: Buffer | null = Buffer.alloc(0);
  const decoder = new StringDecoder('utf8');
  const socket = net.connect(port, '127.0.0.1', () => socket.write(request(port, target, headers, false, '1.0')));
  socket.on('data', (c: Buffer) => {
    chunks.push(c);
    bytes += c.length;
    if (!onBody) return;
    if (head === null) return onBody(decoder.write(c));
    head = Buffer.concat([head, c]);
    const end = head.indexOf('\r\n\r\n');
    if (end === -1) return;
    const body = head.subarray(end + 4);
    head = null;
    onBody(decoder.write(body));
  });
  socket.on('error', () => undefined);
  return {
    socket,
    text: () => Buffer.concat(chunks).toString('utf8'),
    bytes: () => bytes,
  };
}
