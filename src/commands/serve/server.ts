/**
 * The HTTP side of `omc-top serve`, on Node's own http server: the page, its
 * script and style, a server-sent-events stream of the picture (whole on
 * connecting, then what changed, at most once per turn of the event loop), and the
 * actions. Everything but the page's static files needs the token; every
 * request passes the Host / Origin checks (guard.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Actions } from './actions.js';
import { allowedHosts, checkRequest, interfaceAddresses, isWildcard, PAGE_HEADERS } from './guard.js';
import { PAGE_CSS, PAGE_HTML, PAGE_JS } from './page.js';
import { pictureDelta } from './delta.js';
import type { Picture, ServeSource } from './source.js';

export interface ServeOptions {
  source: ServeSource;
  token: string;
  listen: string;
  port: number;
  readonly: boolean;
  /**
   * The config file's line (config-file.ts configLine), shown at the top of the page; null: nothing to say. Sent on
   * the stream only (it names the file and its fault): never in the page, which is served before the token.
   */
  config?: string | null;
  /** Names this machine is reached by, accepted in the Host header (--allow-host). */
  names?: readonly string[];
  /** The machine's addresses, for a wildcard listen (guard.ts interfaceAddresses; a test gives its own). */
  addresses?: () => readonly string[];
  /** A request refused for its Host, said once per name (serve's stderr: why the page a user opened is refused). */
  onRefusedHost?: (host: string) => void;
  /** A fault while answering a request or sending the stream, one line, said once per kind (serve's stderr). */
  onProblem?: (line: string) => void;
}

export interface Served {
  port: number;
  /** Each open `/events` stream, oldest first: what serve holds for it now and at most so far, and whether it is behind. */
  streamStats(): StreamStats[];
  close(): Promise<void>;
}

export interface StreamStats {
  /** Bytes written to the stream and not yet taken by its socket (held in serve's memory). */
  buffered: number;
  /** The most `buffered` was right after any write. */
  peak: number;
  /** Events are not written to it until its socket drains; then it is sent the whole picture. */
  behind: boolean;
}

/**
 * What one `/events` stream may have waiting in serve before events to it stop: a page that stops reading (a phone
 * asleep behind `ssh -L`) would otherwise be buffered for without limit (20 such streams and a busy project: 2 GB in
 * a minute). Past it, the stream is left until its socket drains, then sent the latest picture whole, which the
 * page takes in place of what it held (every connection starts so): it is correct again at once, without the
 * events it missed. An event is still written to a stream whose socket is taking what it is sent, so one picture
 * larger than this goes out; the most held for a stream is this or one event beyond the socket's own buffer.
 */
export const STREAM_BUFFER_LIMIT = 1024 * 1024;

interface Stream {
  res: http.ServerResponse;
  peak: number;
  behind: boolean;
}

const MAX_BODY = 16 * 1024;

function readBody(req: http.IncomingMessage): Promise<Record<string, unknown> | null> {
  return new Promise((resolve) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        resolve(null);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => {
      try {
        const v: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        resolve(v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
      } catch {
        resolve(null);
      }
    });
    req.on('error', () => resolve(null));
  });
}

/**
 * The path of a request target in origin form (`/path?query`), taken apart here and never parsed as a URL: to
 * `new URL`, `//x` is an authority, and `//[` or `//x:99999` threw. Null for any other form (`*`, `http://…`).
 */
