/**
 * Loopback HTTP servers standing in for ntfy, a JSON webhook and the
 * Telegram / Discord APIs: each records what it received and answers as
 * told (200, 500, or never: a channel that hangs).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface LoopbackServer {
  base: string;
  received: Received[];
  /** How to answer: a status, or 'hang' (read the request, never answer). */
  answer: number | 'hang';
  close(): Promise<void>;
}

export async function loopbackServer(answer: number | 'hang' = 200): Promise<LoopbackServer> {
  const received: Received[] = [];
  const open = new Set<http.ServerResponse>();
  const state = { answer };
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (state.answer === 'hang') {
        open.add(res);
        return;
      }
      res.writeHead(state.answer, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    received,
    get answer() {
      return state.answer;
    },
    set answer(a) {
      state.answer = a;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of open) r.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
