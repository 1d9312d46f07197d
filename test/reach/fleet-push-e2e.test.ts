/**
 * The fleet view's push, end to end: the built bundle (`omc-top --all`) in a pty over two projects, with an
 * ntfy channel pointed at a loopback server. A Claude Code registry entry of one project flips to "waiting for
 * a permission prompt" → exactly one message, naming that project and that session. A second omc-top on the
 * same project (the plain monitor, with its own push lease) sees the next wait too, and the user still gets
 * one message: the fleet holds the project's lease, so the monitor stays quiet. (It did not: the fleet, which
 * writes nothing else to omc-top's state directory, could not create its lease file there and pushed without
 * one, so the monitor took the lease too and the user got each message twice.)
 *
 * The attention monitor takes its first settled picture of a project as the baseline (old state is never
 * news), so each process is first seen to have settled: a session already waiting at start shows "!" on its
 * row (the fleet) or in the "needs you" count (the monitor) only once that project's picture is settled; a
 * wait written before that would be part of the baseline and rightly not pushed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { loopbackServer } from '../helpers/loopback-http.js';
import { makeLive, sessionId } from '../helpers/sessions-gen.js';
import { waitFor } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';
import { rootFileName } from '../../src/io/state-dir.js';
import { makeMachine, type Machine } from '../fleet/fleet-tree.js';

/** Rewrites the registry entry of `sid` as Claude Code does when its status changes. */
function setStatus(m: Machine, sid: string, patch: Record<string, unknown>): void {
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

const waiting = (what: string) => ({ status: 'waiting', waitingFor: what });

describe('the fleet view pushes (omc-top --all, the bundle in a pty)', () => {
  // Each wait has its own ceiling; the test's is their sum, so a missing message fails with its own words.
  it(
    'one message per session that starts waiting, naming project and session; a second omc-top does not double it',
    async ({ pty }) => {
      const m = makeMachine();
      onTestFinished(() => m.cleanup());
      const ntfy = await loopbackServer(200);
      onTestFinished(() => ntfy.close());
      const shop = m.project('shop', 1);
      m.project('blog', 1);
      // A shop session already waiting when omc-top starts: in the view from the first settled picture, never pushed.
      const early = sessionId(2000);
      makeLive(shop.root, early);
      m.register(early, shop.dir);
      setStatus(m, early, waiting('permission prompt'));
      const later = sessionId(3000);
      makeLive(shop.root, later);
      m.register(later, shop.dir);

      // Each omc-top gets its own config file, the same but for the topic: the URL says which process sent.
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
      const bodies = () => ntfy.received.map((r) => r.body);
      const senders = () => ntfy.received.map((r) => r.url);

      const fleet = pty({ args: ['--all'], cols: 140, rows: 30, cwd: m.base, env: envFor('fleet') });
      await fleet.waitForText('shop  (4 sessions)', 30_000);
      await fleet.waitForText('blog  (2 sessions)', 30_000);
      // shop's monitor has settled: its waiting session's row carries the attention model's "!".
      await fleet.waitForText('!waiting', 30_000);
      expect(bodies()).toEqual([]);

      setStatus(m, shop.live, waiting('permission prompt: Bash rm -rf ./cache'));
      await waitFor(() => ntfy.received.length >= 1, { timeoutMs: 30_000, what: "the push for shop's session" });
      expect(bodies()[0]).toBe(
        `shop · ${shop.live.slice(0, 8)}: waiting for you: permission prompt: Bash rm -rf ./cache`,
      );

      // The fleet holds shop's push lease (omc-top's state directory, pid and start time), so another omc-top stays quiet.
      const lease = path.join(m.base, 'state', 'omc-top', rootFileName('push-lease', shop.root));
      expect(fs.existsSync(lease), 'the fleet recorded its push lease').toBe(true);
      expect(JSON.parse(fs.readFileSync(lease, 'utf8'))).toMatchObject({ pid: fleet.pty.pid });

      // A second omc-top on shop: the monitor, with its own notifier and its own try at shop's push lease.
      const monitor = pty({ args: ['--cwd', shop.dir], cols: 120, rows: 30, cwd: shop.dir, env: envFor('monitor') });
      // Settled: the two sessions already waiting are its "needs you" count (the title and the header say it).
      await monitor.waitForText(/needs you[: ]+2/, 30_000);
      setStatus(m, later, waiting('permission prompt: Edit src/app.ts'));
      // The monitor has seen the new wait (its count), so its notifier has had the transition too.
      await monitor.waitForText(/needs you[: ]+3/, 30_000);
      await waitFor(() => ntfy.received.length >= 2, { timeoutMs: 30_000, what: "the push for shop's second session" });
      expect(bodies()[1]).toBe(`shop · ${later.slice(0, 8)}: waiting for you: permission prompt: Edit src/app.ts`);
      // Nothing can be awaited for a message that must not come: the monitor has seen the wait (above) and
      // pushes with no debounce here, so a double would be on its way; give it a generous while to arrive.
      await new Promise((r) => setTimeout(r, scaled(3_000)));
      expect(ntfy.received.map((r) => `${r.url} ${r.body}`)).toHaveLength(2);
      expect(senders()).toEqual(['/fleet', '/fleet']);
      expect(bodies().some((b) => b.includes('blog'))).toBe(false);

      fleet.write('q');
      expect(await fleet.waitForExit(15_000)).toBe(0);
      monitor.write('q');
      expect(await monitor.waitForExit(15_000)).toBe(0);
    },
    scaled(240_000),
  );
});