export function requestPath(target: string | undefined): string | null {
  if (target === undefined || !target.startsWith('/')) return null;
  const end = target.search(/[?#]/);
  return end === -1 ? target : target.slice(0, end);
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
};

export async function startServer(opts: ServeOptions): Promise<Served> {
  const actions = new Actions(opts.source, opts.readonly);
  const streams = new Map<http.ServerResponse, Stream>();
  const addresses = opts.addresses ?? interfaceAddresses;
  const hostsAt = (port: number) => allowedHosts(opts.listen, port, opts.names ?? [], addresses());
  let hosts = hostsAt(opts.port);
  const refusedHosts = new Set<string>();
  const config = opts.config ?? null;
  const configEvent = config === null ? '' : `event: config\ndata: ${JSON.stringify(config)}\n\n`;
  /** One line per kind of fault (at most 16), so a fault every request repeats is said once. */
  const faults = new Set<string>();
  const sayFault = (where: string, e: unknown) => {
    const kind = (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).split('\n')[0]!.slice(0, 200);
    if (faults.has(kind) || faults.size >= 16) return;
    faults.add(kind);
    opts.onProblem?.(`${where} failed (serve keeps running): ${kind}`);
  };
  // What every open stream has been sent so far (they are all sent the same events, in the same order).
  let last: { json: string; picture: Picture } | null = null;
  let scheduled = false;
  /** close() was called: the streams are ended, and a broadcast already scheduled sends nothing. */
  let closed = false;
  /**
   * Brings every open stream to the current picture: the rows and fields that changed (delta.ts), or the whole
   * picture when that is shorter. A stream opened later starts from `last`, sent whole.
   */
  const sendCurrent = () => {
    const picture = opts.source.picture(Date.now());
    const json = JSON.stringify(picture);
    if (last?.json === json) return;
    const delta = last && streams.size > 0 ? pictureDelta(last.picture, picture) : null;
    const deltaJson = delta ? JSON.stringify(delta) : null;
    const event =
      deltaJson !== null && deltaJson.length < json.length ? `event: delta\ndata: ${deltaJson}` : `data: ${json}`;
    last = { json, picture };
    const text = `${event}\n\n`;
    const size = Buffer.byteLength(text);
    for (const s of streams.values()) sendTo(s, text, size);
  };
  /** A stream that takes no more writes: its socket gone, or its answer ended (serve closing). */
  const over = (s: Stream) => s.res.destroyed || s.res.writableEnded || s.res.socket?.writable === false;
  const written = (s: Stream, text: string) => {
    if (over(s)) return;
    s.res.write(text);
    s.peak = Math.max(s.peak, s.res.writableLength);
  };
  /** Writes an event to one stream, unless its socket stopped taking them (then it is resynced once it drains). */
  const sendTo = (s: Stream, text: string, size: number) => {
    if (s.behind || over(s)) return;
    // A stream waiting for its socket to drain (a write said so) whose event would take it past the limit.
    if (s.res.writableNeedDrain && s.res.writableLength + size > STREAM_BUFFER_LIMIT) {
      s.behind = true;
      s.res.once('drain', () => {
        s.behind = false;
        if (last) written(s, `data: ${last.json}\n\n`);
      });
      return;
    }
    written(s, text);
  };
  const broadcast = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      try {
        // A change that came just before close: its turn runs after the streams were ended.
        if (streams.size > 0 && !closed) sendCurrent();
      } catch (e) {
        sayFault('sending the picture', e);
      }
    });
  };
  /** The port listened on (known once listening: `opts.port` may be 0). */
  let port = opts.port;
  const off = opts.source.subscribe(broadcast);
  // Rows say "12 s ago": refresh the picture now and then even when nothing changed on disk.
  const tick = setInterval(broadcast, 5000);
  tick.unref();

  /** A fault in answering one request is that request's: it is answered 500 (or cut, when its answer began). */
  const failed = (res: http.ServerResponse, e: unknown) => {
    sayFault('a request', e);
    if (res.headersSent) res.destroy();
    else json(res, 500, { error: 'internal error' });
  };

  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const path = requestPath(req.url);
    const route = path === null ? null : `${req.method} ${path}`;
    const isStatic = route === 'GET /' || route === 'GET /app.js' || route === 'GET /app.css';
    let refused = checkRequest(req, hosts, opts.token, !isStatic);
    // The machine's addresses may have changed since (DHCP, a VPN up): looked at again before a Host is refused.
    if (refused?.status === 421 && isWildcard(opts.listen)) {
      hosts = hostsAt(port);
      refused = checkRequest(req, hosts, opts.token, !isStatic);
    }
    if (refused?.status === 421) {
      const host = (req.headers.host ?? '').toLowerCase().slice(0, 300);
      if (!refusedHosts.has(host) && refusedHosts.size < 16) {
        refusedHosts.add(host);
        opts.onRefusedHost?.(host);
      }
    }
    if (refused) return json(res, refused.status, { error: refused.why });
    if (route === null) return json(res, 400, { error: 'the request target must be a path' });
    if (isStatic) {
      const [type, body] =
        route === 'GET /'
          ? ['text/html', PAGE_HTML]
          : route === 'GET /app.js'
            ? ['text/javascript', PAGE_JS]
            : ['text/css', PAGE_CSS];
      res.writeHead(200, { ...PAGE_HEADERS, 'content-type': `${type}; charset=utf-8` });
      return res.end(body);
    }
    if (route === 'GET /events') {
      // The streams already open are brought to the picture this one starts from; a reconnect starts whole.
      sendCurrent();
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
      // The config file's line first, to this client alone (the token was checked above), then the picture.
      const stream: Stream = { res, peak: 0, behind: false };
      // A write that fails (the page's socket reset under it) is that stream's end, never serve's: an error event
      // with no listener would be thrown out of the event loop.
      res.on('error', () => streams.delete(res));
      written(stream, `${configEvent}retry: 2000\ndata: ${last?.json ?? ''}\n\n`);
      streams.set(res, stream);
      req.on('close', () => streams.delete(res));
      return;
    }
    if (req.method !== 'POST') return json(res, 404, { error: 'not found' });
    void readBody(req)
      .then(async (body) => {
        if (!body) return json(res, 400, { error: 'a JSON object, at most 16 KiB' });
        if (route === 'POST /api/ack') {
          const r = await actions.ack(body);
          return json(res, r.status, r.body);
        }
        if (route === 'POST /api/cancel/plan') {
          const r = actions.plan(body);
          return json(res, r.status, r.body);
        }
        if (route === 'POST /api/permission') {
          const r = actions.answerPermission(body);
          return json(res, r.status, r.body);
        }
        if (route === 'POST /api/gate/plan') {
          const r = actions.planGate(body);
          return json(res, r.status, r.body);
        }
        if (route === 'POST /api/confirm') {
          const r = await actions.confirm(body);
          return json(res, r.status, r.body);
        }
        return json(res, 404, { error: 'not found' });
      })
      .catch((e: unknown) => failed(res, e));
  };
  const server = http.createServer((req, res) => {
    try {
      handle(req, res);
    } catch (e) {
      failed(res, e);
    }
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.listen, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  hosts = hostsAt(port);
  return {
    port,
    streamStats: () =>
      [...streams.values()].map((s) => ({ buffered: s.res.writableLength, peak: s.peak, behind: s.behind })),
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        off();
        clearInterval(tick);
        for (const s of streams.keys()) s.end();
        streams.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
