/**
 * A push lease handed over while the holder's debounce runs, end to end (the built bundle): the monitor in a pty
 * holds the project's push lease and has just seen a session start waiting; before its debounce ends, `serve`
 * starts and takes the lease (here the monitor is stopped meanwhile, which makes that moment certain; the sweep
 * saw it with the lease merely free). serve counts the waiting session as already there, no news; the monitor,
 * continued, finds the lease serve's. Before, neither pushed it, ever. Now the monitor records it as due in the
 * lease and serve, the holder, pushes it: once. Once serve has exited, the monitor pushes the next wait itself
 * and not the first again: its channel sends in order, so that push arriving bounds what it sent before.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { processStopped } from '../../src/io/process-start.js';
import { rootFileName } from '../../src/io/state-dir.js';
import { waitFor } from '../helpers/fixtures.js';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { heldBy } from '../helpers/lease-holder.js';
import { loopbackServer } from '../helpers/loopback-http.js';
import { BIN } from '../helpers/pty.js';
import { pushEnv, setStatus, waitForServeCount } from '../helpers/serve-e2e.js';
import { makeLive, sessionId } from '../helpers/sessions-gen.js';
import { scaled } from '../helpers/time-scale.js';
import { makeMachine } from '../fleet/fleet-tree.js';

describe('a push lease handed over while the debounce runs (the bundle)', () => {
  it(
    'serve taking the lease from a monitor about to push pushes that item, once',
    async ({ pty }) => {
      const m = makeMachine();
      onTestFinished(() => m.cleanup());
      const ntfy = await loopbackServer(200);
      onTestFinished(() => ntfy.close());
      const shop = m.project('shop', 1);
      // Waiting before either starts: both count it once settled, neither pushes it (old state is no news).
      const early = sessionId(4000);
      const first = sessionId(5000);
      const next = sessionId(6000);
      for (const sid of [early, first, next]) {
        makeLive(shop.root, sid);
        m.register(sid, shop.dir);
      }
      const lease = path.join(m.base, 'state', 'omc-top', rootFileName('push-lease', shop.root));
      // The monitor's debounce is long enough to stop it inside; serve's is none. The URL says who sent.
      const monitorEnv = pushEnv(m, 'monitor', `${ntfy.base}/monitor`, scaled(8_000));
      setStatus(m, early, { status: 'waiting', waitingFor: 'permission prompt' });
      const monitor = pty({ args: ['--cwd', shop.dir], cols: 120, rows: 30, cwd: shop.dir, env: monitorEnv });
      await monitor.waitForText(/needs you[: ]+1/, 30_000);
      await waitFor(() => heldBy(lease) === monitor.pty.pid, {
        timeoutMs: 30_000,
        what: 'the monitor holding the lease',
      });

      setStatus(m, first, { status: 'waiting', waitingFor: 'permission prompt' });
      await monitor.waitForText(/needs you[: ]+2/, 30_000);
      // Its debounce is running: it is stopped before it ends, so it cannot push before serve takes the lease.
      process.kill(monitor.pty.pid, 'SIGSTOP');
      await waitFor(() => processStopped(monitor.pty.pid), { what: 'the monitor stopped' });
      expect(ntfy.received, 'the monitor pushed before it was stopped: the debounce is too short').toEqual([]);

      const serve = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
        cwd: shop.dir,
        env: pushEnv(m, 'serve', `${ntfy.base}/serve`, 0),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      onTestFinished(() => void serve.kill('SIGKILL'));
      let out = '';
      serve.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      const [, port, token] = await waitFor(() => /http:\/\/127\.0\.0\.1:(\d+)\/#(\S+)/.exec(out), {
        timeoutMs: 30_000,
        what: 'serve listening',
      });
      // serve took the free lease at start, and counts the waiting session as already there (no news to it).
      await waitFor(() => heldBy(lease) === serve.pid, { what: 'serve holds the lease' });
      await waitForServeCount(Number(port), token as string, 2, scaled(30_000));

      process.kill(monitor.pty.pid, 'SIGCONT');
      await waitFor(() => ntfy.received.length >= 1, { timeoutMs: 40_000, what: 'the push of the wait' });
      expect(ntfy.received.map((r) => `${r.url} ${r.body}`)).toEqual([
        `/serve shop · ${first.slice(0, 8)}: waiting for you: permission prompt`,
      ]);
      expect(heldBy(lease)).toBe(serve.pid);

      serve.kill('SIGTERM');
      await new Promise((r) => serve.once('exit', r));
      setStatus(m, next, { status: 'waiting', waitingFor: 'permission prompt: Bash npm test' });
      await waitFor(() => ntfy.received.some((r) => r.url.startsWith('/monitor')), {
        timeoutMs: 40_000,
        what: "the monitor's push once it holds the lease",
      });
      expect(ntfy.received.map((r) => `${r.url} ${r.body}`)).toEqual([
        `/serve shop · ${first.slice(0, 8)}: waiting for you: permission prompt`,
        `/monitor shop · ${next.slice(0, 8)}: waiting for you: permission prompt: Bash npm test`,
      ]);

      monitor.write('q');
      expect(await monitor.waitForExit(15_000)).toBe(0);
    },
    scaled(240_000),
  );

  it(
    'N in the monitor holding the lease lets it go: serve pushes the next item',
    async ({ pty }) => {
      const m = makeMachine();
      onTestFinished(() => m.cleanup());
      const ntfy = await loopbackServer(200);
      onTestFinished(() => ntfy.close());
      const shop = m.project('shop', 1);
      const early = sessionId(7000);
      const first = sessionId(8000);
      for (const sid of [early, first]) {
        makeLive(shop.root, sid);
        m.register(sid, shop.dir);
      }
      const lease = path.join(m.base, 'state', 'omc-top', rootFileName('push-lease', shop.root));
      setStatus(m, early, { status: 'waiting', waitingFor: 'permission prompt' });
      const monitorEnv = pushEnv(m, 'monitor', `${ntfy.base}/monitor`, 0);
      const monitor = pty({ args: ['--cwd', shop.dir], cols: 120, rows: 30, cwd: shop.dir, env: monitorEnv });
      await monitor.waitForText(/needs you[: ]+1/, 30_000);
      await waitFor(() => heldBy(lease) === monitor.pty.pid, { timeoutMs: 30_000, what: 'the monitor holding it' });
      monitor.write('N');
      await monitor.waitForText(/notify off/, 30_000);

      const serve = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
        cwd: shop.dir,
        env: pushEnv(m, 'serve', `${ntfy.base}/serve`, 0),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      onTestFinished(() => void serve.kill('SIGKILL'));
      let out = '';
      serve.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      const [, port, token] = await waitFor(() => /http:\/\/127\.0\.0\.1:(\d+)\/#(\S+)/.exec(out), {
        timeoutMs: 30_000,
        what: 'serve listening',
      });
      await waitForServeCount(Number(port), token as string, 1, scaled(30_000));

      setStatus(m, first, { status: 'waiting', waitingFor: 'permission prompt: Bash npm test' });
      await monitor.waitForText(/needs you[: ]+2/, 30_000);
      await waitFor(() => ntfy.received.length >= 1, { timeoutMs: 40_000, what: "serve's push" });
      expect(ntfy.received.map((r) => `${r.url} ${r.body}`)).toEqual([
        `/serve shop · ${first.slice(0, 8)}: waiting for you: permission prompt: Bash npm test`,
      ]);
      expect(heldBy(lease)).toBe(serve.pid);

      monitor.write('q');
      expect(await monitor.waitForExit(15_000)).toBe(0);
    },
    scaled(240_000),
  );
});
