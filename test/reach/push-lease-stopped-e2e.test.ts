/**
 * `serve` beside a stopped monitor, end to end (the built bundle): the monitor in a pty takes the project's push
 * lease, `serve` starts on the same project and stays quiet. The monitor is stopped (kill -STOP, what Ctrl-Z does
 * to a shell's job); a session then starts waiting: `serve` pushes it at once (it did not: the lease still named
 * the stopped monitor, and the item went out only minutes later, when the monitor was continued). Continued, the
 * monitor sees the same wait and sends nothing: the user gets it once. That is seen, not waited for: once serve has
 * exited, the monitor pushes the next wait, and its channel sends in order, so nothing it queued before can still
 * be on its way when that push has arrived.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { processStopped } from '../../src/io/process-start.js';
import { rootFileName } from '../../src/io/state-dir.js';
import { waitFor } from '../helpers/fixtures.js';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { loopbackServer } from '../helpers/loopback-http.js';
import { BIN } from '../helpers/pty.js';
import { makeLive, sessionId } from '../helpers/sessions-gen.js';
import { serveCount, setStatus } from '../helpers/serve-e2e.js';
import { scaled } from '../helpers/time-scale.js';
import { makeMachine } from '../fleet/fleet-tree.js';

describe('serve beside a stopped monitor (the bundle)', () => {
  it(
    'pushes an item while the monitor holding the lease is stopped; the continued monitor does not send it again',
    async ({ pty }) => {
      const m = makeMachine();
      onTestFinished(() => m.cleanup());
      const ntfy = await loopbackServer(200);
      onTestFinished(() => ntfy.close());
      const shop = m.project('shop', 1);
      // Waiting before either starts: both count it once settled, neither pushes it (old state is no news).
      const early = sessionId(2000);
      makeLive(shop.root, early);
      m.register(early, shop.dir);
      setStatus(m, early, { status: 'waiting', waitingFor: 'permission prompt' });
      const later = sessionId(3000);
      makeLive(shop.root, later);
      m.register(later, shop.dir);
      // Waits last, once serve is gone: the monitor's own push of it bounds what the monitor sent before (below).
      const last = sessionId(4000);
      makeLive(shop.root, last);
      m.register(last, shop.dir);
      // Each gets its own config file, the same but for the topic: the URL says which process sent.
      const envFor = (who: string) => {
        const xdgConfig = path.join(m.base, `config-${who}`);
        fs.mkdirSync(path.join(xdgConfig, 'omc-top'), { recursive: true });
        fs.writeFileSync(
          path.join(xdgConfig, 'omc-top', 'config.json'),
          JSON.stringify({
            notify: { debounceMs: 0 },
            push: { channels: [{ type: 'ntfy', url: `${ntfy.base}/${who}` }], retries: 0 },
          }),
        );
        return { ...m.env, XDG_CONFIG_HOME: xdgConfig, XDG_STATE_HOME: path.join(m.base, 'state') };
      };
      const lease = path.join(m.base, 'state', 'omc-top', rootFileName('push-lease', shop.root));
      const holder = () => (JSON.parse(fs.readFileSync(lease, 'utf8')) as { pid: number }).pid;

      const monitor = pty({ args: ['--cwd', shop.dir], cols: 120, rows: 30, cwd: shop.dir, env: envFor('monitor') });
      await monitor.waitForText(/needs you[: ]+1/, 30_000);
      expect(holder()).toBe(monitor.pty.pid);

      const serve = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
        cwd: shop.dir,
        env: envFor('serve'),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      onTestFinished(() => void serve.kill('SIGKILL'));
      let out = '';
      serve.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      const [, port, token] = await waitFor(() => /http:\/\/127\.0\.0\.1:(\d+)\/#(\S+)/.exec(out), {
        timeoutMs: 30_000,
        what: 'serve listening',
      });
      // Settled: serve's picture counts the session already waiting (its monitor's baseline is taken).
      const settledBy = Date.now() + scaled(30_000);
      for (let count = await serveCount(Number(port), token as string); count !== 1;) {
        if (Date.now() > settledBy) throw new Error(`serve never counted the waiting session (count ${count})`);
        await new Promise((r) => setTimeout(r, 100));
        count = await serveCount(Number(port), token as string);
      }
      expect(holder()).toBe(monitor.pty.pid);

      process.kill(monitor.pty.pid, 'SIGSTOP');
      await waitFor(() => processStopped(monitor.pty.pid), { what: 'the monitor stopped' });
      setStatus(m, later, { status: 'waiting', waitingFor: 'permission prompt: Edit src/app.ts' });
      await waitFor(() => ntfy.received.length >= 1, { timeoutMs: 30_000, what: 'the push from serve' });
      expect(ntfy.received.map((r) => `${r.url} ${r.body}`)).toEqual([
        `/serve shop · ${later.slice(0, 8)}: waiting for you: permission prompt: Edit src/app.ts`,
      ]);
      expect(holder()).toBe(serve.pid);

      process.kill(monitor.pty.pid, 'SIGCONT');
      // Continued, the monitor sees the wait (its count), so its notifier has had the transition too: had it pushed
      // the wait again, that message would already be in its channel's queue.
      await monitor.waitForText(/needs you[: ]+2/, 30_000);
      expect(holder()).toBe(serve.pid);

      // serve exits and gives the lease up; the next wait is the monitor's to push. Its channel sends one request at
      // a time, in order (feeds/notify/push/sender.ts), so once this push has arrived, anything it queued before
      // has arrived too: the bound of "sent nothing while serve held the lease", observed, not a fixed while.
      serve.kill('SIGTERM');
      await new Promise((r) => serve.once('exit', r));
      setStatus(m, last, { status: 'waiting', waitingFor: 'permission prompt: Bash npm test' });
      await waitFor(() => ntfy.received.some((r) => r.url.startsWith('/monitor')), {
        timeoutMs: 30_000,
        what: "the monitor's push once it holds the lease",
      });
      expect(ntfy.received.map((r) => `${r.url} ${r.body}`)).toEqual([
        `/serve shop · ${later.slice(0, 8)}: waiting for you: permission prompt: Edit src/app.ts`,
        `/monitor shop · ${last.slice(0, 8)}: waiting for you: permission prompt: Bash npm test`,
      ]);
      expect(holder()).toBe(monitor.pty.pid);

      monitor.write('q');
      expect(await monitor.waitForExit(15_000)).toBe(0);
    },
    scaled(240_000),
  );
});
