/**
 * A cancelled mode whose state holds no iteration (OMC 5.5.0's autopilot and ralplan as its keyword hook writes
 * them, 4.4.4's ultrawork) keeps its spend under its mode: the window a monitor saw it live in, from its start to
 * when the monitor saw its state go. The state is written by the real keyword hook and ended by a real cancel (OMC's
 * own state_clear, omc-top's cancel); the spend is read where the user reads it: the Cost pane of the monitor that
 * saw it, and a later `omc-top --json`'s `cost.by_mode` (the bundle, no monitor running).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll } from 'vitest';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { BUNDLE } from '../helpers/attention-surfaces.js';
import { waitFor } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';
import { writeTranscript } from '../helpers/claude-files.js';
import { assistant, prompt } from '../store/claude/lines.js';
import { hookEnv, hookScripts, OmcRunner, type OmcVersion } from './omc-runs/omc.js';
import { OmcStore } from '../../src/store/store.js';
import { makeOmcInstall } from '../../src/store/omc-install.js';
import { enableIterationSamples } from '../../src/feeds/iteration-sampling.js';
import { forgetConfiguredPrices } from '../../src/store/claude/price-config.js';
import { formatTokens } from '../../src/panes/history/rows.js';

const SID = 'aaaaaaaa-1111-4222-8333-0000000000d1';
const at = (hhmm: string) => Date.parse(`2026-12-02T${hhmm}:00.000Z`);
// usage(i) tokens (test/store/claude/lines.ts): 100+i in, 10+i out, 1000i cache read, 5 cache write.
const tok = (i: number) => 100 + i + 10 + i + 1000 * i + 5;

const runner = new OmcRunner();
afterAll(() => runner.close());

interface Case {
  name: string;
  version: OmcVersion;
  prompt: string;
  mode: string;
  cancel: (r: { cwd: string; home: string; cfg: string; now: number }) => Promise<void>;
}

const CASES: Case[] = [
  {
    name: "OMC 5.5.0's autopilot (no iteration field), ended by OMC's own state_clear",
    version: '5.5.0',
    prompt: 'autopilot build a small todo app',
    mode: 'autopilot',
    cancel: async (r) => {
      const out = await runner.tool('5.5.0', 'state_clear', { mode: 'autopilot', session_id: SID }, r);
      expect(out.isError, out.text).toBe(false);
    },
  },
  {
    name: "OMC 5.5.0's ralplan, ended by omc-top's cancel",
    version: '5.5.0',
    prompt: 'ralplan the storage refactor',
    mode: 'ralplan',
    cancel: async (r) => {
      const res = await runner.cancel([SID, '--omc-version', '5.5.0', '--json'], {
        cwd: r.cwd,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: r.home, CLAUDE_CONFIG_DIR: r.cfg },
        now: r.now,
      });
      expect(res.code, res.out).toBe(0);
    },
  },
  {
    name: "OMC 4.4.4's ultrawork (no iteration of its own), ended by omc-top's cancel",
    version: '4.4.4',
    prompt: 'ultrawork fix the flaky build',
    mode: 'ultrawork',
    cancel: async (r) => {
      const res = await runner.cancel([SID, '--omc-version', '4.4.4', '--json'], {
        cwd: r.cwd,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: r.home, CLAUDE_CONFIG_DIR: r.cfg },
        now: r.now,
      });
      expect(res.code, res.out).toBe(0);
    },
  },
];

describe('a cancelled mode without iterations keeps its spend under its mode', () => {
  it.for(CASES.map((c) => [c.name, c] as const))(
    '%s: on the Cost pane and in a later --json by_mode',
    { timeout: scaled(120_000) },
    async ([, c], { emptyProject: p, mount }) => {
      const home = path.join(p.dir, 'home');
      const cfg = path.join(home, '.claude');
      const state = path.join(p.dir, 'xdg-state');
      process.env.XDG_CONFIG_HOME = path.join(p.dir, 'no-config');
      forgetConfiguredPrices();
      onTestFinished(() => {
        delete process.env.XDG_CONFIG_HOME;
        forgetConfiguredPrices();
      });
      // One response before the mode, one while it ran, one after it ended.
      writeTranscript(cfg, p.dir, SID, [
        prompt(SID, '2026-12-02T09:00:00Z', 'hi'),
        ...assistant(SID, '2026-12-02T09:00:10Z', 'b1', 1, [{ type: 'text', text: 'before' }]),
        ...assistant(SID, '2026-12-02T10:30:10Z', 'b2', 2, [{ type: 'text', text: 'during' }]),
        ...assistant(SID, '2026-12-02T11:30:10Z', 'b3', 3, [{ type: 'text', text: 'after' }]),
      ]);

      // The real keyword hook writes the mode's state at 10:00 (its clock frozen there).
      const env = hookEnv(c.version, home);
      const stdin = JSON.stringify({
        hook_event_name: 'UserPromptSubmit',
        session_id: SID,
        cwd: p.dir,
        prompt: c.prompt,
      });
      for (const script of hookScripts(c.version, 'UserPromptSubmit'))
        await runner.hook(script, { cwd: p.dir, env, stdin, now: at('10:00') });
      const file = path.join(p.root, 'state', 'sessions', SID, `${c.mode}-state.json`);
      const written = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      expect(written).toMatchObject({ active: true, started_at: '2026-12-02T10:00:00.000Z' });
      expect(written.iteration).toBeUndefined();

      let clock = at('10:05');
      const store = new OmcStore({
        root: p.root,
        watch: 'auto',
        projectDir: p.dir,
        clock: () => clock,
        claude: { live: false, env: { CLAUDE_CONFIG_DIR: cfg, HOME: home } },
        // The rules of the OMC that wrote it (4.4.4's ultrawork is a live mode under 4.4.4's registry only).
        omc: makeOmcInstall(c.version as '5.5.0' | '4.4.4', 'test'),
      });
      const stopSamples = enableIterationSamples(store, { XDG_STATE_HOME: state });
      const live = () =>
        store.sessions.getSnapshot().sessions.some((s) => s.modes.some((m) => m.mode === c.mode && m.active));
      // Told of each snapshot after the samples are (listeners run in the order they subscribed): once this one
      // has seen the mode gone, the samples have seen it too.
      let liveSeen = false;
      let goneSeen = false;
      store.sessions.subscribe(() => {
        if (live()) liveSeen = true;
        else if (liveSeen) goneSeen = true;
      });
      store.start();
      const app = mount(store, { columns: 120, rows: 60 });
      await app.ready;
      await waitFor(() => liveSeen, { timeoutMs: 20_000, what: `the live ${c.mode}` });

      // The real cancel at 11:00; the monitor sees the state go then.
      clock = at('11:00');
      await c.cancel({ cwd: p.dir, home, cfg, now: at('11:00') });
      await waitFor(() => goneSeen, { timeoutMs: 20_000, what: 'the cancel seen' });

      // The Cost pane: the response during the mode is the mode's; those before and after are no loop's.
      await app.press('$');
      const pane = await app.waitForText('▌By day (UTC)');
      const byMode = pane.slice(pane.indexOf('▌By mode'), pane.indexOf('▌By day'));
      const row = (name: string) => byMode.split('\n').find((l) => l.trimStart().startsWith(`${name} `)) ?? '';
      expect(row(c.mode), byMode).toContain(`${formatTokens(tok(2))} tokens`);
      expect(row('(no loop)'), byMode).toContain(`${formatTokens(tok(1) + tok(3))} tokens`);
      stopSamples();

      // A fresh `omc-top --json` (the bundle, no monitor running) reads the window the monitor recorded.
      const json = JSON.parse(
        execFileSync(process.execPath, [BUNDLE, '--json', '--omc-version', c.version], {
          cwd: p.dir,
          encoding: 'utf8',
          env: {
            PATH: process.env.PATH,
            HOME: home,
            CLAUDE_CONFIG_DIR: cfg,
            XDG_STATE_HOME: state,
            XDG_CONFIG_HOME: path.join(p.dir, 'no-config'),
          },
        }),
      ) as { cost: { by_mode: Array<{ mode: string; tokens: number }> } };
      expect(Object.fromEntries(json.cost.by_mode.map((m) => [m.mode, m.tokens]))).toEqual({
        [c.mode]: tok(2),
        '(no loop)': tok(1) + tok(3),
      });
    },
  );
});
