/**
 * For end-to-end tests of push beside `serve` (the built bundle): a Claude Code registry entry's status changed
 * as Claude Code changes it, and serve's needs-you count as its page's stream first says it.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Machine } from '../fleet/fleet-tree.js';

/** Rewrites the registry entry of `sid` as Claude Code does when its status changes. */
export function setStatus(m: Machine, sid: string, patch: Record<string, unknown>): void {
  const dir = path.join(m.config, 'sessions');
  for (const f of fs.readdirSync(dir)) {
    const file = path.join(dir, f);
    const e = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    if (e.sessionId !== sid) continue;
    fs.writeFileSync(`${file}.tmp`, JSON.stringify({ ...e, ...patch, statusUpdatedAt: Date.now() }));
    fs.renameSync(`${file}.tmp`, file);
    return;
  }
  throw new Error(`no registry entry for ${sid}`);
}

/** The needs-you count of serve's first picture (GET /events), or null before it answers. */
export function serveCount(port: number, token: string): Promise<number | null> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/events', headers: { 'x-omc-top-token': token } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
        // The picture is an object (an `event: config` before it carries a string).
        const m = /^data: (\{.*)$/m.exec(text);
        if (!m || !text.includes('\n\n')) return;
        req.destroy();
        try {
          resolve((JSON.parse(m[1] as string) as { count: number }).count);
        } catch {
          resolve(null);
        }
      });
    });
    req.on('error', () => resolve(null));
  });
}

/**
 * The environment of one omc-top of `m` pushing to `channelUrl` (its own config file), with this debounce;
 * `timeoutMs`: how long it waits for the channel's answer (the default, 5 s, unless given).
 */
export function pushEnv(
  m: Machine,
  who: string,
  channelUrl: string,
  debounceMs: number,
  timeoutMs?: number,
): NodeJS.ProcessEnv {
  const xdgConfig = path.join(m.base, `config-${who}`);
  fs.mkdirSync(path.join(xdgConfig, 'omc-top'), { recursive: true });
  fs.writeFileSync(
    path.join(xdgConfig, 'omc-top', 'config.json'),
    JSON.stringify({
      notify: { debounceMs },
      push: { channels: [{ type: 'ntfy', url: channelUrl }], retries: 0, ...(timeoutMs ? { timeoutMs } : {}) },
    }),
  );
  return { ...m.env, XDG_CONFIG_HOME: xdgConfig, XDG_STATE_HOME: path.join(m.base, 'state') };
}

/** Waits until serve's page counts `n` items needing the user (its picture settled). */
export async function waitForServeCount(port: number, token: string, n: number, timeoutMs: number): Promise<void> {
  const by = Date.now() + timeoutMs;
  for (let count = await serveCount(port, token); count !== n; count = await serveCount(port, token)) {
    if (Date.now() > by) throw new Error(`serve never counted ${n} (count ${count})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
