/**
 * A push counted only when the channel took it, end to end (the built bundle, a loopback ntfy):
 * - the monitor holding the push lease sends an item and is killed (SIGKILL) while the channel holds its answer;
 *   `serve`, started after, takes the lease and pushes the item: the channel takes it once (the killed monitor's
 *   request was cut unanswered). Before, the item counted as pushed once queued, and nobody pushed it again.
 * - the monitor holding the lease quits (`q`) while its debounce runs, with `serve` started after the item
 *   appeared (to serve, no news): serve takes the released lease and pushes the item by itself. Before, it
 *   waited for a message of its own. serve says at start that what already needs you is not pushed.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { rootFileName } from '../../src/io/state-dir.js';
import { waitFor } from '../helpers/fixtures.js';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { heldBy } from '../helpers/lease-holder.js';
import { loopbackServer } from '../helpers/loopback-http.js';
import { BIN } from '../helpers/pty.js';
import { pushEnv, setStatus, waitForServeCount } from '../helpers/serve-e2e.js';
import { makeLive, sessionId } from '../helpers/sessions-gen.js';
import { scaled } from '../helpers/time-scale.js';
import { makeMachine, type Machine } from '../fleet/fleet-tree.js';

/** `omc-top serve` on `dir` pushing to `url`: its port and token once listening, and its stderr so far. */
async function startServe(m: Machine, dir: string, url: string) {
  const serve = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    cwd: dir,
    env: pushEnv(m, 'serve', url, 0),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onTestFinished(() => void serve.kill('SIGKILL'));
  let out = '';
  let err = '';
  serve.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  serve.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const [, port, token] = await waitFor(() => /http:\/\/127\.0\.0\.1:(\d+)\/#(\S+)/.exec(out), {
    timeoutMs: 30_000,
    what: 'serve listening',
  });
  return { serve, port: Number(port), token: token as string, err: () => err };
}

describe('a push counted only when the channel took it (the bundle)', () => {
  it(
    'the holder killed before the channel answered: serve, started after, pushes the item; the channel takes it once',
    async ({ pty }) => {
      const m = makeMachine();
      onTestFinished(() => m.cleanup());
      // Holds every answer until the test lets go: the monitor's request arrives and waits.
      const ntfy = await loopbackServer('hang');
      onTestFinished(() => ntfy.close());
      const shop = m.project('shop', 1);
      // Waiting before the monitor starts (old state, not pushed): its count shows the monitor's picture settled.
      const early = sessionId(4000);
      const first = sessionId(4100);
      const next = sessionId(4200);
      for (const sid of [early, first, next]) {
        makeLive(shop.root, sid);
        m.register(sid, shop.dir);
      }
      const lease = path.join(m.base, 'state', 'omc-top', rootFileName('push-lease', shop.root));
      // No debounce; the channel's answer waited for as long as the config allows (the test kills it before).
      const monitorEnv = pushEnv(m, 'monitor', `${ntfy.base}/monitor`, 0, 60_000);
      setStatus(m, early, { status: 'waiting', waitingFor: 'permission prompt' });
      const monitor = pty({ args: ['--cwd', shop.dir], cols: 120, rows: 30, cwd: shop.dir, env: monitorEnv });
      await monitor.waitForText(/needs you[: ]+1/, 30_000);
      await waitFor(() => heldBy(lease) === monitor.pty.pid, { timeoutMs: 30_000, what: 'the monitor holding it' });

      setStatus(m, first, { status: 'waiting', waitingFor: 'permission prompt' });
      await waitFor(() => ntfy.received.length === 1, { timeoutMs: 40_000, what: "the monitor's request" });
      monitor.kill('SIGKILL');
      await monitor.waitForExit(15_000);
      await waitFor(() => ntfy.received[0]?.answered === 'cut', { what: "the killed monitor's request cut" });

      ntfy.answer = 200;
      const s = await startServe(m, shop.dir, `${ntfy.base}/serve`);
      await waitFor(() => ntfy.received.length >= 2, { timeoutMs: 40_000, what: "serve's push of the item" });
      // The next wait bounds what serve sent before it: its channel sends in order.
      await waitForServeCount(s.port, s.token, 2, scaled(30_000));
      setStatus(m, next, { status: 'waiting', waitingFor: 'permission prompt: Bash npm test' });
      await waitFor(() => ntfy.received.length >= 3, { timeoutMs: 40_000, what: "serve's push of the next wait" });
      ntfy.letGo();
      expect(ntfy.received.map((r) => `${r.answered} ${r.url} ${r.body}`)).toEqual([
        `cut /monitor shop · ${first.slice(0, 8)}: waiting for you: permission prompt`,
        `200 /serve shop · ${first.slice(0, 8)}: waiting for you: permission prompt`,
        `200 /serve shop · ${next.slice(0, 8)}: waiting for you: permission prompt: Bash npm test`,
      ]);
    },
    scaled(240_000),
  );

  it(
    'the holder quits while its debounce runs: serve, started after the item appeared, pushes it by itself',
    async ({ pty }) => {
      const m = makeMachine();
      onTestFinished(() => m.cleanup());
      const ntfy = await loopbackServer(200);
      onTestFinished(() => ntfy.close());
      const shop = m.project('shop', 1);
      const first = sessionId(4300);
      makeLive(shop.root, first);
      m.register(first, shop.dir);
      const lease = path.join(m.base, 'state', 'omc-top', rootFileName('push-lease', shop.root));
      // The longest debounce the config allows: the monitor quits inside it.
      const monitorEnv = pushEnv(m, 'monitor', `${ntfy.base}/monitor`, 60_000);
      const early = sessionId(4250);
      makeLive(shop.root, early);
      m.register(early, shop.dir);
      setStatus(m, early, { status: 'waiting', waitingFor: 'permission prompt' });
      const monitor = pty({ args: ['--cwd', shop.dir], cols: 120, rows: 30, cwd: shop.dir, env: monitorEnv });
      await monitor.waitForText(/needs you[: ]+1/, 30_000);
      await waitFor(() => heldBy(lease) === monitor.pty.pid, { timeoutMs: 30_000, what: 'the monitor holding it' });
      setStatus(m, first, { status: 'waiting', waitingFor: 'permission prompt' });
      await monitor.waitForText(/needs you[: ]+2/, 30_000);

      const s = await startServe(m, shop.dir, `${ntfy.base}/serve`);
      await waitForServeCount(s.port, s.token, 2, scaled(30_000));
      // Push is on: serve says the item it found waiting was not pushed (by it).
      await waitFor(() => s.err().includes('omc-top serve: push: only what newly needs you'), {
        what: "serve's push line",
      });
      expect(s.err()).toContain('what already needs you is on the page, not pushed');
      expect(heldBy(lease)).toBe(monitor.pty.pid);
      expect(ntfy.received, 'the debounce ended before the monitor quit: the machine was too slow').toEqual([]);

      monitor.write('q');
      expect(await monitor.waitForExit(15_000)).toBe(0);
      // Nothing else happens on the project: serve has no message of its own.
      await waitFor(() => ntfy.received.length >= 1, { timeoutMs: 40_000, what: "serve's push of the left item" });
      expect(ntfy.received.map((r) => `${r.answered} ${r.url} ${r.body}`)).toEqual([
        `200 /serve shop · ${first.slice(0, 8)}: waiting for you: permission prompt`,
      ]);
      expect(heldBy(lease)).toBe(s.serve.pid);
    },
    scaled(240_000),
  );
});
