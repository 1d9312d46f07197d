/**
 * Loopback HTTP servers standing in for ntfy, a JSON webhook and the
 * Telegram / Discord APIs: each records what it received and answers as
 * told (200, 500, or never: a channel that hangs, until the test lets go),
 * and what became of each request: answered with a status, or cut (its
 * sender went away before it was answered).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The status it was answered with; 'cut': the sender closed the connection first; null: not answered yet. */
  answered: number | 'cut' | null;
}

export interface LoopbackServer {
  base: string;
  received: Received[];
  /** How to answer: a status, or 'hang' (read the request, answer only when the test lets go). */
  answer: number | 'hang';
  /** Answers every request still held whose sender is still there with `status`. */
  letGo(status?: number): void;
  close(): Promise<void>;
}

export async function loopbackServer(answer: number | 'hang' = 200): Promise<LoopbackServer> {
  const received: Received[] = [];
  const open = new Map<http.ServerResponse, Received>();
  const state = { answer };
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const r: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, answered: null };
      received.push(r);
      res.on('close', () => {
        open.delete(res);
        if (r.answered === null) r.answered = 'cut';
      });
      if (state.answer === 'hang') {
        open.set(res, r);
        return;
      }
      reply(res, r, state.answer);
    });
  });
  function reply(res: http.ServerResponse, r: Received, status: number) {
    r.answered = status;
    res.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":true}');
  }
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
    letGo(status = 200) {
      for (const [res, r] of open) if (!res.destroyed) reply(res, r, status);
      open.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of open.keys()) r.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
