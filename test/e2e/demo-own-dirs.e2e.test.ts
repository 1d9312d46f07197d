/**
 * `npm run demo` beside a user's real setup: a push channel in their config (docs/reach.md) and their state
 * directory. The demo's simulated "waiting for you: permission prompt" items are not theirs: nothing may reach
 * their webhook, and nothing of the demo's (push leases, iteration samples, status caches of a project that is
 * deleted at exit) may stay in their state, config or cache directories. The demo runs omc-top with its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/fixtures.js';
import { loopbackServer, type LoopbackServer } from '../helpers/loopback-http.js';
import { TerminalHarness } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

let h: TerminalHarness | null = null;
let sink: LoopbackServer | null = null;
let tmp: string | null = null;
afterEach(async () => {
  h?.dispose();
  await sink?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  h = sink = tmp = null;
});

/** Every file under `dir`, relative to it. */
const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => fs.statSync(path.join(dir, f)).isFile())
    : [];

describe('npm run demo with a push channel in the user config', () => {
  it(
    "pushes nothing to the user's channels and leaves nothing in their state, config or cache directories",
    { timeout: scaled(120_000) },
    async () => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-demo-user-'));
      sink = await loopbackServer(200);
      const dir = (name: string) => {
        const d = path.join(tmp as string, name);
        fs.mkdirSync(d, { recursive: true });
        return d;
      };
      const user = { home: dir('home'), config: dir('config'), state: dir('state'), cache: dir('cache'), t: dir('t') };
      const configFile = path.join(user.config, 'omc-top', 'config.json');
      fs.mkdirSync(path.dirname(configFile));
      fs.writeFileSync(
        configFile,
        JSON.stringify({ push: { channels: [{ type: 'webhook', url: `${sink.base}/hook` }] } }),
      );

      h = new TerminalHarness({
        bin: path.join(REPO, 'demo', 'run.mjs'),
        cols: 120,
        rows: 30,
        cwd: user.home,
        env: {
          HOME: user.home,
          XDG_CONFIG_HOME: user.config,
          XDG_STATE_HOME: user.state,
          XDG_CACHE_HOME: user.cache,
          TMPDIR: user.t,
        },
      });
      // The demo's first Claude asks for a permission: the item the user's channels got pushed.
      await h.waitForText('permission prompt', scaled(60_000));
      h.write('q');
      expect(await h.waitForExit(scaled(20_000))).toBe(0);

      expect(sink.received.map((r) => r.body)).toEqual([]);
      expect(filesUnder(user.state)).toEqual([]);
      expect(filesUnder(user.cache)).toEqual([]);
      expect(filesUnder(user.config)).toEqual([path.join('omc-top', 'config.json')]);
      // The demo's own project and directories are gone with it.
      expect(fs.readdirSync(user.t)).toEqual([]);
    },
  );
});
