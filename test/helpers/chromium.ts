/**
 * Debian's headless Chromium driven over the DevTools protocol on a pipe
 * (--remote-debugging-pipe: NUL-separated JSON on fds 3 and 4), from Node
 * alone: no browser download, no client library, a fresh profile per run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';

export const CHROMIUM = '/usr/bin/chromium';

export interface Browser {
  /** Evaluates an expression in the page (awaiting a promise) and returns its value. */
  evaluate<T = unknown>(expression: string): Promise<T>;
  navigate(url: string): Promise<void>;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-chromium-'));
  const child: ChildProcess = spawn(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
      '--remote-debugging-pipe',
      'about:blank',
    ],
    // Its own process group: closing kills the browser's helper processes too (they write in the profile).
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'], detached: true },
  );
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  let nextId = 1;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let buf = '';
  fromBrowser.setEncoding('utf8');
  fromBrowser.on('data', (chunk: string) => {
    buf += chunk;
    let i;
    while ((i = buf.indexOf('\0')) >= 0) {
      const msg = JSON.parse(buf.slice(0, i)) as { id?: number; result?: unknown; error?: { message: string } };
      buf = buf.slice(i + 1);
      const w = msg.id !== undefined ? waiting.get(msg.id) : undefined;
      if (!w) continue;
      waiting.delete(msg.id as number);
      if (msg.error) w.reject(new Error(msg.error.message));
      else w.resolve(msg.result);
    }
  });
  const send = (method: string, params: object = {}, sessionId?: string) =>
    new Promise<any>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      toBrowser.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + '\0');
    });
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  await send('Runtime.enable', {}, sessionId);
  return {
    async evaluate<T>(expression: string): Promise<T> {
      const r = await send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId);
      if (r.exceptionDetails) throw new Error(`page threw: ${JSON.stringify(r.exceptionDetails).slice(0, 300)}`);
      return r.result.value as T;
    },
    async navigate(url: string) {
      await send('Page.navigate', { url }, sessionId);
    },
    async close() {
      const exited = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      await exited;
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
    },
  };
}
